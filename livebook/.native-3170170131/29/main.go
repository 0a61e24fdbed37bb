package main
import "fmt"
import "github.com/janpfeifer/must"
import "math"
import "sodworkbench.org/workbench/sod"

import "sodworkbench.org/workbench/sod/figures"
import "sodworkbench.org/workbench/widgets"
func main() {
in := sod.DesignedSaddleInstance()
s := must.M1(sod.SingleStep(in.P, in.XHat, sod.SingleStepOptions{Delta: in.Delta(), GradTol: 1e-9}))
widgets.Show(figures.QuadraticInequalityChart("Designed 2×2 saddle: EFS > 1", in.P, s, -2.5, 1.5))
// eq. root1_root2: ρ̂₁,₂ = −σ_r⟨E, u_nu_nᵀ⟩/(1+δ) ∓ σ_r√(2(EFS − 1))
sr, mid := s.CP.SigmaR, -s.CP.SigmaR*s.CP.Euu/(1+s.Delta)
fmt.Printf("ρ̂₁ = %.4f, ρ̂₂ = %.4f", mid-sr*math.Sqrt(2*(s.EFS-1)), mid+sr*math.Sqrt(2*(s.EFS-1)))
fmt.Printf(" (sod.SingleStep: %.4f, %.4f)\n", s.Rho1, s.Rho2)
}
