package escapebench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"time"

	"sodworkbench.org/workbench/sod/batch"
	"sodworkbench.org/workbench/sod/internal/strictio"
)

// A journal is the file in which RunSuite records a suite's runs as they
// finish, so that an interrupted run resumes without redoing work and the
// shards of a suite run on N machines can be merged (MergeJournals). Its
// lines are JSON: first a JournalHeader naming the suite, the shard, the
// format (JournalFormat) and the environment that ran it, then one Record
// per finished run, and, once the shard is complete, the line
// {"complete": n} with its number of runs. A last line without its
// newline (a write cut by an interruption) is ignored. Journals written
// before the format was numbered (format 1: no "format" and no "env" in
// the header) are read as they are.

// JournalFormat is the format of the journals CreateJournal writes: 2
// adds the format and the environment (Env) to the header. ReadJournal
// reads formats 1 and 2 and refuses a later one.
const JournalFormat = 2

// MaxJournalBytes bounds the size of a journal ReadJournal reads (4 GiB;
// the default suite's journal is about 100 MB).
const MaxJournalBytes = 4 << 30

// JournalHeader is a journal's first line: the suite (a Spec), the
// shard (0/0 for the whole suite), the format (JournalFormat; 0 in a
// header of format 1, which had none) and the environment of the
// machine that ran the shard (zero in format 1), which merged outputs
// keep per shard. A resumed run and a merge check the suite and shard.
type JournalHeader struct {
	Format int  `json:"format,omitempty"`
	Bench  Spec `json:"bench"`
	ShardK int  `json:"shard_k"`
	ShardN int  `json:"shard_n"`
	Env    *Env `json:"env,omitempty"`
}

// Shard returns the header's shard.
func (h JournalHeader) Shard() batch.Shard { return batch.Shard{K: h.ShardK, N: h.ShardN} }

// sameSuite reports whether h and o are the headers of one suite and
// shard (whatever their format and environment).
func (h JournalHeader) sameSuite(o JournalHeader) bool {
	return reflect.DeepEqual(h.Bench, o.Bench) && h.ShardK == o.ShardK && h.ShardN == o.ShardN
}

// validate checks a header read from a file: a known format, a suite with
// families, methods and trials in range, a valid shard.
func (h JournalHeader) validate() error {
	switch {
	case h.Format < 0 || h.Format == 1 || h.Format > JournalFormat:
		return fmt.Errorf("journal format %d, want %d (or none, format 1): written by another version of escapebench", h.Format, JournalFormat)
	case h.Format == 0 && h.Env != nil:
		return fmt.Errorf("a header with an environment but no format")
	case len(h.Bench.Families) == 0 || len(h.Bench.Methods) == 0:
		return fmt.Errorf("the suite has %d families and %d methods, want at least one of each", len(h.Bench.Families), len(h.Bench.Methods))
	case h.Bench.Trials < 0 || h.Bench.Trials > MaxTrials || h.Bench.PerCell < 0 || h.Bench.PerCell > MaxInstancesPerFamily:
		return fmt.Errorf("the suite has %d trials (want 0…%d) and %d points per cell (want 0…%d)", h.Bench.Trials, MaxTrials, h.Bench.PerCell, MaxInstancesPerFamily)
	case h.Bench.MaxIter < 0 || h.Bench.MaxIter > 10_000_000 || h.Bench.MaxEscapes < 0 || h.Bench.MaxEscapes > 1000 || h.Bench.PMCIter < 0 || h.Bench.GaussTries < 0 || h.Bench.GaussTries > MaxGaussianTries:
		return fmt.Errorf("the suite's max_iter %d (want 0…10⁷), max_escapes %d (want 0…1000), pmc_iter %d (want ≥ 0) or gauss_tries %d (want 0…%d) is out of range", h.Bench.MaxIter, h.Bench.MaxEscapes, h.Bench.PMCIter, h.Bench.GaussTries, MaxGaussianTries)
	}
	for what, names := range map[string][]string{"family": h.Bench.Families, "method": h.Bench.Methods} {
		seen := map[string]bool{}
		for _, n := range names {
			if n == "" || seen[n] {
				return fmt.Errorf("the suite's %s list %q has an empty or repeated name", what, names)
			}
			seen[n] = true
		}
	}
	return h.Shard().Validate()
}

