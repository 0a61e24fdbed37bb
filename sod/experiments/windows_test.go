package experiments

import (
	"context"
	"errors"
	"fmt"
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
	for _, bad := range []AblationConfig{{Ls: nil}, {Ls: []int{4}, Rho: 0.1, Eta: 0.1}, {Ls: []int{3}, Rho: 2, Eta: 0.1}} {
		if _, err := RunEscapeWindows(context.Background(), bad, nil); !errors.Is(err, sod.ErrBadParameter) {
			t.Errorf("RunEscapeWindows(%+v): %v, want ErrBadParameter", bad, err)
		}
	}
}

// The windows of the paper's Fig. ablation for l = 3, …, 11 on the real-world case.
func ExampleRunEscapeWindows() {
	cfg := DefaultAblationConfig()
	cfg.Ls = []int{3, 5, 7, 9, 11}
	res, err := RunEscapeWindows(context.Background(), cfg, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, row := range res.Rows {
		fmt.Printf("l = %2d: ρ_min = %.3f, U_β = %s, U_γ = %s\n", row.L, row.RhoMin, row.UBetaS, row.UGamS)
	}
	// Output:
	// l =  3: ρ_min = 0.208, U_β = ∅, U_γ = (2006.17, +Inf)
	// l =  5: ρ_min = 0.097, U_β = (26948.72, 33974.73), U_γ = (33974.73, +Inf)
	// l =  7: ρ_min = 0.043, U_β = (0.00, 1093342.41), U_γ = (1093342.41, +Inf)
	// l =  9: ρ_min = 0.019, U_β = (0.00, 35646363.46), U_γ = (35646363.46, +Inf)
	// l = 11: ρ_min = 0.008, U_β = (0.00, 1170586669.70), U_γ = (1170586669.70, +Inf)
}
