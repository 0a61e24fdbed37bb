package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// commandPrefix starts the line that names the go test run whose output
// follows it.
const commandPrefix = "$"

// loadPrefix starts the line of the raw output that records the machine's
// load averages (1, 5, 15 minutes) after a package's benchmarks ran.
const loadPrefix = "loadavg:"

// rawHeading is the heading of the report's last section, the raw output;
// parseBench reads only what follows it when it is present.
const rawHeading = "## Raw benchmark output"

// modulePrefix is cut from package paths in the tables.
const modulePrefix = "sodworkbench.org/workbench/"

// regenerate is the command that writes the committed report.
const regenerate = "go run ./sod/cmd/perfreport -o sod/PERFORMANCE.md"

// bench is one benchmark's samples: every value of every run, by unit.
type bench struct {
	pkg, name string // name without the -GOMAXPROCS suffix
	samples   map[string][]float64
}

// results is a parsed `go test -bench` output.
type results struct {
	commands []string    // the "$ go test ..." lines, without the prefix
	env      [][2]string // goos, goarch, cpu, … in the order seen, each once
	loads    []string    // the load averages recorded after each package (loadPrefix lines)
	benches  []*bench    // in the order seen
	byKey    map[string]*bench
	raw      []byte // the output as read, written back at the end of the report
}

// errNoBenchmarks is returned for input without any benchmark line.
var errNoBenchmarks = errors.New("no benchmark results in the input (lines starting with \"Benchmark\")")

var procsSuffix = regexp.MustCompile(`-[0-9]+$`)