// Record is one line of a journal: a finished run with its timing (which
// TrialResult's JSON leaves out).
type Record struct {
	Result *TrialResult `json:"result"`
	CPUNs  int64        `json:"cpu_ns"`
	WallNs int64        `json:"wall_ns"`
}

// journalEnd is a complete journal's last line.
type journalEnd struct {
	Complete int `json:"complete"` // runs in the shard
}

// Journal is an open or read journal file.
type Journal struct {
	Header   JournalHeader
	path     string
	runs     []*TrialResult
	complete int      // runs counted by the completion line; −1 without one
	f        *os.File // open for appending; nil when read only
}

// checkJournalPath refuses a path that exists and is not a regular file
// (a FIFO, which opening would block on, a device, a directory).
func checkJournalPath(path string) error {
	if err := strictio.CheckRegular(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: journal %v", ErrBadBench, err)
	}
	return nil
}

// CreateJournal creates the journal at path for the suite and shard of h,
// empty but for its header (an existing file is replaced), open for
// RunSuite (RunOptions.Journal). The header written has format
// JournalFormat and, if h has none, the environment CurrentEnv. A path
// that is not a regular file (a FIFO, a device, a directory) is refused
// before it is opened. Close it when done.
func CreateJournal(path string, h JournalHeader) (*Journal, error) {
	if err := checkJournalPath(path); err != nil {
		return nil, err
	}
	h.Format = JournalFormat
	if h.Env == nil {
		e := CurrentEnv()
		h.Env = &e
	}
	if err := h.validate(); err != nil {
		return nil, fmt.Errorf("%w: CreateJournal %s: %v", ErrBadBench, path, err)
	}
	hb, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, append(hb, '\n'), 0o644); err != nil {
		return nil, err
	}
	return openAppend(&Journal{Header: h, path: path, complete: -1})
}

// ResumeJournal opens the journal at path to continue it: if the file
// exists it must be a journal ReadJournal accepts with the suite and shard
// of h (else an error naming the file and its header: another suite or
// shard), its finished runs are kept (Runs; RunSuite does not run them
// again) and a line cut by an interruption is removed; if it does not
// exist it is created as by CreateJournal. A path that is not a regular
// file is refused before it is opened. The header keeps the file's format
// and environment (the machine that began the shard).
func ResumeJournal(path string, h JournalHeader) (*Journal, error) {
	if err := checkJournalPath(path); err != nil {
		return nil, err
	}
	if _, err := os.Stat(path); err != nil {
		return CreateJournal(path, h)
	}
	j, err := ReadJournal(path)
	if err != nil {
		return nil, err
	}
	if !j.Header.sameSuite(h) {
		return nil, fmt.Errorf("%s belongs to another suite or shard (%+v); use another file or the same suite", path, j.Header)
	}
	// Cut a line left partial by an interrupted write, so that the records
	// appended next start on a line of their own.
	b, err := strictio.ReadRegular(path, MaxJournalBytes)
	if err != nil {
		return nil, err
	}
	if i := bytes.LastIndexByte(b, '\n'); i+1 < len(b) {
		if err := os.Truncate(path, int64(i+1)); err != nil {
			return nil, err
		}
	}
	return openAppend(j)
}

func openAppend(j *Journal) (*Journal, error) {
	f, err := os.OpenFile(j.path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return nil, err
	}
	j.f = f
	return j, nil
}

