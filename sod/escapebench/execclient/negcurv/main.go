// Command negcurv is the Go example of an external escape method: from
// the stalled point it steps along u_n q_rᵀ (the eigenvector of the
// smallest eigenvalue of ∇f(X̂X̂ᵀ) times the right singular vector of
// X̂), scans step lengths with h calls and proposes the best point.
//
//	go build -o negcurv ./sod/escapebench/execclient/negcurv
//	reproduce bench -profile quick -method exec:./negcurv
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"sodworkbench.org/workbench/sod/escapebench/execclient"
)

func escape(in execclient.Hello, rd execclient.Round, o *execclient.Oracle) ([]execclient.Proposal, error) {
	cp, err := o.Critical()
	if err != nil || !(cp.LambdaN < 0) || cp.Un == nil || cp.Qr == nil {
		return nil, err
	}
	scale := 0.0
	for _, v := range rd.X {
		scale += v * v
	}
	scale = math.Max(math.Sqrt(scale), 1)
	var best execclient.Proposal
	bestH := math.Inf(1)
	for k := range 16 {
		for _, s := range []float64{1, -1} {
			t := s * scale * math.Pow(2, -float64(k))
			y := make([]float64, len(rd.X))
			for i := range in.N {
				for j := range in.R {
					y[i*in.R+j] = rd.X[i*in.R+j] + t*cp.Un[i]*cp.Qr[j]
				}
			}
			h, err := o.H(y)
			if err != nil {
				return nil, err
			}
			if best.X == nil || h < bestH {
				best, bestH = execclient.Proposal{X: y, Label: fmt.Sprintf("u_n q_r t=%.3g", t)}, h
			}
		}
	}
	return []execclient.Proposal{best}, nil
}

func main() {
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: negcurv (no arguments; it speaks the escape protocol on standard input and output, run by reproduce bench -method exec:negcurv)")
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := execclient.Serve(os.Stdin, os.Stdout, escape); err != nil {
		fmt.Fprintln(os.Stderr, "negcurv:", err)
		os.Exit(1)
	}
}
