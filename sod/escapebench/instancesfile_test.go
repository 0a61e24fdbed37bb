package escapebench

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestInstancesFileRecertify: bench-instances.json holds each instance on
// one line with X̂ (n·r numbers, row-major) and its stream; the point read
// back is the generated one bit for bit, and certifies again.
func TestInstancesFileRecertify(t *testing.T) {
	ctx := context.Background()
	fi, err := Instances(ctx, PMCFamily{Cells: []PMCCell{{N: 20, Eps: 0.15}}, Start: StartRandomSigns}, 1, 1, CertifyOptions{})
	if err != nil || len(fi.Instances) != 1 {
		t.Fatal(fi, err)
	}
	in := fi.Instances[0]
	sr := &SuiteRun{Instances: []InstanceInfo{newInstanceInfo(in, 1)}, Dropped: []Dropped{{Family: "pmc", Name: "x", Reason: "why"}}}
	var b bytes.Buffer
	if err := WriteInstancesJSON(&b, testEnv, sr); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(b.String(), "\n"); got != 5 { // env, instances [, one instance, dropped [, one point]
		t.Errorf("%d lines, want 5:\n%s", got, b.String())
	}
	f, err := ReadInstancesJSON(&b)
	if err != nil {
		t.Fatal(err)
	}
	got := f.Instances[0]
	if f.Env != testEnv || got.Stream == 0 || got.Stream != in.Stream || len(got.X) != 20 || f.Dropped[0].Reason != "why" || got.M != 20*21/2 || got.Eps == nil || *got.Eps != 0.15 {
		t.Fatalf("read back %+v", f)
	}
	for i, v := range got.X {
		if v != in.X.At(i, 0) {
			t.Fatalf("x[%d] = %v, want %v", i, v, in.X.At(i, 0))
		}
	}
	if _, err := Certify(ctx, in.P, mat.NewDense(got.N, got.R, got.X), CertifyOptions{Step: got.Step}); err != nil {
		t.Errorf("re-certify: %v", err)
	}
}

