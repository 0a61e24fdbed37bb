package exercises

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/experiments"
)

// pair converts a two-number answer ([2]int64, [2]int, []int, …) to two int64.
func pair(answer any) (a, b int64, err error) {
	v := reflect.ValueOf(answer)
	if (v.Kind() != reflect.Array && v.Kind() != reflect.Slice) || v.Len() != 2 {
		return 0, 0, fmt.Errorf("the answer is a %T (%v); want two numbers {l, t}, e.g. [2]int64{5, 100000}", answer, answer)
	}
	if a, err = integer(v.Index(0).Interface()); err == nil {
		b, err = integer(v.Index(1).Interface())
	}
	return a, b, err
}

// checkAblationCell (07.1): the (l, t) of an ablation-table cell whose escape point lowers h.
func checkAblationCell(answer any) (string, error) {
	l, t, err := pair(answer)
	if err != nil {
		return "", err
	}
	res, err := experiments.Ablation(experiments.DefaultAblationConfig(), nil)
	if err != nil {
		return "", err
	}
	var found []string
	ok := false
	for _, row := range res.Rows {
		for _, c := range row.Cells {
			if c.Descent {
				found = append(found, fmt.Sprintf("(%d, %d)", row.L, c.T))
				ok = ok || (int64(row.L) == l && c.T == t)
			}
		}
	}
	switch {
	case !ok:
		return "", fmt.Errorf("not quite: at (l, t) = (%d, %d) h(X̌) ≥ h(X̂) or X̌ is undefined. Hint: look at the table's last column", l, t)
	case len(found) == 1:
		return "the only cell whose escape point lowers h is " + found[0], nil
	}
	return fmt.Sprintf("it is one of %v", found), nil
}

// checkFeatureScale (09.3): with the measurement rows of W multiplied by k (bias row kept), the
// network on z-score features gives the outputs of W on the default (halved) features.
func checkFeatureScale(answer any) (string, error) {
	k, err := number(answer)
	if err != nil {
		return "", err
	}
	cfg := experiments.DefaultQNNConfig()
	half, err := experiments.QNNProblem(cfg)
	if err != nil {
		return "", err
	}
	cfg.Features = "standardized"
	full, err := experiments.QNNProblem(cfg)
	if err != nil {
		return "", err
	}
	n, r := half.Dims()
	rng := rand.New(rand.NewPCG(13, 0))
	w := mat.NewDense(n, r, nil) // any W will do: the outputs agree for all W or for almost none
	for i := range n {
		for j := range r {
			w.Set(i, j, rng.NormFloat64())
		}
	}
	w2 := mat.DenseCopyOf(w)
	for i := 0; i < n-1; i++ { // the measurement rows; the last row (bias) is kept
		for j := range r {
			w2.Set(i, j, k*w.At(i, j))
		}
	}
	_, m := half.Op.Dims()
	o1, o2 := make([]float64, m), make([]float64, m)
	var M1, M2 mat.Dense
	M1.Mul(w, w.T())
	M2.Mul(w2, w2.T())
	half.Op.Apply(o1, &M1)
	full.Op.Apply(o2, &M2)
	diff := 0.0
	for i := range o1 {
		diff = math.Max(diff, math.Abs(o1[i]-o2[i]))
	}
	if !(diff < 1e-9*math.Max(1, mat.Norm(&M1, 2))) {
		return "", fmt.Errorf("not quite: with k = %g the outputs differ by up to %.3g. Hint: wᵀx = Σ_j w_j x_j, and each measurement x_j is doubled", k, diff)
	}
	return "the same network; yet SOD's directions differ between the two parametrisations", nil
}

// escapeOpts are the options of the variant comparison of notebook 10: one escape round.
var escapeOpts = sod.EscapeOptions{GD: sod.GDOptions{Step: 0.1, MaxIter: 3000, GradTol: 1e-10}, MaxEscapes: 1, TargetDist: 0.02}

// checkMyLine (10.1): an escape variant whose candidates lie on X̂ + ρ u_n q_rᵀ, on the three case
// studies.
func checkMyLine(answer any) (string, error) {
	f, ok := answer.(func(*sod.EscapeContext) ([]sod.Candidate, error))
	if !ok {
		if e, isEsc := answer.(sod.Escaper); isEsc {
			return checkLineEscaper(e)
		}
		return "", fmt.Errorf("the answer is a %T; want a func(ctx *sod.EscapeContext) ([]sod.Candidate, error)", answer)
	}
	if f == nil {
		return "", fmt.Errorf("%w: write answer101", ErrUnanswered)
	}
	return checkLineEscaper(sod.EscapeFunc("my line", f))
}

func checkLineEscaper(esc sod.Escaper) (string, error) {
	total, onLine := 0, 0
	summary := ""
	for _, in := range sod.PaperInstances() {
		run, err := sod.RunEscape(in.P, in.XHat, esc, escapeOpts)
		if err != nil {
			return "", err
		}
		if run.Err != nil {
			return "", fmt.Errorf("your escape failed on the %s: %v", in.Name, run.Err)
		}
		if len(run.Escapes) == 0 {
			continue
		}
		e := run.Escapes[0]
		cp, err := sod.AnalyzeCritical(in.P, e.From, sod.CriticalOptions{SkipHessian: true})
		if err != nil {
			return "", err
		}
		lower := 0
		for _, c := range e.Candidates {
			total++
			if rows, cols := c.X.Dims(); rows == cp.Un.Len() && cols == cp.Qr.Len() {
				// On the line: X̌ − X̂ = ρ u_n q_rᵀ with ρ = u_nᵀ (X̌ − X̂) q_r.
				var d, w mat.Dense
				d.Sub(c.X, e.From)
				rho := mat.Inner(cp.Un, &d, cp.Qr)
				w.Outer(rho, cp.Un, cp.Qr)
				w.Sub(&w, &d)
				if mat.Norm(&w, 2) < 1e-9*math.Max(1, math.Abs(rho)) {
					onLine++
				}
			}
			if c.Descent {
				lower++
			}
		}
		summary += fmt.Sprintf("; %s: %d candidates, %d lower h", in.Name, len(e.Candidates), lower)
	}
	switch {
	case total == 0:
		return "", fmt.Errorf("%w: answer101 proposes no candidate yet", ErrUnanswered)
	case onLine < total:
		return "", fmt.Errorf("not quite: %d of %d candidates are not of the form X̂ + ρ u_n q_rᵀ. Hint: use cp.Un and cp.Qr from ctx.Critical()", total-onLine, total)
	}
	return "every candidate lies on X̂ + ρ u_n q_rᵀ" + summary + ". Why does no candidate lower h?", nil
}