// parseBench reads `go test -bench` output (or a report made from it: then
// the part after rawHeading). Several runs of one benchmark (-count) add
// samples.
func parseBench(raw []byte) (*results, error) {
	if i := bytes.Index(raw, []byte("\n"+rawHeading+"\n")); i >= 0 {
		raw = raw[i+len(rawHeading)+2:]
		open := []byte("```text\n")
		j := bytes.Index(raw, open)
		if j < 0 {
			return nil, errors.New("the raw output after \"" + rawHeading + "\" is not in a ```text block")
		}
		raw = raw[j+len(open):]
		k := bytes.Index(raw, []byte("\n```"))
		if k < 0 {
			return nil, errors.New("the raw output's ```text block is not closed")
		}
		raw = raw[:k+1]
	}
	raw = bytes.TrimLeft(raw, "\n")
	if len(raw) > 0 && raw[len(raw)-1] != '\n' {
		raw = append(raw[:len(raw):len(raw)], '\n')
	}
	r := &results{byKey: map[string]*bench{}, raw: raw}
	seenEnv := map[string]bool{}
	pkg := ""
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimRight(sc.Text(), " \t\r")
		switch {
		case strings.HasPrefix(text, commandPrefix+" go "):
			r.commands = append(r.commands, strings.TrimPrefix(text, commandPrefix+" "))
		case strings.HasPrefix(text, loadPrefix+" "):
			r.loads = append(r.loads, strings.TrimPrefix(text, loadPrefix+" "))
		case strings.HasPrefix(text, "pkg: "):
			pkg = strings.TrimPrefix(text, "pkg: ")
		case strings.HasPrefix(text, "goos: "), strings.HasPrefix(text, "goarch: "), strings.HasPrefix(text, "cpu: "):
			k, v, _ := strings.Cut(text, ": ")
			if !seenEnv[k] {
				seenEnv[k] = true
				r.env = append(r.env, [2]string{k, v})
			}
		case strings.HasPrefix(text, "Benchmark"):
			f := strings.Fields(text)
			if len(f) < 4 || len(f)%2 != 0 {
				continue // a benchmark's own log line, or a failure
			}
			if _, err := strconv.ParseInt(f[1], 10, 64); err != nil {
				continue
			}
			name := procsSuffix.ReplaceAllString(f[0], "")
			if p := procsSuffix.FindString(f[0]); p != "" && !seenEnv["GOMAXPROCS"] {
				seenEnv["GOMAXPROCS"] = true
				r.env = append(r.env, [2]string{"GOMAXPROCS", p[1:]})
			}
			key := pkg + " " + name
			b := r.byKey[key]
			if b == nil {
				b = &bench{pkg: pkg, name: name, samples: map[string][]float64{}}
				r.byKey[key] = b
				r.benches = append(r.benches, b)
			}
			for i := 2; i+1 < len(f); i += 2 {
				v, err := strconv.ParseFloat(f[i], 64)
				if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
					return nil, fmt.Errorf("line %d: %q is not a measurement of %s", line, f[i], f[i+1])
				}
				b.samples[f[i+1]] = append(b.samples[f[i+1]], v)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(r.benches) == 0 {
		return nil, errNoBenchmarks
	}
	return r, nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// time returns the benchmark's time per operation in ns, CPU time where it
// reports it, and whether it is CPU time.
func (b *bench) time() (ns float64, cpu bool) {
	if v := b.samples["cpu-ns/op"]; len(v) > 0 {
		return median(v), true
	}
	if v := b.samples["ns/op"]; len(v) > 0 {
		return median(v), false
	}
	return math.NaN(), false
}

func (b *bench) metric(unit string) (float64, bool) {
	v := b.samples[unit]
	if len(v) == 0 {
		return 0, false
	}
	return median(v), true
}

// find returns the benchmark named name (in any package whose path ends in
// pkgSuffix), or nil.
func (r *results) find(pkgSuffix, name string) *bench {
	for _, b := range r.benches {
		if b.name == name && (b.pkg == pkgSuffix || strings.HasSuffix(b.pkg, "/"+pkgSuffix)) {
			return b
		}
	}
	return nil
}

// fmtTime writes a time in ns with three significant digits and a unit.
func fmtTime(ns float64) string {
	if math.IsNaN(ns) {
		return "—"
	}
	units := []struct {
		name  string
		scale float64
	}{{"s", 1e9}, {"ms", 1e6}, {"µs", 1e3}, {"ns", 1}}
	for _, u := range units {
		if ns >= u.scale || u.scale == 1 {
			return sig3(ns/u.scale) + " " + u.name
		}
	}
	return ""
}

// sig3 formats v with three significant digits, without an exponent.
func sig3(v float64) string {
	switch {
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case v >= 1 || v <= 0:
		return strconv.FormatFloat(v, 'f', 2, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2-int(math.Floor(math.Log10(v))), 64)
	}
}

// fmtRatio writes a ratio as ×v with up to three significant digits.
func fmtRatio(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	s := sig3(v)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return "×" + s
}

// fmtCount writes a count (bytes, allocations) without decimals, with thin
// groups of three digits.
func fmtCount(v float64) string {
	s := strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + " " + s[i:]
	}
	return s
}

// sized is one benchmark of a family indexed by r, n and a path.
type sized struct {
	r, n int
	path string
	b    *bench
}

// family returns the sub-benchmarks base/r=R/n=N/path=P of one package.
func (r *results) family(pkgSuffix, base string) []sized {
	var out []sized
	for _, b := range r.benches {
		if !(b.pkg == pkgSuffix || strings.HasSuffix(b.pkg, "/"+pkgSuffix)) || !strings.HasPrefix(b.name, base+"/") {
			continue
		}
		s := sized{b: b}
		ok := 0
		for _, part := range strings.Split(strings.TrimPrefix(b.name, base+"/"), "/") {
			k, v, _ := strings.Cut(part, "=")
			switch k {
			case "r":
				if n, err := strconv.Atoi(v); err == nil {
					s.r, ok = n, ok+1
				}
			case "n":
				if n, err := strconv.Atoi(v); err == nil {
					s.n, ok = n, ok+1
				}
			case "path":
				s.path, ok = v, ok+1
			}
		}
		if ok == 3 {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].r != out[j].r {
			return out[i].r < out[j].r
		}
		return out[i].n < out[j].n
	})
	return out
}

// growth writes how t grew from the previous size: the ratio, the ratio of
// n, and the exponent k with t ∝ n^k between the two sizes.
func growth(t0, t1 float64, n0, n1 int) string {
	if n0 == 0 || math.IsNaN(t0) || math.IsNaN(t1) || t0 <= 0 {
		return ""
	}
	g := t1 / t0
	k := math.Log(g) / math.Log(float64(n1)/float64(n0))
	return fmt.Sprintf("%s for n %s (k = %.2f)", fmtRatio(g), fmtRatio(float64(n1)/float64(n0)), k)
}

