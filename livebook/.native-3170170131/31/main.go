package main
import "fmt"
import "github.com/janpfeifer/must"

import "sodworkbench.org/workbench/sod"



func main() {
len := func(a ...any) int { return 0 }
_ = len
in := must.M1(sod.GaussianSpuriousInstance()) // seed 164, X̂ where GD (step 0.05) from (0.3, 0.6) stalls
h0 := in.P.H(in.XHat)
fmt.Printf("GD stalls at X̂ = (%.4f, %.4f), h(X̂) = %.5f, ‖X̂X̂ᵀ − M*‖_F = %.3f; exact RIP δ = %.4f\n",
	in.XHat.At(0, 0), in.XHat.At(1, 0), h0, in.P.DistStar(in.XHat), in.Delta())
for _, flip := range []bool{false, true} {
	s := must.M1(sod.SingleStep(in.P, in.XHat, sod.SingleStepOptions{Delta: in.Delta(), Critical: sod.CriticalOptions{FlipUn: flip}}))
	rho := s.Exact.BestRho
	good, mirror := s.CP.LinePoint(1, rho), s.CP.LinePoint(-1, rho) // X̂ + ρ*uqᵀ and the Case 1 point −X̂ + ρ*uqᵀ
	fmt.Printf("\nu_n = (%+.4f, %+.4f): ⟨E, u_n u_nᵀ⟩ = %+.4f, EFS = %.4f (certificate: %v), exact line minimiser ρ* = %+.4f\n",
		s.CP.Un.AtVec(0), s.CP.Un.AtVec(1), s.CP.Euu, s.EFS, s.Feasible, rho)
	fmt.Printf("  X̂ + ρ* u qᵀ   = (%+.4f, %+.4f)   h = %.5f  (descent: %v)\n", good.At(0, 0), good.At(1, 0), in.P.H(good), in.P.H(good) < h0)
	fmt.Printf("  −X̂ + ρ* u qᵀ  = (%+.4f, %+.4f)   h = %.5f  (descent: %v)\n", mirror.At(0, 0), mirror.At(1, 0), in.P.H(mirror), in.P.H(mirror) < h0)
	recipe := map[bool]string{true: "Case 1, −X̂ + ρ̂ u qᵀ → the mirror point, h rises", false: "Case 2, X̂ + ρ̂ u qᵀ → the descent point"}
	fmt.Printf("  ⟨E, u_n u_nᵀ⟩ %s 0: the paper's recipe is %s\n", map[bool]string{true: ">", false: "<"}[s.CP.Euu > 0], recipe[s.CP.Euu > 0])
}
}
