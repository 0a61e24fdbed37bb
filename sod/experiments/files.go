package experiments

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/batch"
	"sodworkbench.org/workbench/sod/internal/strictio"
	"sodworkbench.org/workbench/sod/quote"
)

// The files of a result, as the command reproduce writes them: the result
// itself as <name>.json (encoding/json of the result type, complete) and
// its tables as <name>_<table>.csv (the header first, numbers in Go's
// shortest round-trip form), for readers who want the data without Go.

// A CSVTable is one table of a result: its name, which ends the file's
// name (<experiment>_<Name>.csv), and its rows, the header first.
type CSVTable struct {
	Name string
	Rows [][]string
}

// A FileFormat says which files WriteResultFiles writes.
type FileFormat int

// The file formats.
const (
	FormatJSONAndCSV FileFormat = iota // <name>.json and every <name>_<table>.csv
	FormatJSON                         // <name>.json only
	FormatCSV                          // the CSV tables only
)

var fileFormats = []string{FormatJSONAndCSV: "both", FormatJSON: "json", FormatCSV: "csv"}

// String returns "both", "json" or "csv" (ParseFileFormat's words).
func (f FileFormat) String() string {
	if f < 0 || int(f) >= len(fileFormats) {
		return fmt.Sprintf("FileFormat(%d)", int(f))
	}
	return fileFormats[f]
}

// ParseFileFormat parses "json", "csv" or "both".
func ParseFileFormat(s string) (FileFormat, error) {
	for f, w := range fileFormats {
		if s == w {
			return FileFormat(f), nil
		}
	}
	return 0, fmt.Errorf("want one of json, csv, both (got %q)", s)
}

// MarshalText returns String's word, so that a FileFormat is a flag value
// (flag.TextVar) and a JSON string.
func (f FileFormat) MarshalText() ([]byte, error) {
	if f < 0 || int(f) >= len(fileFormats) {
		return nil, fmt.Errorf("%w: %v is no file format", ErrBadExperiment, f)
	}
	return []byte(f.String()), nil
}

// UnmarshalText parses a word of ParseFileFormat.
func (f *FileFormat) UnmarshalText(b []byte) error {
	v, err := ParseFileFormat(string(b))
	if err == nil {
		*f = v
	}
	return err
}

// WriteResultFiles writes result as dir/<name>.json and each table as
// dir/<name>_<table>.csv, as format asks; dir must exist. The names are
// checked by sod.CheckIdentifier (never a path) before any file is
// written.
func WriteResultFiles(dir, name string, format FileFormat, result any, tables []CSVTable) error {
	if dir == "" {
		return fmt.Errorf("%w: empty directory name", ErrBadExperiment)
	}
	if format < 0 || int(format) >= len(fileFormats) {
		return fmt.Errorf("%w: file format %d: want FormatJSONAndCSV, FormatJSON or FormatCSV", ErrBadExperiment, int(format))
	}
	if err := sod.CheckIdentifier("experiments: result name", name); err != nil {
		return err
	}
	for _, t := range tables {
		if err := sod.CheckIdentifier("experiments: table name", t.Name); err != nil {
			return err
		}
	}
	// A file that cannot be written does not stop the others; the error
	// names every file that failed.
	var failed []error
	if format != FormatCSV {
		b, err := json.Marshal(result)
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, name+".json"), b, 0o644)
		}
		if err != nil {
			failed = append(failed, fmt.Errorf("experiments: %s.json: %w", name, err))
		}
	}
	if format != FormatJSON {
		for _, t := range tables {
			if err := writeCSV(filepath.Join(dir, name+"_"+t.Name+".csv"), t.Rows); err != nil {
				failed = append(failed, fmt.Errorf("experiments: %s_%s.csv: %w", name, t.Name, err))
			}
		}
	}
	return errors.Join(failed...)
}

