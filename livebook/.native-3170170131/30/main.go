package main
import "fmt"
import "github.com/janpfeifer/must"

import "sodworkbench.org/workbench/sod"

import "sodworkbench.org/workbench/sod/figures"
import "sodworkbench.org/workbench/widgets"
func main() {
in := sod.DesignedSaddleInstance()
s := must.M1(sod.SingleStep(in.P, in.XHat, sod.SingleStepOptions{Delta: in.Delta(), GradTol: 1e-9}))
cp := must.M1(in.Critical(sod.CriticalOptions{}))
fmt.Printf("δ = %.4f   NCM = %.4f   AIC = %.4f   EFS = %.4f   Δ = %.4f\n", s.Delta, s.NCM, s.AIC, s.EFS, s.Disc)
fmt.Printf("ρ̂ interval (%.4f, %.4f); candidate ρ̂ = %.4f (centre): h(X̌) = %.4f < h(X̂) = %.4f: %v\n", s.Rho1, s.Rho2, s.Rho, s.HCheck, s.HHat, s.Descends)
fmt.Printf("Hessian eigenvalues at X̂: %.4f → a strict saddle, not a local minimum\n", cp.HessEig)
fmt.Println("verdict:", s.Verdict)
widgets.Show(figures.SingleStepLineChart("Designed saddle: h(X̂ + ρ u_n q_rᵀ) − h(X̂)", in.P, s, -3, 1.5))
}
