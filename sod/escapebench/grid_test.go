package escapebench

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod"
)

func TestMethodGrid(t *testing.T) {
	names, err := ExpandMethodGrid("sod-line-search+probe:l=3,5;rho=0.5")
	want := []string{"sod-line-search+probe+l-3+rho-0.5", "sod-line-search+probe+l-5+rho-0.5"}
	if err != nil || !slices.Equal(names, want) {
		t.Fatalf("ExpandMethodGrid = %q, %v; want %q", names, err, want)
	}
	m, err := ResolveMethod(names[1])
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != names[1] || m.Judge != JudgeProbe || m.Params["l"] != "5" || m.Params["rho"] != "0.5" {
		t.Errorf("resolved %q judge %v params %v", m.Name, m.Judge, m.Params)
	}
	e, err := m.New(CertifiedInstance{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	ls := e.(*probeBest).inner.(*sod.SODLineSearch)
	if ls.L != 5 || ls.Rho != 0.5 {
		t.Errorf("escaper L = %d, ρ = %v, want 5 and 0.5", ls.L, ls.Rho)
	}
	if err := sod.CheckIdentifier("method", names[0]); err != nil {
		t.Errorf("grid name %q is not an identifier: %v", names[0], err)
	}
	for _, c := range []struct {
		name, want string
		sentinel   error
	}{
		{"sod-line-search+zz-1", `no setting "zz"`, ErrBadBench},
		{"sod-line-search+l-x", `l = "x"`, ErrBadBench},
		{"sod-line-search+l-0", "l must be odd", sod.ErrBadParameter}, // the escaper's Validate (sod) refuses L = 0
		{"random-restart+probe", "already judged", ErrBadBench},
		{"no-such-method", "unknown method", ErrBadBench},
		{"sod-line-search+l", "neither a judge", ErrBadBench},
		{"sod-line-search+l-3+probe", "neither a judge", ErrBadBench}, // the judge comes first
	} {
		_, err := ResolveMethod(c.name)
		if !errors.Is(err, c.sentinel) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ResolveMethod(%q) = %v, want %v mentioning %q", c.name, err, c.sentinel, c.want)
		}
	}
	for _, bad := range []string{":l=3", "sod-line-search:l", "sod-line-search:l=3;l=4", "sod-line-search:l=,", "sod-line-search:l=1e+3"} {
		if _, err := ExpandMethodGrid(bad); !errors.Is(err, ErrBadBench) {
			t.Errorf("ExpandMethodGrid(%q) = %v, want ErrBadBench", bad, err)
		}
	}
}