// writeCSV writes rows as a CSV file; a cell that is not a number is
// caller text (a label, a variant name) and goes through quote.CSV.
func writeCSV(path string, rows [][]string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	for _, row := range rows {
		out := make([]string, len(row))
		for i, c := range row {
			out[i] = c
			if _, err := strconv.ParseFloat(c, 64); err != nil {
				out[i] = quote.CSV(c)
			}
		}
		w.Write(out)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func itoa(i int) string { return strconv.Itoa(i) }

// ftoa writes a number of a CSV table: the shortest form that reads back
// exactly.
func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func joinFloats(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = ftoa(x)
	}
	return strings.Join(s, " ")
}

// CSVTables returns the tables of the basic example: "paths" (every
// iterate of every run) and "landscape" (h on the grid).
func (r *BasicExampleResult) CSVTables() []CSVTable {
	if r == nil {
		panic(fmt.Errorf("%w: BasicExampleResult.CSVTables on a nil result", ErrBadExperiment))
	}
	rows := [][]string{{"method", "start", "k", "x", "y", "h", "dist"}}
	for _, p := range r.Paths {
		for k := range p.X {
			rows = append(rows, []string{p.Method, itoa(p.Start), itoa(k), ftoa(p.X[k]), ftoa(p.Y[k]), ftoa(p.H[k]), ftoa(p.Dist[k])})
		}
	}
	grid := [][]string{{"x", "y", "h"}}
	for j, y := range r.GridY {
		for i, x := range r.GridX {
			grid = append(grid, []string{ftoa(x), ftoa(y), ftoa(r.H[j][i])})
		}
	}
	return []CSVTable{{"paths", rows}, {"landscape", grid}}
}

// CSVTables returns the tables of a case study: "curves" (h, ‖∇h‖, the
// distance to M* and X per iteration) and "lifted" (the lifted panels,
// closed form and exact, over t).
func (r *CaseStudyResult) CSVTables() []CSVTable {
	if r == nil {
		panic(fmt.Errorf("%w: CaseStudyResult.CSVTables on a nil result", ErrBadExperiment))
	}
	curves := [][]string{{"iter", "h", "grad_norm", "dist", "x"}}
	for k := range r.Iter {
		curves = append(curves, []string{itoa(r.Iter[k]), ftoa(r.H[k]), ftoa(r.GradNorm[k]), ftoa(r.Dist[k]), joinFloats(r.Path[k])})
	}
	L := r.Lifted
	lifted := [][]string{{"t", "closed_log10_hl", "closed_log10_a", "closed_log10_b", "closed_log10_c", "exact_log10_hl", "exact_log10_a", "exact_log10_b", "exact_log10_c"}}
	for k := range L.T {
		lifted = append(lifted, []string{ftoa(L.T[k]), ftoa(L.CloseHL[k]), ftoa(L.CloseA[k]), ftoa(L.CloseB[k]), ftoa(L.CloseC[k]),
			ftoa(L.ExactHL[k]), ftoa(L.ExactA[k]), ftoa(L.ExactB[k]), ftoa(L.ExactC[k])})
	}
	return []CSVTable{{"curves", curves}, {"lifted", lifted}}
}

// CSVTables returns the table of the quadratic network: "curves" (the
// training loss per iteration of each run of panels (a) and (b)).
func (r *QNNResult) CSVTables() []CSVTable {
	if r == nil {
		panic(fmt.Errorf("%w: QNNResult.CSVTables on a nil result", ErrBadExperiment))
	}
	rows := [][]string{{"panel", "name", "iter", "h"}}
	for _, set := range []struct {
		panel  string
		curves []LossCurve
	}{{"a", r.Optimizers}, {"b", r.Searches}} {
		for _, curve := range set.curves {
			for k := range curve.Iter {
				rows = append(rows, []string{set.panel, curve.Name, itoa(curve.Iter[k]), ftoa(curve.H[k])})
			}
		}
	}
	return []CSVTable{{"curves", rows}}
}

// CSVTables returns the tables of the success-rate study: "summary" (one
// row per cell), "trials" (one per trial) and "trajectories" (the distance
// to M* along GD and GD+SOD of every trial).
func (r *StudyResult) CSVTables() []CSVTable {
	if r == nil {
		panic(fmt.Errorf("%w: StudyResult.CSVTables on a nil result", ErrBadExperiment))
	}
	summary := [][]string{{"n", "eps", "trials", "gd_successes", "sod_successes", "escapes", "escape_descent", "escape_errors"}}
	trials := [][]string{{"n", "eps", "trial", "gd_dist", "gd_success", "gd_iter", "sod_dist", "sod_success", "sod_iter", "outcome", "escapes"}}
	traj := [][]string{{"n", "eps", "trial", "method", "iter", "dist"}}
	for _, cell := range r.Cells {
		summary = append(summary, []string{itoa(cell.N), ftoa(cell.Eps), itoa(len(cell.Trials)), itoa(cell.GDSuccesses), itoa(cell.SODSuccesses), itoa(cell.Escapes), itoa(cell.EscapeDescent), itoa(cell.EscapeErrors)})
		for _, t := range cell.Trials {
			trials = append(trials, []string{itoa(cell.N), ftoa(cell.Eps), itoa(t.Index), ftoa(t.GDDist), strconv.FormatBool(t.GDSuccess), itoa(t.GDIter),
				ftoa(t.SODDist), strconv.FormatBool(t.SODSuccess), itoa(t.SODIter), t.Outcome, itoa(len(t.Escapes))})
			for _, m := range []struct {
				name string
				tr   Trajectory
			}{{"GD", t.GD}, {"GD+SOD", t.SOD}} {
				for k := range m.tr.Iter {
					traj = append(traj, []string{itoa(cell.N), ftoa(cell.Eps), itoa(t.Index), m.name, itoa(m.tr.Iter[k]), ftoa(m.tr.Dist[k])})
				}
			}
		}
	}
	return []CSVTable{{"summary", summary}, {"trials", trials}, {"trajectories", traj}}
}

// AblationWithScans is the ablation table with the descent scan of each of
// its lifting orders (RunDescentScan over t on LogGrid(1, 10⁷, 200)): the
// result reproduce ablation writes (ablation.json).
type AblationWithScans struct {
	*AblationResult
	DescentScans []*DescentScanResult `json:"descent_scans"`
}

// RunAblationWithScans runs the ablation table (RunAblation, reporting to
// prog) and then the descent scan of each lifting order of cfg.
func RunAblationWithScans(ctx context.Context, cfg AblationConfig, prog batch.ProgressFunc) (*AblationWithScans, error) {
	r, err := RunAblation(ctx, cfg, prog)
	if err != nil {
		return nil, err
	}
	ts, err := LogGrid(1, 10000000, 200)
	if err != nil {
		return nil, err
	}
	out := &AblationWithScans{AblationResult: r}
	for _, l := range cfg.Ls {
		s, err := RunDescentScan(ctx, DescentScanConfig{Ablation: cfg, L: l, Ts: ts}, nil)
		if err != nil {
			return nil, err
		}
		out.DescentScans = append(out.DescentScans, s)
	}
	return out, nil
}

// CSVTables returns the tables of the ablation: "table" (one row per (l, t)
// cell) and "descent_scan" (h at the β- and γ-type points over t, per l).
func (a *AblationWithScans) CSVTables() []CSVTable {
	if a == nil {
		panic(fmt.Errorf("%w: AblationWithScans.CSVTables on a nil result", ErrBadExperiment))
	}
	rows := [][]string{{"l", "rho_min", "u_beta", "u_gamma", "t", "kind", "defined", "d_hat", "d_star", "ratio", "h_hat", "h_check", "descent", "final"}}
	if a.AblationResult != nil {
		for _, row := range a.Rows {
			for _, cell := range row.Cells {
				rows = append(rows, []string{itoa(row.L), ftoa(row.RhoMin), row.UBetaS, row.UGamS, strconv.FormatInt(cell.T, 10), cell.Kind.String(),
					strconv.FormatBool(cell.Defined), ftoa(cell.DHat), ftoa(cell.DStar), ftoa(cell.Ratio), ftoa(cell.HHat), ftoa(cell.HCheck), strconv.FormatBool(cell.Descent), cell.Final.String()})
			}
		}
	}
	scan := [][]string{{"l", "t", "h_hat", "h_beta", "h_gamma"}}
	for _, s := range a.DescentScans {
		for k := range s.T {
			scan = append(scan, []string{itoa(s.L), ftoa(s.T[k]), ftoa(s.HHat), ftoa(s.HBeta[k]), ftoa(s.HGamma[k])})
		}
	}
	return []CSVTable{{"table", rows}, {"descent_scan", scan}}
}

// StudyShardFile is the name of the file WriteStudyShard writes shard k of
// n to: "study-shard-k-of-n.json"; StudyShardPattern matches every such
// name (filepath.Glob).
func StudyShardFile(k, n int) string { return fmt.Sprintf("study-shard-%d-of-%d.json", k, n) }

// StudyShardPattern is the filepath.Glob pattern of StudyShardFile's names.
const StudyShardPattern = "study-shard-*-of-*.json"

// WriteStudyShard writes sh as JSON to dir/StudyShardFile(sh.Shard,
// sh.Shards), for MergeStudy in another process (ReadStudyShard).
func WriteStudyShard(dir string, sh *StudyShard) error {
	if dir == "" {
		return fmt.Errorf("%w: empty directory name", ErrBadExperiment)
	}
	if sh == nil {
		return fmt.Errorf("%w: nil study shard", ErrBadExperiment)
	}
	b, err := json.Marshal(sh)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, StudyShardFile(sh.Shard, sh.Shards)), b, 0o644)
}