// ReadJournal reads the journal at path without opening it for writing
// (for MergeJournals, or to summarise the runs). Every line is checked as
// an argument would be, and the first problem is an error naming the file
// and the line: a path that is not a regular file (refused before it is
// opened), a file over MaxJournalBytes, a first line that is not a header
// (or of an unknown format, or with a suite without families or methods,
// or an invalid shard), a line that is not exactly one JSON record (a key
// twice, an unknown key, data after it), a run RunTrial could not have
// written (validateRun: negative counts, an unknown outcome, …) or of a
// family the suite does not have, one run twice with different results
// (the same run twice is kept once), a completion line with a negative
// count, twice, or followed by more runs.
func ReadJournal(path string) (*Journal, error) {
	b, err := strictio.ReadRegular(path, MaxJournalBytes)
	if err != nil {
		return nil, err
	}
	j, err := parseJournal(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	j.path = path
	return j, nil
}

// parseJournal reads a journal's bytes (ReadJournal); errors name the line.
func parseJournal(b []byte) (*Journal, error) {
	if i := bytes.LastIndexByte(b, '\n'); i+1 < len(b) {
		b = b[:i+1] // an interrupted write: drop the partial last line
	}
	first, rest, ok := bytes.Cut(b, []byte("\n"))
	j := &Journal{complete: -1}
	if !ok {
		return nil, fmt.Errorf("%w: not a bench journal (no suite header on its first line)", ErrBadBench)
	}
	if err := strictio.DecodeJSON(first, &j.Header); err != nil {
		return nil, fmt.Errorf("%w: not a bench journal (line 1 is no suite header: %v)", ErrBadBench, err)
	}
	if err := j.Header.validate(); err != nil {
		return nil, fmt.Errorf("%w: line 1: %v", ErrBadBench, err)
	}
	fams := map[string]bool{}
	for _, f := range j.Header.Bench.Families {
		fams[f] = true
	}
	lineOf := map[string]int{}
	byKey := map[string]*TrialResult{}
	line := 1
	for len(rest) > 0 {
		var l []byte
		l, rest, _ = bytes.Cut(rest, []byte("\n"))
		line++
		if j.complete >= 0 {
			return nil, fmt.Errorf("%w: line %d: a line after the completion line", ErrBadBench, line)
		}
		if bytes.HasPrefix(bytes.TrimSpace(l), []byte(`{"complete"`)) {
			var end journalEnd
			if err := strictio.DecodeJSON(l, &end); err != nil || end.Complete < 0 {
				return nil, fmt.Errorf("%w: line %d: not a completion line {\"complete\": n ≥ 0} (%v)", ErrBadBench, line, err)
			}
			j.complete = end.Complete
			continue
		}
		var rec Record
		if err := strictio.DecodeJSON(l, &rec); err != nil || rec.Result == nil {
			if err == nil {
				err = errors.New("no result")
			}
			return nil, fmt.Errorf("%w: line %d: not a run record (%v)", ErrBadBench, line, err)
		}
		r := rec.Result
		r.Cost.CPU = time.Duration(rec.CPUNs)
		r.Cost.Wall = time.Duration(rec.WallNs)
		if err := validateRun(fmt.Sprintf("line %d", line), r, true); err != nil {
			return nil, err
		}
		if !fams[r.Family] {
			return nil, fmt.Errorf("%w: line %d: a run of family %q, which the suite (%v) does not have", ErrBadBench, line, r.Family, j.Header.Bench.Families)
		}
		if old, ok := byKey[r.Key()]; ok {
			if !sameRun(old, r) {
				return nil, fmt.Errorf("%w: lines %d and %d hold run %s / %s / %s / trial %d with different results", ErrBadBench, lineOf[r.Key()], line, r.Family, r.Instance, r.Method, r.Trial)
			}
			continue
		}
		byKey[r.Key()], lineOf[r.Key()] = r, line
		j.runs = append(j.runs, r)
	}
	return j, nil
}

// sameRun reports whether a and b are the same run with the same results
// (their JSON, which holds no timing, is equal).
func sameRun(a, b *TrialResult) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// Path returns the journal's file name. On a nil journal it panics with
// an error wrapping ErrBadBench (it has no error result).
func (j *Journal) Path() string {
	if j == nil {
		panic(fmt.Errorf("%w: Journal.Path on a nil *Journal (use CreateJournal, ResumeJournal or ReadJournal)", ErrBadBench))
	}
	return j.path
}

// Runs returns the finished runs the journal held when it was read or
// resumed, in the order they finished (none for a nil journal).
func (j *Journal) Runs() []*TrialResult {
	if j == nil {
		return nil
	}
	return j.runs
}

// ShardEnvs returns the environments of the shards of js (one journal
// per shard, as MergeJournals takes them) in shard order: element k is
// the Env of shard k's header, zero for a journal of format 1 (which
// recorded none) or a shard not in js. For PageInfo.Shards.
func ShardEnvs(js []*Journal) []Env {
	n := 0
	for _, j := range js {
		if j != nil {
			n = max(n, j.Header.ShardN)
		}
	}
	out := make([]Env, n)
	for _, j := range js {
		if j != nil && j.Header.Env != nil && j.Header.ShardK < n {
			out[j.Header.ShardK] = *j.Header.Env
		}
	}
	return out
}

// Complete reports whether the journal's shard finished: its last line
// counts the runs, and they are all there (false for a nil journal).
func (j *Journal) Complete() bool {
	if j == nil {
		return false
	}
	rs, err := Canonical(j.runs)
	return err == nil && j.complete == len(rs)
}

// Close closes a journal open for writing; it does nothing on a read one.
func (j *Journal) Close() error {
	if j == nil {
		return fmt.Errorf("%w: Close on a nil *Journal", ErrBadBench)
	}
	if j.f == nil {
		return nil
	}
	err := j.f.Close()
	j.f = nil
	return err
}

// append writes r as one line.
func (j *Journal) append(r *TrialResult) error {
	b, err := json.Marshal(Record{Result: r, CPUNs: int64(r.Cost.CPU), WallNs: int64(r.Cost.Wall)})
	if err != nil {
		return err
	}
	_, err = j.f.Write(append(b, '\n'))
	return err
}

// finish writes the completion line of a shard of n runs.
func (j *Journal) finish(n int) error {
	b, _ := json.Marshal(journalEnd{Complete: n})
	_, err := j.f.Write(append(b, '\n'))
	return err
}

// MergeJournals combines the journals of the N shards of one suite (each
// k in [0, N) exactly once, in any order, each complete) into the runs of
// the whole suite, in canonical order: the same runs as one unsharded
// RunSuite, byte for byte in WriteResultsJSON. The journal of an
// unsharded run is the one shard 0/1 of its suite, so merging it alone
// gives its runs (reproduce bench merge makes the report of any
// journal). Journals of another suite or sharding, of another build (the
// version or revision of their Env differ), a shard given twice, an
// incomplete or a missing one are refused with an error wrapping
// ErrBadBench naming the file or the shard.
func MergeJournals(js []*Journal) ([]*TrialResult, error) {
	if len(js) == 0 {
		return nil, fmt.Errorf("%w: no journal to merge", ErrBadBench)
	}
	var all []*TrialResult
	first := js[0]
	seen := map[int]string{}
	for i, j := range js {
		if j == nil {
			return nil, fmt.Errorf("%w: MergeJournals: journal %d is nil", ErrBadBench, i)
		}
		h := j.Header
		if h.ShardN < 1 { // an unsharded run's journal is shard 0/1
			h.ShardK, h.ShardN = 0, 1
		}
		switch {
		case !reflect.DeepEqual(first.Header.Bench, h.Bench) || max(first.Header.ShardN, 1) != h.ShardN:
			return nil, fmt.Errorf("%w: %s belongs to another suite or sharding than %s", ErrBadBench, j.path, first.path)
		case seen[h.ShardK] != "":
			return nil, fmt.Errorf("%w: shard %d/%d given twice (%s and %s)", ErrBadBench, h.ShardK, h.ShardN, seen[h.ShardK], j.path)
		case !j.Complete():
			return nil, fmt.Errorf("%w: %s: shard %d/%d is not complete (rerun its command to resume it)", ErrBadBench, j.path, h.ShardK, h.ShardN)
		}
		if e, f := h.Env, first.Header.Env; e != nil && f != nil && (e.Version != f.Version || e.Revision != f.Revision) {
			return nil, fmt.Errorf("%w: %s was run by build %s %s, %s by %s %s: the shards of one suite must come from one build", ErrBadBench, j.path, e.Version, e.Revision, first.path, f.Version, f.Revision)
		}
		seen[h.ShardK] = j.path
		all = append(all, j.runs...)
	}
	for k := range max(first.Header.ShardN, 1) {
		if seen[k] == "" {
			return nil, fmt.Errorf("%w: shard %d/%d is missing", ErrBadBench, k, max(first.Header.ShardN, 1))
		}
	}
	return Canonical(all)
}
