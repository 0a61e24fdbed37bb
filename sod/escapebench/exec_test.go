package escapebench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/escapebench/execclient"
)

// The test binary is its own external program: run with "-- MODE" after
// its flags, TestExecHelper plays MODE (the environment is PATH alone).
func TestExecHelper(t *testing.T) {
	i := len(os.Args) - 2
	if i < 1 || os.Args[i] != "--" {
		return
	}
	mode := os.Args[i+1]
	in, out := bufio.NewReader(os.Stdin), os.Stdout
	line := func() string { s, _ := in.ReadString('\n'); return s }
	hello := func() { line(); fmt.Fprintln(out, `{"type":"hello","sod_escape":1}`); line() }
	// hloop:N and gloop:N make N h or ∇h calls in round 1 (one in round
	// 0): BenchmarkExecOracleCall's and PROTOCOL-COST.md's client.
	if call, k, ok := strings.Cut(mode, "loop:"); ok && (call == "h" || call == "g") {
		var calls int
		fmt.Sscan(k, &calls)
		execclient.Serve(os.Stdin, os.Stdout, func(_ execclient.Hello, rd execclient.Round, o *execclient.Oracle) ([]execclient.Proposal, error) {
			for range max(1, rd.Round*calls) {
				var err error
				if call == "h" {
					_, err = o.H(rd.X)
				} else {
					_, _, err = o.Grad(rd.X)
				}
				if err != nil {
					return nil, err
				}
			}
			return nil, nil
		})
		os.Exit(0)
	}
	switch mode {
	case "go":
		if err := execclient.Serve(os.Stdin, os.Stdout, allCalls); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	case "crash":
		hello()
		fmt.Fprintln(os.Stderr, "panic: boom in the user's escape")
		os.Exit(3)
	case "hang":
		hello()
		time.Sleep(time.Hour)
	case "mute": // never reads, never writes
		time.Sleep(time.Hour)
	case "flood":
		hello()
		b := []byte(strings.Repeat("x", 1<<16))
		for {
			if _, err := out.Write(b); err != nil {
				os.Exit(0)
			}
		}
	case "nonsense":
		hello()
		fmt.Fprintln(out, "I am not JSON")
		line()
	case "unknown":
		hello()
		fmt.Fprintln(out, `{"type":"teleport"}`)
		line()
	case "shape":
		hello()
		fmt.Fprintln(out, `{"type":"propose","candidates":[{"x":[1]}]}`)
		line()
	case "version":
		line()
		fmt.Fprintln(out, `{"type":"hello","sod_escape":99}`)
		line()
	case "calls":
		hello()
		for {
			fmt.Fprintln(out, `{"type":"critical"}`)
			if line() == "" {
				os.Exit(0)
			}
		}
	case "memory": // 3 GiB, over the test's cap of 2 GiB
		hello()
		b := make([]byte, 3<<30)
		for i := range b {
			b[i] = 1
		}
		fmt.Fprintln(out, len(b))
	case "child": // a child in the process group that outlives the crash
		hello()
		c := exec.Command("sleep", "300")
		if c.Start() == nil {
			fmt.Fprintf(os.Stderr, "child %d\n", c.Process.Pid)
		}
		os.Exit(4)
	}
	os.Exit(0)
}

// allCalls makes every oracle call once and proposes X̂ + s·u_n q_rᵀ
// for the step s of least h on a small grid.
func allCalls(in execclient.Hello, rd execclient.Round, o *execclient.Oracle) ([]execclient.Proposal, error) {
	if _, err := o.H(rd.X); err != nil {
		return nil, err
	}
	_, g, err := o.Grad(rd.X)
	if err != nil {
		return nil, err
	}
	if _, err := o.HessVec(rd.X, g); err != nil {
		return nil, err
	}
	cp, err := o.Critical()
	if err != nil {
		return nil, err
	}
	var cs []execclient.Proposal
	for _, s := range []float64{-1, -0.1, 0.1, 1} {
		y := append([]float64(nil), rd.X...)
		for i := range in.N {
			for k := range in.R {
				y[i*in.R+k] += s * cp.Un[i] * cp.Qr[k]
			}
		}
		cs = append(cs, execclient.Proposal{X: y, Label: fmt.Sprint(s)})
	}
	return cs, nil
}