// ReadStudyShard reads a file written by WriteStudyShard, checked as an
// argument: a path that is not a regular file (a FIFO, a device, a
// directory) is refused before it is opened; the file must be one JSON
// object in the writer's spelling (a key twice, an unknown key or one
// spelled in another case, data after it are refused); the shard number,
// the settings (the ranges RunStudy accepts) and the cells (those of the
// settings, with this shard's trials, each once, counts equal to the
// trials') must be what RunStudyShard writes. Errors name the file.
func ReadStudyShard(path string) (*StudyShard, error) {
	b, err := readStudyFile(path)
	if err != nil {
		return nil, err
	}
	sh, err := parseStudyShard(b)
	if err != nil {
		return nil, fmt.Errorf("%s is not a study shard: %w", path, err)
	}
	return sh, nil
}

// parseStudyShard is ReadStudyShard on the file's bytes.
func parseStudyShard(b []byte) (*StudyShard, error) {
	var sh StudyShard
	if err := strictio.DecodeJSON(b, &sh); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadExperiment, err)
	}
	shard := batch.Shard{K: sh.Shard, N: sh.Shards}
	if err := shard.Validate(); err != nil || sh.Shards < 1 {
		return nil, fmt.Errorf("%w: shard %d of %d, want 0 ≤ k < N ≤ %d", ErrBadExperiment, sh.Shard, sh.Shards, batch.MaxShards)
	}
	if err := sh.Settings.validate(); err != nil {
		return nil, err
	}
	if err := validateCells(sh.Settings, sh.Cells, &shard); err != nil {
		return nil, err
	}
	return &sh, nil
}
