package exercises

import (
	"context"
	"fmt"
	"math"
	"reflect"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/experiments"
	"sodworkbench.org/workbench/sod/randstream"
)

// pair converts a two-number answer ([2]int64, [2]int, []int, …) to two int64.
func pair(answer any) (a, b int64, err error) {
	v := reflect.ValueOf(answer)
	if (v.Kind() != reflect.Array && v.Kind() != reflect.Slice) || v.Len() != 2 {
		return 0, 0, fmt.Errorf("the answer is a %s (%v); want two numbers {l, t}, e.g. [2]int64{5, 100000}", typeName(answer), answer)
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
	res, err := experiments.RunAblation(context.Background(), experiments.DefaultAblationConfig(), nil)
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
	rng := randstream.New(13, randstream.FeatureCheckWeights)
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
var escapeOpts = sod.EscapeOptions{GD: sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 3000}, GradTol: 1e-10}, MaxEscapes: 1, TargetDist: 0.02}

// escaperOf returns a 10.1 answer as an Escaper (nil, true for a nil func; ok false for an
// answer of another type).
func escaperOf(answer any) (sod.Escaper, bool) {
	switch f := answer.(type) {
	case func(context.Context, *sod.EscapeState) ([]sod.Candidate, error):
		if f == nil {
			return nil, true
		}
		return sod.EscapeFunc("my line", f), true
	case sod.Escaper:
		return f, true
	}
	return nil, false
}

// runMyLine (10.1, in the notebook's process): one escape round of the answer from each of
// the workbench's case studies; each output holds the candidates of that round.
func runMyLine(answer any, _ uint64) ([]Output, bool) {
	esc, ok := escaperOf(answer)
	if !ok || esc == nil {
		return nil, ok
	}
	var outs []Output
	for _, in := range sod.PaperInstances() {
		var o Output
		run, err := sod.RunEscape(context.Background(), in.P, in.XHat, esc, escapeOpts)
		switch {
		case err != nil:
			o.Err = err.Error()
		case run.Err != nil:
			o.Err = run.Err.Error()
		case len(run.Escapes) > 0:
			for _, c := range run.Escapes[0].Candidates {
				o.Matrices = append(o.Matrices, toMatrix(c.X))
			}
		}
		outs = append(outs, o)
	}
	return outs, true
}

// stalledPoints are the points X̂ at which one escape round from each case study calls its
// escaper: the inputs of exercise 10.1, computed by the checker itself.
func stalledPoints() ([]*mat.Dense, error) {
	var xs []*mat.Dense
	for _, in := range sod.PaperInstances() {
		var from *mat.Dense
		rec := sod.EscapeFunc("recorder", func(_ context.Context, st *sod.EscapeState) ([]sod.Candidate, error) {
			from = mat.DenseCopyOf(st.X)
			return nil, nil
		})
		if _, err := sod.RunEscape(context.Background(), in.P, in.XHat, rec, escapeOpts); err != nil {
			return nil, err
		}
		xs = append(xs, from) // nil: GD solved the instance without stalling
	}
	return xs, nil
}

// judgeMyLine (10.1): every candidate of the exported rounds lies on X̂ + ρ u_n q_rᵀ, with X̂, u_n
// and q_r computed here.
func judgeMyLine(a *Answer, _ uint64) (string, error) {
	if a.Zero && a.Type != "nil" {
		return "", fmt.Errorf("%w: write answer101", ErrUnanswered)
	}
	if a.Outputs == nil {
		return "", fmt.Errorf("the answer is a %s; want a func(ctx context.Context, st *sod.EscapeState) ([]sod.Candidate, error)", a.Type)
	}
	instances := sod.PaperInstances()
	if len(a.Outputs) != len(instances) {
		return "", fmt.Errorf("the export has %d escape rounds, want one per case study (%d)", len(a.Outputs), len(instances))
	}
	froms, err := stalledPoints()
	if err != nil {
		return "", err
	}
	total, onLine := 0, 0
	summary := ""
	for k, in := range instances {
		o := a.Outputs[k]
		if o.Err != "" {
			return "", fmt.Errorf("your escape failed on the %s: %s", in.Name, o.Err)
		}
		if froms[k] == nil || len(o.Matrices) == 0 {
			continue
		}
		from := froms[k]
		cp, err := sod.AnalyzeCritical(in.P, from, sod.CriticalOptions{SkipHessian: true})
		if err != nil {
			return "", err
		}
		hFrom := in.P.H(from)
		lower := 0
		for _, m := range o.Matrices {
			total++
			if m.Rows != cp.Un.Len() || m.Cols != cp.Qr.Len() {
				continue
			}
			x := mat.NewDense(m.Rows, m.Cols, nil)
			finite := true
			for i, v := range m.Data {
				x.Set(i/m.Cols, i%m.Cols, float64(v))
				finite = finite && !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0)
			}
			if !finite {
				continue
			}
			// On the line: X̌ − X̂ = ρ u_n q_rᵀ with ρ = u_nᵀ (X̌ − X̂) q_r.
			var d, w mat.Dense
			d.Sub(x, from)
			rho := mat.Inner(cp.Un, &d, cp.Qr)
			w.Outer(rho, cp.Un, cp.Qr)
			w.Sub(&w, &d)
			if mat.Norm(&w, 2) < 1e-9*math.Max(1, math.Abs(rho)) {
				onLine++
			}
			if in.P.H(x) < hFrom {
				lower++
			}
		}
		summary += fmt.Sprintf("; %s: %d candidates, %d lower h", in.Name, len(o.Matrices), lower)
	}
	switch {
	case total == 0:
		return "", fmt.Errorf("%w: answer101 proposes no candidate yet", ErrUnanswered)
	case onLine < total:
		return "", fmt.Errorf("not quite: %d of %d candidates are not of the form X̂ + ρ u_n q_rᵀ. Hint: use cp.Un and cp.Qr from ctx.Critical()", total-onLine, total)
	}
	return "every candidate lies on X̂ + ρ u_n q_rᵀ" + summary + ". Why does no candidate lower h?", nil
}