// validInstancesFile is an instances file of one small instance and one
// dropped point, as WriteInstancesJSON writes it.
func validInstancesFile(t testing.TB) string {
	t.Helper()
	eps := 0.3
	in := InstanceInfo{Family: "pmc", Name: "pmc n=3 ε=0.3 #0", N: 3, R: 1, M: 6, Eps: &eps, Seed: 1, Stream: 2, Step: 0.1, PhaseIter: 90,
		Cert:     Certificate{GradNorm: 1e-9, MinHessEig: 0.5, H: 0.2, HRel: 0.1, Dist: 1.5, Kind: StrictLocalMin, DescentSteps: 2000, Step: 0.1, HDescent: 0.2},
		Features: Features{BetaMin: 1.2, GammaMin: OptFloat(math.NaN()), EFS0: 0.3, LambdaMin: 0.5, DeltaLower: 0.8, Dist: 1.5}, X: []float64{1, -0.5, 0.25}}
	var b bytes.Buffer
	if err := WriteInstancesJSON(&b, testEnv, &SuiteRun{Instances: []InstanceInfo{in}, Dropped: []Dropped{{Family: "pmc", Name: "pmc n=3 ε=0.3 #1", Reason: "too close"}}}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestReadInstancesRefuses: the cases ReadInstancesJSON accepted (an X̂
// of the wrong length, n = −3, "instances" given twice, trailing garbage)
// and their neighbours are refused with an error naming the problem; the
// valid file and one of format 1 (no format, m, ε) read.
func TestReadInstancesRefuses(t *testing.T) {
	ok := validInstancesFile(t)
	for name, c := range map[string]struct{ text, want string }{
		"x too short":        {strings.Replace(ok, `"x":[1,-0.5,0.25]`, `"x":[1,-0.5]`, 1), "x has 2 numbers, want n·r = 3·1 = 3"},
		"n = -3":             {strings.Replace(ok, `"n":3`, `"n":-3`, 1), "n = -3"},
		"r > n":              {strings.Replace(ok, `"r":1`, `"r":4`, 1), "want 1 ≤ r ≤ n"},
		"instances twice":    {strings.Replace(ok, `"dropped": [`, `"instances": [], "dropped": [`, 1), `key "instances" given twice`},
		"trailing garbage":   {ok + "garbage", "data after the JSON value"},
		"second object":      {ok + ok, "data after the JSON value"},
		"unknown key":        {strings.Replace(ok, `"seed":1`, `"seeds":1`, 1), `unknown field "seeds"`},
		"nested key twice":   {strings.Replace(ok, `"grad_norm":`, `"h":1,"grad_norm":`, 1), `key "h" given twice`},
		"no kind":            {strings.Replace(ok, `"kind":"strict-local-min",`, ``, 1), "certificate kind 0"},
		"bad kind":           {strings.Replace(ok, `"kind":"strict-local-min"`, `"kind":"saddle"`, 1), "unknown point kind"},
		"negative dist":      {strings.Replace(ok, `"dist":1.5,"kind"`, `"dist":-1.5,"kind"`, 1), "must be finite and ≥ 0"},
		"step 0":             {strings.Replace(ok, `"step":0.1,"phase_iter"`, `"step":0,"phase_iter"`, 1), "step = 0"},
		"eps out of range":   {strings.Replace(ok, `"eps":0.3`, `"eps":3`, 1), "ε = 3"},
		"negative m":         {strings.Replace(ok, `"m":6`, `"m":-6`, 1), "m = -6"},
		"instance twice":     {strings.Replace(ok, `"dropped": [`+"\n"+`{"family":"pmc","name":"pmc n=3 ε=0.3 #1"`, `"dropped": [`+"\n"+`{"family":"pmc","name":"pmc n=3 ε=0.3 #0"`, 1), "listed twice"},
		"dropped no reason":  {strings.Replace(ok, `"reason":"too close"`, `"reason":""`, 1), "a reason"},
		"no instances list":  {`{"env":{},"dropped":[]}`, `no "instances"`},
		"future format":      {strings.Replace(ok, `"format": 2`, `"format": 9`, 1), "format 9"},
		"empty":              {``, "empty input"},
		"overflowing number": {strings.Replace(ok, `"x":[1,`, `"x":[1e999,`, 1), "not an instances file"},
	} {
		_, err := ReadInstancesJSON(strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrBadBench) {
			t.Errorf("%s: %v, want an error wrapping ErrBadParameter with %q", name, err, c.want)
		}
	}
	if f, err := ReadInstancesJSON(strings.NewReader(ok)); err != nil || f.Format != InstancesFormat || *f.Instances[0].Eps != 0.3 || f.Instances[0].M != 6 {
		t.Errorf("valid file: %+v, %v", f, err)
	}
	old := strings.NewReplacer(`{"format": 2, `, `{`, `"m":6,"eps":0.3,`, ``).Replace(ok)
	if f, err := ReadInstancesJSON(strings.NewReader(old)); err != nil || f.Format != 0 || f.Instances[0].Eps != nil || f.Instances[0].M != 0 {
		t.Errorf("format 1: %+v, %v", f, err)
	}
}

// FuzzReadInstances: whatever ReadInstancesJSON accepts, WriteInstancesJSON
// writes back, and that reads back to what writes the same bytes (the
// writer's output is a fixed point); anything else is an error wrapping
// ErrBadBench, never a panic.
func FuzzReadInstances(f *testing.F) {
	ok := validInstancesFile(f)
	f.Add(ok)
	f.Add(strings.Replace(ok, `"x":[1,-0.5,0.25]`, `"x":[1,-0.5]`, 1))
	f.Add(strings.Replace(ok, `"n":3`, `"n":-3`, 1))
	f.Add(ok + "garbage")
	f.Add(`{"env":{},"instances":[],"dropped":[]}`)
	f.Fuzz(func(t *testing.T, s string) {
		in, err := ReadInstancesJSON(strings.NewReader(s))
		if err != nil {
			if !errors.Is(err, ErrBadBench) {
				t.Fatalf("error %v does not wrap ErrBadBench", err)
			}
			return
		}
		var w1, w2 bytes.Buffer
		if err := WriteInstancesJSON(&w1, in.Env, &SuiteRun{Instances: in.Instances, Dropped: in.Dropped}); err != nil {
			t.Fatalf("accepted %q, but the writer refuses it: %v", s, err)
		}
		back, err := ReadInstancesJSON(bytes.NewReader(w1.Bytes()))
		if err != nil {
			t.Fatalf("the writer's output does not read back: %v\n%s", err, w1.String())
		}
		if err := WriteInstancesJSON(&w2, back.Env, &SuiteRun{Instances: back.Instances, Dropped: back.Dropped}); err != nil || !bytes.Equal(w1.Bytes(), w2.Bytes()) {
			t.Fatalf("written twice, different:\n%s\n%s (%v)", w1.String(), w2.String(), err)
		}
	})
}
