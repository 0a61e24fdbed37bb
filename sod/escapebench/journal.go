package escapebench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"time"

	"sodworkbench.org/workbench/sod/batch"
)

// A journal is the file in which RunSuite records a suite's runs as they
// finish, so that an interrupted run resumes without redoing work and the
// shards of a suite run on N machines can be merged (MergeJournals). Its
// lines are JSON: first a JournalHeader naming the suite and the shard,
// then one Record per finished run, and, once the shard is complete, the
// line {"complete": n} with its number of runs. A last line without its
// newline (a write cut by an interruption) is ignored.

// JournalHeader is a journal's first line: the suite (a Spec) and the
// shard (0/0 for the whole suite). A resumed run and a merge check it.
type JournalHeader struct {
	Bench  Spec `json:"bench"`
	ShardK int  `json:"shard_k"`
	ShardN int  `json:"shard_n"`
}

// Shard returns the header's shard.
func (h JournalHeader) Shard() batch.Shard { return batch.Shard{K: h.ShardK, N: h.ShardN} }

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

// CreateJournal creates the journal at path for the suite and shard of h,
// empty but for its header (an existing file is replaced), open for
// RunSuite (RunOptions.Journal). Close it when done.
func CreateJournal(path string, h JournalHeader) (*Journal, error) {
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
// exists it must have header h (else an error naming the file and its
// header: another suite or shard), its finished runs are kept (Runs; RunSuite
// does not run them again) and a line cut by an interruption is removed;
// if it does not exist it is created as by CreateJournal.
func ResumeJournal(path string, h JournalHeader) (*Journal, error) {
	if _, err := os.Stat(path); err != nil {
		return CreateJournal(path, h)
	}
	j, err := ReadJournal(path)
	if err != nil {
		return nil, err
	}
	if !reflect.DeepEqual(j.Header, h) {
		return nil, fmt.Errorf("%s belongs to another suite or shard (%+v); use another file or the same suite", path, j.Header)
	}
	// Cut a line left partial by an interrupted write, so that the records
	// appended next start on a line of their own.
	b, err := os.ReadFile(path)
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
// (for MergeJournals, or to summarise the runs). A file without a header
// on its first line, or with a line that is not a run record, is an error
// naming the file.
func ReadJournal(path string) (*Journal, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if i := bytes.LastIndexByte(b, '\n'); i+1 < len(b) {
		b = b[:i+1] // an interrupted write: drop the partial last line
	}
	first, rest, ok := bytes.Cut(b, []byte("\n"))
	j := &Journal{path: path, complete: -1}
	dec := json.NewDecoder(bytes.NewReader(first))
	dec.DisallowUnknownFields()
	if !ok || dec.Decode(&j.Header) != nil || len(j.Header.Bench.Families) == 0 {
		return nil, fmt.Errorf("%s is not a bench journal (no suite header on its first line)", path)
	}
	sc := bufio.NewScanner(bytes.NewReader(rest))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for line := 2; sc.Scan(); line++ {
		var end journalEnd
		if l := sc.Bytes(); bytes.HasPrefix(l, []byte(`{"complete":`)) && json.Unmarshal(l, &end) == nil {
			j.complete = end.Complete
			continue
		}
		var rec Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil || rec.Result == nil {
			return nil, fmt.Errorf("%s: line %d: not a run record (%v)", path, line, err)
		}
		rec.Result.Cost.CPU = time.Duration(rec.CPUNs)
		rec.Result.Cost.Wall = time.Duration(rec.WallNs)
		j.runs = append(j.runs, rec.Result)
	}
	return j, sc.Err()
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
// RunSuite, byte for byte in WriteResultsJSON. Journals of another suite
// or sharding, of an unsharded run, a shard given twice, an incomplete or
// a missing one are refused with an error wrapping ErrBadBench
// naming the file or the shard.
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
		switch {
		case !reflect.DeepEqual(first.Header.Bench, h.Bench) || first.Header.ShardN != h.ShardN:
			return nil, fmt.Errorf("%w: %s belongs to another suite or sharding than %s", ErrBadBench, j.path, first.path)
		case h.ShardN < 1:
			return nil, fmt.Errorf("%w: %s is the journal of an unsharded run, not a shard", ErrBadBench, j.path)
		case seen[h.ShardK] != "":
			return nil, fmt.Errorf("%w: shard %d/%d given twice (%s and %s)", ErrBadBench, h.ShardK, h.ShardN, seen[h.ShardK], j.path)
		case !j.Complete():
			return nil, fmt.Errorf("%w: %s: shard %d/%d is not complete (rerun its command to resume it)", ErrBadBench, j.path, h.ShardK, h.ShardN)
		}
		seen[h.ShardK] = j.path
		all = append(all, j.runs...)
	}
	for k := range first.Header.ShardN {
		if seen[k] == "" {
			return nil, fmt.Errorf("%w: shard %d/%d is missing", ErrBadBench, k, first.Header.ShardN)
		}
	}
	return Canonical(all)
}