// writeGrowthTable writes one family (structured and dense paths) as a table
// by r and n: times, growth with n, the dense/structured ratio and the
// structured path's memory.
func writeGrowthTable(w io.Writer, fam []sized) {
	type row struct {
		r, n              int
		structured, dense *bench
	}
	var rows []*row
	idx := map[[2]int]*row{}
	for _, s := range fam {
		k := [2]int{s.r, s.n}
		if idx[k] == nil {
			idx[k] = &row{r: s.r, n: s.n}
			rows = append(rows, idx[k])
		}
		switch s.path {
		case "structured":
			idx[k].structured = s.b
		case "dense":
			idx[k].dense = s.b
		}
	}
	kind := " (CPU)"
	for _, s := range fam {
		if _, cpu := s.b.time(); !cpu {
			kind = ""
		}
	}
	fmt.Fprintf(w, "| r | n | structured%s | growth with n | dense%s | growth with n | dense / structured | structured: bytes/op | allocs/op |\n", kind, kind)
	fmt.Fprintln(w, "|---:|---:|---:|---|---:|---|---:|---:|---:|")
	var prev *row
	prevDense := (*row)(nil)
	for _, rw := range rows {
		if prev != nil && prev.r != rw.r {
			prev, prevDense = nil, nil
		}
		ts, td := math.NaN(), math.NaN()
		if rw.structured != nil {
			ts, _ = rw.structured.time()
		}
		if rw.dense != nil {
			td, _ = rw.dense.time()
		}
		gs, gd := "", ""
		if prev != nil && prev.structured != nil && rw.structured != nil {
			t0, _ := prev.structured.time()
			gs = growth(t0, ts, prev.n, rw.n)
		}
		if prevDense != nil && rw.dense != nil {
			t0, _ := prevDense.dense.time()
			gd = growth(t0, td, prevDense.n, rw.n)
		}
		ratio := "—"
		if !math.IsNaN(ts) && !math.IsNaN(td) {
			ratio = fmtRatio(td / ts)
		}
		bytesOp, allocs := "—", "—"
		if rw.structured != nil {
			if v, ok := rw.structured.metric("B/op"); ok {
				bytesOp = fmtCount(v)
			}
			if v, ok := rw.structured.metric("allocs/op"); ok {
				allocs = fmtCount(v)
			}
		}
		fmt.Fprintf(w, "| %d | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			rw.r, fmtCount(float64(rw.n)), fmtTime(ts), gs, fmtTime(td), gd, ratio, bytesOp, allocs)
		prev = rw
		if rw.dense != nil {
			prevDense = rw
		}
	}
	fmt.Fprintln(w)
}

// compared is one row of a comparison table: a label and a benchmark.
type compared struct {
	label, pkg, name string
}

// fmtBenchTime writes a benchmark's time, marked CPU when it is CPU time.
func fmtBenchTime(b *bench) string {
	t, cpu := b.time()
	if cpu {
		return fmtTime(t) + " CPU"
	}
	return fmtTime(t)
}

// writeComparison writes the rows' times and, with ratios, their ratio to
// the first row present.
func writeComparison(w io.Writer, r *results, head string, ratios bool, rows []compared) {
	var base float64 = math.NaN()
	var lines []string
	for _, c := range rows {
		b := r.find(c.pkg, c.name)
		if b == nil {
			continue
		}
		t, _ := b.time()
		if math.IsNaN(base) {
			base = t
		}
		l := fmt.Sprintf("| %s | `%s` | %s |", c.label, strings.TrimPrefix(c.name, "Benchmark"), fmtBenchTime(b))
		if ratios {
			l += " " + fmtRatio(t/base) + " |"
		}
		lines = append(lines, l)
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintln(w, head)
	fmt.Fprintln(w)
	if ratios {
		fmt.Fprintln(w, "| what | benchmark | time/op | ratio to the first row |")
		fmt.Fprintln(w, "|---|---|---:|---:|")
	} else {
		fmt.Fprintln(w, "| what | benchmark | time/op |")
		fmt.Fprintln(w, "|---|---|---:|")
	}
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w)
}

// render writes the report.
func render(w io.Writer, r *results) {
	fmt.Fprintln(w, "# Performance of the sod library")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "<!-- Generated by `"+regenerate+"`; do not edit by hand. -->")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "What the library's operations cost, how the cost grows with the problem size n, and how")
	fmt.Fprintln(w, "the paths that compute the same thing compare. The benchmarks are those of `sod`")
	fmt.Fprintln(w, "([bench_test.go](bench_test.go)) and `sod/experiments`")
	fmt.Fprintln(w, "([experiments/bench_test.go](experiments/bench_test.go)); the commands that ran them and")
	fmt.Fprintln(w, "their raw output are at the end. A time is the CPU time per operation (`cpu-ns/op`, marked")
	fmt.Fprintln(w, "CPU) where the benchmark reports it, else the wall time (`ns/op`), the median of the runs.")
	fmt.Fprintln(w, "Times belong to the machine that ran them; the ratios and the growth with n are what carry")
	fmt.Fprintln(w, "over. \"k\" is the exponent of t ∝ nᵏ between two consecutive sizes.")
	fmt.Fprintln(w)
	if len(r.env) > 0 {
		fmt.Fprintln(w, "| machine | |")
		fmt.Fprintln(w, "|---|---|")
		for _, e := range r.env {
			fmt.Fprintf(w, "| %s | %s |\n", e[0], e[1])
		}
		if bw := r.bandwidth(); bw > 0 {
			fmt.Fprintf(w, "| memory bandwidth, one core (`BenchmarkStream`, STREAM triad) | %s GB/s |\n", sig3(bw))
		}
		if len(r.loads) > 0 {
			fmt.Fprintf(w, "| load average (1, 5, 15 min) after each package's benchmarks | %s |\n", strings.Join(r.loads, "; "))
		}
		fmt.Fprintln(w)
	}

	if fam := r.family("sod", "BenchmarkGradPMC"); len(fam) > 0 {
		fmt.Fprintln(w, "## h and ∇h of the PMC objective, against n")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "`BenchmarkGradPMC`: one evaluation of h and ∇h (the unit of a GD step) on the study's PMC")
		fmt.Fprintln(w, "instance (ε = 0.1, z = (1, 0, 1, 0, …)), search rank r, at X = N(0, I). The structured path")
		fmt.Fprintln(w, "costs O(n(r + r*)²) (k = 1 expected), the dense fused loop O(n²r) (k = 2), run only where")
		fmt.Fprintln(w, "n ≤ `sod.MaxDenseSize`.")
		fmt.Fprintln(w)
		writeGrowthTable(w, fam)
	}
	if fam := r.family("sod", "BenchmarkGradPMC"); len(fam) > 0 {
		writeBoundTable(w, r, fam, gradCost)
	}
	if fam := r.family("sod", "BenchmarkHessVecPMC"); len(fam) > 0 {
		fmt.Fprintln(w, "## Hessian–vector products on PMC, against n")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "`BenchmarkHessVecPMC`: one product ∇²h(X)[D] on the structured path (the unit of")
		fmt.Fprintln(w, "`sod.HessianMinEig`'s Lanczos iteration), O(n·r(r + r*)), on the instance above.")
		fmt.Fprintln(w)
		writeGrowthTable(w, fam)
		writeBoundTable(w, r, fam, hessVecCost)
	}
	if fam := r.family("sod", "BenchmarkGradientDescentPMC"); len(fam) > 0 {
		fmt.Fprintln(w, "## 1000 steps of gradient descent on PMC, against n")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "`BenchmarkGradientDescentPMC`: `sod.GradientDescent` for 1000 steps (η = 0.5/n, the study's")
		fmt.Fprintln(w, "step, traced every 100 steps) from 0.01·N(0, I); the dense path only up to n = 1000.")
		fmt.Fprintln(w)
		writeGrowthTable(w, fam)
		writeStepTable(w, r, fam)
	}
	writeComparison(w, r, "## Gradient descent from decaying coordinates (PMC n = 10 000, ε = 0.002, r = 1, 3000 steps)", true, []compared{
		{"start 1e-3 on the unobserved rows (normal numbers)", "sod", "BenchmarkGDDecaying/start=1e-3"},
		{"start 1e-305 (subnormal products), tiny coordinates flushed (the library's rule)", "sod", "BenchmarkGDDecaying/start=1e-305"},
		{"start 1e-305 without the flush (subnormal arithmetic: slow on many Intel cores)", "sod", "BenchmarkGDDecaying/start=1e-305/flush=off"},
	})
	writeComparison(w, r, "## One gradient at n = 80, five ways", true, []compared{
		{"structured path (`sod`, r = 1)", "sod", "BenchmarkGradPMC/r=1/n=80/path=structured"},
		{"dense fused loop (`sod`, r = 1)", "sod", "BenchmarkGradPMC/r=1/n=80/path=dense"},
		{"generic 𝒜 and 𝒜* through XXᵀ (`sod`)", "sod", "BenchmarkGradPMCGeneric/n=80"},
		{"`Problem.Grad` (`sod/experiments`)", "sod/experiments", "BenchmarkPMCGradSod"},
		{"the tests' elementwise reference loop (`sod/experiments`)", "sod/experiments", "BenchmarkPMCGradFused"},
	})
	writeComparison(w, r, "## Critical-point analysis at n = 80", true, []compared{
		{"without the n×n Hessian", "sod", "BenchmarkAnalyzeCritical/skipHessian=true"},
		{"with the Hessian", "sod", "BenchmarkAnalyzeCritical/skipHessian=false"},
	})
	writeComparison(w, r, "## One escape round on the study's PMC instance (ε = 0.02), default options", true, []compared{
		{"n = 300, the dense nr×nr Hessian (the default up to `sod.DenseHessianMaxSize`)", "sod", "BenchmarkEscapeRound/n=300/hessian=dense"},
		{"n = 300, λ_min(∇²h) by Lanczos (the default above it)", "sod", "BenchmarkEscapeRound/n=300/hessian=auto"},
		{"n = 1000, default", "sod", "BenchmarkEscapeRound/n=1000/hessian=auto"},
		{"n = 10 000, default", "sod", "BenchmarkEscapeRound/n=10000/hessian=auto"},
	})
	writeComparison(w, r, "## The success-rate study: one cell of 10 trials (n = 80, ε = 0.10)", true, []compared{
		{"one worker", "sod/experiments", "BenchmarkStudyCell/serial"},
		{"one worker per core", "sod/experiments", "BenchmarkStudyCell/parallel"},
	})
	writeComparison(w, r, "## Experiments and other operations at the paper's sizes", false, []compared{
		{"h + ∇h, Gaussian operator, n = 40, m = 2000", "sod", "BenchmarkGradGaussian"},
		{"1000 GD steps, PMC n = 80 (the study's inner loop)", "sod/experiments", "BenchmarkGD1000PMC80"},
		{"the ablation table", "sod/experiments", "BenchmarkAblation"},
		{"the PMC case study (Fig. exp2)", "sod/experiments", "BenchmarkCaseStudyPMC"},
	})

	fmt.Fprintln(w, "## Every benchmark")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| package | benchmark | time/op | runs | bytes/op | allocs/op |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|")
	for _, b := range r.benches {
		t, cpu := b.time()
		kind := ""
		if cpu {
			kind = " CPU"
		}
		bytesOp, allocs := "—", "—"
		if v, ok := b.metric("B/op"); ok {
			bytesOp = fmtCount(v)
		}
		if v, ok := b.metric("allocs/op"); ok {
			allocs = fmtCount(v)
		}
		runs := max(len(b.samples["ns/op"]), len(b.samples["cpu-ns/op"]))
		fmt.Fprintf(w, "| `%s` | `%s` | %s%s | %d | %s | %s |\n", strings.TrimPrefix(b.pkg, modulePrefix), strings.TrimPrefix(b.name, "Benchmark"), fmtTime(t), kind, runs, bytesOp, allocs)
	}
	fmt.Fprintln(w)

	fmt.Fprintln(w, rawHeading)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "```text")
	w.Write(r.raw)
	fmt.Fprintln(w, "```")
}

