package sod_test

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"testing"

	"sodworkbench.org/workbench/sod"
)

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// TestEscaperParamsDefaults: the listing of every built-in default is the
// map of its non-zero fields, written here by hand from the fields
// (strconv), so a listing that drifts from the values fails.
func TestEscaperParamsDefaults(t *testing.T) {
	ms := sod.DefaultMultiStepSOD(7, 33500)
	ls := sod.DefaultSODLineSearch()
	ex := sod.DefaultExactSubspaceSOD()
	pg := sod.DefaultPerturbedGD(3)
	rl := sod.DefaultRandomLineSearch(4)
	ss := sod.DefaultSingleStepSOD(0.5)
	for _, tc := range []struct {
		esc  sod.Escaper
		want map[string]string
	}{
		{ms, map[string]string{"l": strconv.Itoa(ms.L), "t": strconv.FormatInt(ms.T, 10), "rho": ftoa(ms.Rho), "eta": ftoa(ms.Eta)}},
		{ls, map[string]string{"l": strconv.Itoa(ls.L), "rho": ftoa(ls.Rho), "eta": ftoa(ls.Eta), "both_signs": strconv.FormatBool(ls.BothSigns)}},
		{ex, map[string]string{"l": strconv.Itoa(ex.L), "t": strconv.Itoa(ex.T), "rho": ftoa(ex.Rho), "eta": ftoa(ex.Eta), "both_signs": strconv.FormatBool(ex.BothSigns)}},
		{pg, map[string]string{"radius": ftoa(pg.Radius), "t_thres": strconv.Itoa(pg.TThres), "samples": strconv.Itoa(pg.Samples), "seed": strconv.FormatUint(pg.Seed, 10)}},
		{rl, map[string]string{"directions": strconv.Itoa(rl.Directions), "seed": strconv.FormatUint(rl.Seed, 10)}},
		{&sod.NegGradLineSearch{}, map[string]string{}},
		{ss, map[string]string{"delta": ftoa(ss.Options.Delta)}},
		{sod.EscapeFunc("mine", func(context.Context, *sod.EscapeState) ([]sod.Candidate, error) { return nil, nil }), map[string]string{}},
		{nil, map[string]string{}},
		{(*sod.MultiStepSOD)(nil), map[string]string{}},
	} {
		name := fmt.Sprintf("%T", tc.esc)
		if got := sod.EscaperParams(tc.esc); got == nil || !maps.Equal(got, tc.want) {
			t.Errorf("%s: EscaperParams = %v, want %v", name, got, tc.want)
		}
	}
}

// TestEscaperParamsFollowFields mutates one field of a constructed
// escaper at a time and checks that the listing follows: a key typed
// anywhere instead of derived would keep the old value.
func TestEscaperParamsFollowFields(t *testing.T) {
	grid := make([]int64, 0, 97)
	for k := 0; k <= 96; k++ {
		grid = append(grid, int64(k+1)) // the ends and the count are what is listed
	}
	grid[96] = 1_000_000_000_000
	for _, tc := range []struct {
		name string
		esc  func() sod.Escaper
		key  string
		want string
	}{
		{"ρ", func() sod.Escaper { e := sod.DefaultMultiStepSOD(5, 1000); e.Rho = 0.25; return e }, "rho", "0.25"},
		{"η", func() sod.Escaper { e := sod.DefaultSODLineSearch(); e.Eta = 1e-7; return e }, "eta", "1e-07"},
		{"Force", func() sod.Escaper { e := sod.DefaultMultiStepSOD(5, 1000); e.Force = sod.KindGamma; return e }, "force", "γ"},
		{"Ts grid", func() sod.Escaper { e := sod.DefaultSODLineSearch(); e.Ts = grid; return e }, "ts", "1..1e12 (97 values)"},
		{"short Ts", func() sod.Escaper { e := sod.DefaultSODLineSearch(); e.Ts = []int64{10, 1000}; return e }, "ts", "10, 1000"},
		{"Kinds", func() sod.Escaper {
			e := sod.DefaultSODLineSearch()
			e.Kinds = []sod.EscapeKind{sod.KindBeta}
			return e
		}, "kinds", "β"},
		{"GrowthQ", func() sod.Escaper { e := sod.DefaultSODLineSearch(); e.GrowthQ = 1.5; return e }, "growth_q", "1.5"},
		{"T", func() sod.Escaper { e := sod.DefaultExactSubspaceSOD(); e.T = 20; return e }, "t", "20"},
		{"TThres", func() sod.Escaper { e := sod.DefaultPerturbedGD(1); e.TThres = 7; return e }, "t_thres", "7"},
		{"Alphas", func() sod.Escaper { e := sod.DefaultRandomLineSearch(1); e.Alphas = []float64{0.5, 2}; return e }, "alphas", "0.5, 2"},
		{"NegGrad Alphas", func() sod.Escaper { return &sod.NegGradLineSearch{Alphas: []float64{0.1, 0.2, 0.3, 0.4, 0.5}} }, "alphas", "0.1..0.5 (5 values)"},
		{"δ", func() sod.Escaper { return sod.DefaultSingleStepSOD(0.999) }, "delta", "0.999"},
		{"ρ̂ (nested)", func() sod.Escaper { e := sod.DefaultSingleStepSOD(0.5); e.Options.Rho = 0.3; return e }, "rho", "0.3"},
		{"ExactLine", func() sod.Escaper { e := sod.DefaultSingleStepSOD(0.5); e.ExactLine = true; return e }, "exact_line", "true"},
		{"nested RankTol", func() sod.Escaper { e := sod.DefaultSingleStepSOD(0.5); e.Options.Critical.RankTol = 1e-8; return e }, "rank_tol", "1e-08"},
	} {
		got := sod.EscaperParams(tc.esc())
		if got[tc.key] != tc.want {
			t.Errorf("%s: EscaperParams[%q] = %q, want %q (all: %v)", tc.name, tc.key, got[tc.key], tc.want, got)
		}
	}
	// A field set back to its zero value leaves the listing.
	e := sod.DefaultSODLineSearch()
	e.BothSigns = false
	if v, ok := sod.EscaperParams(e)["both_signs"]; ok {
		t.Errorf("both_signs = false listed as %q; zero values are left out", v)
	}
}