// allCallsGo is allCalls as an in-process escaper.
func allCallsGo(_ context.Context, st *sod.EscapeState) ([]sod.Candidate, error) {
	n, r := st.X.Dims()
	g := mat.NewDense(n, r, nil)
	st.P.H(st.X)
	st.P.Grad(g, st.X)
	st.P.HessVec(mat.NewDense(n, r, nil), st.X, g)
	cp, err := st.Critical()
	if err != nil {
		return nil, err
	}
	var cs []sod.Candidate
	for _, s := range []float64{-1, -0.1, 0.1, 1} {
		y := mat.DenseCopyOf(st.X)
		for i := range n {
			for k := range r {
				y.Set(i, k, y.At(i, k)+s*cp.Un.AtVec(i)*cp.Qr.AtVec(k))
			}
		}
		cs = append(cs, sod.Candidate{X: y, Label: fmt.Sprint(s)})
	}
	return cs, nil
}

// helper is an external method running TestExecHelper in mode.
func helper(t *testing.T, mode string, lim ExecLimits) Method {
	t.Helper()
	m, err := ExecCommand{Name: "exec-" + mode, Argv: []string{os.Args[0], "-test.run=^TestExecHelper$", "--", mode}, Limits: lim}.Method()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// tinyInstances are the certified points of a PMC cell at n = 16.
func tinyInstances(t *testing.T) []CertifiedInstance {
	t.Helper()
	fi, err := Instances(context.Background(), PMCFamily{Sizes: []int{16}, Epsilons: []float64{0.15}}, 3, 2, CertifyOptions{})
	if err != nil || len(fi.Instances) == 0 {
		t.Fatalf("instances: %v, %v", fi, err)
	}
	return fi.Instances
}

// sameExecRun compares two runs but for the method's name and parameters.
func sameExecRun(t *testing.T, got, want *TrialResult) {
	t.Helper()
	g, w := *got, *want
	g.Method, g.Params, g.Seed, g.Cost.CPU, g.Cost.Wall = "", nil, 0, 0, 0
	w.Method, w.Params, w.Seed, w.Cost.CPU, w.Cost.Wall = "", nil, 0, 0, 0
	if !reflect.DeepEqual(g, w) {
		gb, _ := json.Marshal(g)
		wb, _ := json.Marshal(w)
		t.Fatalf("external run\n%s\nwant (the same escape in process)\n%s", gb, wb)
	}
}

// The Go client's runs are those of the same escape in process, costs
// included: the benchmark counts the program's oracle calls as its own.
func TestExecGoClient(t *testing.T) {
	ext := helper(t, "go", ExecLimits{})
	in := EscaperMethod("in-process", nil, func(CertifiedInstance, uint64) sod.Escaper { return sod.EscapeFunc("in-process", allCallsGo) })
	for _, inst := range tinyInstances(t) {
		got, err := RunTrial(context.Background(), inst, ext, 0, 1, DefaultTrialOptions())
		if err != nil {
			t.Fatal(err)
		}
		want, err := RunTrial(context.Background(), inst, in, 0, 1, DefaultTrialOptions())
		if err != nil {
			t.Fatal(err)
		}
		if got.Err != "" || got.Rounds == 0 || got.Cost.Eigen == 0 || got.Cost.HessVec == 0 {
			t.Fatalf("external run: err %q, %d rounds, counts %+v", got.Err, got.Rounds, got.Cost.EvalCounts)
		}
		sameExecRun(t, got, want)
	}
}

// goExample builds the Go example (execclient/negcurv) into dir.
func goExample(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "negcurv")
	cmd := exec.Command("go", "build", "-o", bin, "./execclient/negcurv")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./execclient/negcurv: %v\n%s", err, out)
	}
	return bin
}

// pythonWithNumpy returns a Python 3 that imports NumPy: python3 on PATH,
// else Debian's /usr/bin/python3 (what the install script's python3-numpy
// installs into, when PATH's python3 is another one, such as pyenv's). It
// fails the test when neither has NumPy.
func pythonWithNumpy(t testing.TB) string {
	t.Helper()
	var msgs []string
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		out, err := exec.Command(py, "-c", "import numpy").CombinedOutput()
		if err == nil {
			if abs, err := exec.LookPath(py); err == nil {
				return abs
			}
			return py
		}
		msgs = append(msgs, fmt.Sprintf("%s: %v %s", py, err, out))
	}
	t.Fatalf("the Python reference client needs python3 with NumPy (scripts/install.sh installs python3-numpy): %s", strings.Join(msgs, "; "))
	return ""
}