// bandwidth returns the memory bandwidth of one core in GB/s (bytes per
// ns) from BenchmarkStream's bytes-moved/op and CPU time, or 0 without it.
func (r *results) bandwidth() float64 {
	b := r.find("sod", "BenchmarkStream")
	if b == nil {
		return 0
	}
	moved, ok := b.metric("bytes-moved/op")
	t, _ := b.time()
	if !ok || !(t > 0) {
		return 0
	}
	return moved / t
}

// gradTraffic is the memory traffic of one structured h + ∇h evaluation
// in bytes: two passes that read X (n×r) and Z (n×r*, r* = 1 in the
// benchmark) and one write of ∇h (n×r), 8 bytes an entry.
func gradTraffic(n, r int) float64 { return 8 * float64(n) * float64(2*(r+1)+r) }

// gradMadds is the arithmetic of one structured h + ∇h evaluation in
// multiply–adds: the QR of the n×(r + r*) blocks, n(r + r*)², and the
// gradient rows, 2n·r(r + r*) (r* = 1).
func gradMadds(n, r int) float64 { return float64(n) * float64((r+1)*(r+1)+2*r*(r+1)) }

// madRate returns the scalar multiply–add rate of one core (per ns) from
// BenchmarkMulAdd's madds/op and CPU time, or 0 without it.
func (r *results) madRate() float64 {
	b := r.find("sod", "BenchmarkMulAdd")
	if b == nil {
		return 0
	}
	m, ok := b.metric("madds/op")
	t, _ := b.time()
	if !ok || !(t > 0) {
		return 0
	}
	return m / t
}

