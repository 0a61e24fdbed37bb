package experiments

import (
	"context"
	"errors"
	"testing"

	"sodworkbench.org/workbench/sod"
)

// RunEscapeWindows gives the rows of RunAblation (same ρ_min, K_l, U_β, U_γ) without the cells.
func TestEscapeWindowsMatchesAblation(t *testing.T) {
	cfg := DefaultAblationConfig()
	cfg.Ts, cfg.GDIter = []int64{1000}, 1
	full, err := RunAblation(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	w, err := RunEscapeWindows(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range w.Rows {
		f := full.Rows[i]
		if row.L != f.L || row.RhoMin != f.RhoMin || row.K != f.K || row.UBetaS != f.UBetaS || row.UGamS != f.UGamS || len(row.Cells) != 0 {
			t.Errorf("row %d: %+v, Ablation %+v", i, row, f)
		}
	}
	for _, bad := range []struct {
		cfg  AblationConfig
		want error
	}{
		{AblationConfig{Ls: nil}, ErrBadExperiment},
		{AblationConfig{Ls: []int{4}, Rho: 0.1, Eta: 0.1}, sod.ErrBadParameter}, // sod checks l and ρ
		{AblationConfig{Ls: []int{3}, Rho: 2, Eta: 0.1}, sod.ErrBadParameter},
	} {
		if _, err := RunEscapeWindows(context.Background(), bad.cfg, nil); !errors.Is(err, bad.want) {
			t.Errorf("RunEscapeWindows(%+v): %v, want %v", bad.cfg, err, bad.want)
		}
	}
}