// The Python and Go examples (the same escape) make the same oracle calls
// and end their runs alike.
func TestExecPythonAndGoExamples(t *testing.T) {
	py, err := ParseExecCommand("exec:" + pythonWithNumpy(t) + " clients/python/negcurv.py")
	if err != nil || py.Name != "exec-negcurv" {
		t.Fatalf("ParseExecCommand = %+v, %v", py, err)
	}
	pm, err := py.Method()
	if err != nil {
		t.Fatal(err)
	}
	gc, err := ParseExecCommand("exec:negcurv-go=" + goExample(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	gm, err := gc.Method()
	if err != nil {
		t.Fatal(err)
	}
	for _, inst := range tinyInstances(t) {
		p, err := RunTrial(context.Background(), inst, pm, 0, 1, DefaultTrialOptions())
		if err != nil {
			t.Fatal(err)
		}
		g, err := RunTrial(context.Background(), inst, gm, 0, 1, DefaultTrialOptions())
		if err != nil {
			t.Fatal(err)
		}
		if p.Err != "" || g.Err != "" || p.Rounds == 0 {
			t.Fatalf("Python: %d rounds, err %q; Go: err %q", p.Rounds, p.Err, g.Err)
		}
		if p.Cost.EvalCounts != g.Cost.EvalCounts || p.Outcome != g.Outcome || p.Success != g.Success || p.Rounds != g.Rounds {
			t.Fatalf("Python %v %+v, Go %v %+v", p.Outcome, p.Cost.EvalCounts, g.Outcome, g.Cost.EvalCounts)
		}
		// 32 h calls per round (16 steps × 2 signs) and one analysis.
		if p.Cost.Eigen != int64(p.Rounds) || p.Cost.H < 32*int64(p.Rounds) {
			t.Fatalf("Python counts %+v over %d rounds", p.Cost.EvalCounts, p.Rounds)
		}
	}
}

// A program that crashes, hangs, floods or speaks nonsense ends its own
// run with the reason, at its stalled point; the suite goes on.
func TestExecMisbehaving(t *testing.T) {
	short := ExecLimits{Reply: 300 * time.Millisecond, Calls: 50}
	cases := []struct{ mode, reason string }{
		{"crash", `the program closed its output`},
		{"crash", `panic: boom in the user's escape`},
		{"crash", `exit status 3`},
		{"hang", `hang: no message within the reply limit of 300ms`},
		{"mute", `hang: no message within the reply limit of 300ms`},
		{"flood", `flood: a message longer than the limit of`},
		{"nonsense", `not a protocol message`},
		{"unknown", `message type "teleport", want h, grad, hessvec, critical, propose or fail`},
		{"shape", `candidate 0's x has 1 numbers, want n·r = 16`},
		{"version", `sod_escape 99`},
		{"calls", `flood: more than the limit of 50 oracle calls in a round`},
		{"child", `exit status 4`},
		{"memory", `out of memory`},
	}
	inst := tinyInstances(t)[0]
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			t0 := time.Now()
			// Only the hanging programs get the short reply limit: under
			// load, starting a program can take longer than it.
			lim := ExecLimits{Reply: 30 * time.Second, Calls: short.Calls}
			switch c.mode {
			case "hang", "mute":
				lim.Reply = short.Reply
			case "memory":
				lim.Memory = 2 << 30
			}
			r, err := RunTrial(context.Background(), inst, helper(t, c.mode, lim), 0, 1, DefaultTrialOptions())
			if err != nil {
				t.Fatalf("the run's error is the suite's: %v", err)
			}
			if r.Outcome != sod.EscapeError || !strings.Contains(r.Err, c.reason) || !strings.Contains(r.Err, ErrExternalMethod.Error()) {
				t.Fatalf("outcome %v, err %q; want EscapeError with %q", r.Outcome, r.Err, c.reason)
			}
			if d := time.Since(t0); d > 60*time.Second {
				t.Fatalf("the run took %v", d)
			}
			if c.mode == "child" && runtime.GOOS == "linux" {
				// The child the program left in its process group is gone.
				var pid int
				if _, err := fmt.Sscanf(r.Err[strings.Index(r.Err, "child "):], "child %d", &pid); err != nil || pid <= 0 {
					t.Fatalf("no child pid in %q", r.Err)
				}
				for i := 0; syscall.Kill(pid, 0) == nil; i++ {
					if i == 100 {
						syscall.Kill(pid, syscall.SIGKILL)
						t.Fatalf("the program's child %d outlived its run", pid)
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
		})
	}
	// In a suite: the bad method's runs end with their reason, the others run.
	s := Suite{Families: []Family{PMCFamily{Sizes: []int{16}, Epsilons: []float64{0.15}}}, PerCell: 1, Trials: 1,
		Methods: []Method{helper(t, "crash", ExecLimits{}), BuiltinMethods()[2]}, TrialOptions: DefaultTrialOptions()}
	sr, err := RunSuite(context.Background(), s, RunOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(sr.Runs) != 2 || sr.Runs[0].Err == "" && sr.Runs[1].Err == "" {
		t.Fatalf("runs %+v", sr.Runs)
	}
}

// Bad commands and limits are refused before any run, naming the value.
func TestExecCommandValidate(t *testing.T) {
	for _, s := range []string{"exec:", "exec: ", "negcurv.py", "exec:/no/such/program", "exec:bad name=/bin/true", "exec:..=/bin/true"} {
		if c, err := ParseExecCommand(s); err == nil {
			t.Errorf("ParseExecCommand(%q) = %+v, want an error", s, c)
		}
	}
	if _, err := (ExecCommand{Name: "x", Argv: []string{"true"}, Limits: ExecLimits{Reply: -1}}).Method(); err == nil {
		t.Error("a negative limit is accepted")
	}
	c, err := ParseExecCommand("exec:true")
	if err != nil || c.Name != "exec-true" {
		t.Fatalf("%+v %v", c, err)
	}
}

// BenchmarkExecOracleCall measures the time of one h call and of one ∇h
// call made by an external program (Go client, Python client) at PMC
// n = 16, r = 1, beside the same work in process: the protocol's overhead
// per oracle call (PROTOCOL-COST.md, TestWriteProtocolCost).
func BenchmarkExecOracleCall(b *testing.B) {
	in := protocolCostInstance(b, 16)
	for _, call := range []string{"h", "grad"} {
		for _, client := range []string{"in-process", "go", "python"} {
			b.Run(call+"/"+client, func(b *testing.B) { benchOracleCall(b, in, client, call) })
		}
	}
}

// protocolCostInstance is a PMC point of size n, r = 1, where gradient
// descent stopped (not certified: the cost of an oracle call does not
// depend on it).
func protocolCostInstance(tb testing.TB, n int) CertifiedInstance {
	tb.Helper()
	pts, err := PMCFamily{Sizes: []int{n}, Epsilons: []float64{0.15}}.Generate(context.Background(), 3, 1)
	if err != nil || len(pts) == 0 {
		tb.Fatalf("PMC n = %d: %v (%d points)", n, err, len(pts))
	}
	return CertifiedInstance{Family: "pmc", StallPoint: pts[0]}
}

// benchOracleCall times b.N oracle calls (call "h" or "grad") at in's
// point: in process, the work the benchmark does to answer one (h, or ∇h
// and h); through the protocol, b.N calls made by a Go or Python client
// in one round (the program's start and its one call in round 0 are not
// timed).
func benchOracleCall(b *testing.B, in CertifiedInstance, client, call string) {
	if client == "in-process" {
		n, r := in.X.Dims()
		g := mat.NewDense(n, r, nil)
		for range b.N {
			if call == "grad" {
				in.P.Grad(g, in.X)
			}
			in.P.H(in.X)
		}
		return
	}
	var argv []string
	switch client {
	case "go":
		argv = []string{os.Args[0], "-test.run=^TestExecHelper$", "--", fmt.Sprintf("%sloop:%d", call[:1], b.N)}
	case "python":
		dir, _ := filepath.Abs("clients/python")
		script := filepath.Join(b.TempDir(), "loop.py")
		src := fmt.Sprintf("import sys\nsys.path.insert(0, %q)\nimport sodescape\n"+
			"def esc(inst, rnd, o):\n    for _ in range(max(1, rnd['round'] * %d)):\n        o.%s(rnd['x'])\n    return []\n"+
			"sodescape.serve(esc)\n", dir, b.N, call)
		if err := os.WriteFile(script, []byte(src), 0o600); err != nil {
			b.Fatal(err)
		}
		argv = []string{pythonWithNumpy(b), script}
	default:
		b.Fatalf("client %q", client)
	}
	m, err := ExecCommand{Name: client, Argv: argv}.Method()
	if err != nil {
		b.Fatal(err)
	}
	esc, err := m.New(in, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer closeEscaper(esc)
	for k := range 2 {
		if k == 1 {
			b.ResetTimer()
		}
		st := &sod.EscapeState{P: in.P, X: in.X, H: in.P.H(in.X), Round: k}
		if _, err := esc.Propose(context.Background(), st); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
}

// The stderr a reason quotes keeps its start and its end, whatever the
// amount written, and no more.
func TestExecStderrBuffer(t *testing.T) {
	for _, c := range []struct {
		writes []string
		want   string
	}{
		{[]string{"short"}, "short"},
		{[]string{"0123", "456789"}, "0123456789"},
		{[]string{"0123456789abcdefghij", strings.Repeat("z", 1<<20), "THE END"}, "0123456 … THE END"},
	} {
		b := &tailBuffer{max: 14}
		for _, w := range c.writes {
			b.Write([]byte(w))
		}
		if got := b.String(); got != c.want || len(b.head)+len(b.tail) > 14 {
			t.Errorf("%.20q…: %q, want %q", c.writes, got, c.want)
		}
	}
}