// kernelCost is what one evaluation of a structured kernel moves and
// computes, by n and search rank r (r* = 1): the bounds its measured time
// is set beside.
type kernelCost struct {
	heading string
	intro   []string // the table's explanation, one line each
	traffic func(n, r int) float64
	madds   func(n, r int) float64
}

// gradCost is the structured h + ∇h evaluation's (BenchmarkGradPMC).
var gradCost = kernelCost{
	heading: "## The search rank r: h and ∇h against the memory traffic and the arithmetic",
	intro: []string{
		"The structured path of `BenchmarkGradPMC` by search rank r (r* = 1). An evaluation streams",
		"X and Z twice and writes ∇h once: 8n(2(r + r*) + r) bytes (\"traffic\"); \"traffic time\" is",
		"that over the one-core bandwidth of `BenchmarkStream`, the least time any kernel moving",
		"those bytes from memory needs. It computes about n(r + r*)² + 2n·r(r + r*) multiply–adds",
		"(\"arithmetic\"); \"arithmetic time\" is that over the scalar multiply–add rate of one core",
		"(`BenchmarkMulAdd`; Go emits no SIMD). The bound is the larger of the two: below n = 10⁶",
		"the data sit in the caches and the arithmetic bounds the kernel. The count is that of a",
		"general Z; the benchmark's z is 0 on the observed rows, whose QR then folds X's columns",
		"alone, so at r > 1 a time can fall below its bound (a ratio under ×1).",
	},
	traffic: gradTraffic,
	madds:   gradMadds,
}

