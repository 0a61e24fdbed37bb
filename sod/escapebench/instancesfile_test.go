package escapebench

import (
	"bytes"
	"context"
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
	if f.Env != testEnv || got.Stream == 0 || got.Stream != in.Stream || len(got.X) != 20 || f.Dropped[0].Reason != "why" {
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