// hessVecCost is the structured Hessian–vector product's
// (BenchmarkHessVecPMC): a pass of sums reads X, D (n×r) and Z, a pass of
// rows reads them again and writes the product; about 2r² + r
// multiply–adds a row in each.
var hessVecCost = kernelCost{
	heading: "## Hessian–vector products against the memory traffic and the arithmetic",
	intro: []string{
		"The structured path of `BenchmarkHessVecPMC` by search rank r (r* = 1). A product streams X,",
		"D and Z twice and writes ∇²h(X)[D] once: 8n(5r + 2) bytes, and computes about 2n(2r² + r)",
		"multiply–adds; the times and the bound as in the table of h and ∇h above.",
	},
	traffic: func(n, r int) float64 { return 8 * float64(n) * float64(5*r+2) },
	madds:   func(n, r int) float64 { return 2 * float64(n) * float64(2*r*r+r) },
}

// writeBoundTable writes a structured kernel's times by n and r: the
// ratio to r = 1 and, beside each time, its memory traffic and
// arithmetic, the time each needs at the measured bandwidth
// (BenchmarkStream) and multiply–add rate (BenchmarkMulAdd), and the
// time over the larger of the two.
func writeBoundTable(w io.Writer, r *results, fam []sized, kc kernelCost) {
	byN := map[int]map[int]*bench{}
	var ns []int
	var rs []int
	seenR := map[int]bool{}
	for _, s := range fam {
		if s.path != "structured" {
			continue
		}
		if byN[s.n] == nil {
			byN[s.n] = map[int]*bench{}
			ns = append(ns, s.n)
		}
		byN[s.n][s.r] = s.b
		if !seenR[s.r] {
			seenR[s.r] = true
			rs = append(rs, s.r)
		}
	}
	if len(rs) < 2 {
		return
	}
	sort.Ints(ns)
	sort.Ints(rs)
	bw, mr := r.bandwidth(), r.madRate()
	fmt.Fprintln(w, kc.heading)
	fmt.Fprintln(w)
	for _, l := range kc.intro {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| n | r | time (CPU) | ratio to r = 1 | traffic | traffic time | arithmetic (multiply–adds) | arithmetic time | time / bound |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, n := range ns {
		base := math.NaN()
		if b := byN[n][1]; b != nil {
			base, _ = b.time()
		}
		for _, rk := range rs {
			b := byN[n][rk]
			if b == nil {
				continue
			}
			t, _ := b.time()
			moved, madds := kc.traffic(n, rk), kc.madds(n, rk)
			tt, at, ratio := "—", "—", "—"
			bound := 0.0
			if bw > 0 {
				tt = fmtTime(moved / bw)
				bound = moved / bw
			}
			if mr > 0 {
				at = fmtTime(madds / mr)
				bound = math.Max(bound, madds/mr)
			}
			if bound > 0 {
				ratio = fmtRatio(t / bound)
			}
			fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s | %s | %s | %s |\n", fmtCount(float64(n)), rk, fmtTime(t), fmtRatio(t/base), fmtBytes(moved), tt, fmtCount(madds), at, ratio)
		}
	}
	fmt.Fprintln(w)
}

// fmtBytes writes a byte count with three significant digits and a unit.
func fmtBytes(v float64) string {
	for _, u := range []struct {
		name  string
		scale float64
	}{{"GB", 1e9}, {"MB", 1e6}, {"kB", 1e3}} {
		if v >= u.scale {
			return sig3(v/u.scale) + " " + u.name
		}
	}
	return fmtCount(v) + " B"
}

// gdSteps is the number of steps of BenchmarkGradientDescentPMC.
const gdSteps = 1000

// writeStepTable sets one structured GD step (a thousandth of
// BenchmarkGradientDescentPMC) beside one evaluation of h and ∇h
// (BenchmarkGradPMC) at the same r and n.
func writeStepTable(w io.Writer, r *results, fam []sized) {
	var lines []string
	for _, s := range fam {
		if s.path != "structured" {
			continue
		}
		ev := r.find("sod", fmt.Sprintf("BenchmarkGradPMC/r=%d/n=%d/path=structured", s.r, s.n))
		if ev == nil {
			continue
		}
		st, _ := s.b.time()
		et, _ := ev.time()
		st /= gdSteps
		lines = append(lines, fmt.Sprintf("| %d | %s | %s | %s | %s |", s.r, fmtCount(float64(s.n)), fmtTime(st), fmtTime(et), fmtRatio(st/et)))
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintln(w, "One step against one evaluation of h and ∇h (`BenchmarkGradPMC`, same r and n). At r = 1 a step")
	fmt.Fprintln(w, "between two trace points is one pass over the rows that computes ∇h, the next iterate and its")
	fmt.Fprintln(w, "Gram entries, without h (`sod`'s gdlane.go); at r > 1 it is an evaluation and the update.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| r | n | one step | one h + ∇h | step / evaluation |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|---:|")
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
	fmt.Fprintln(w)
}
