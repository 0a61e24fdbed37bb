package main
import "context"
import "fmt"
import "github.com/janpfeifer/must"

import "sodworkbench.org/workbench/sod"




var ctx = context.Background()
func main() {
cp := must.M1(sod.AnalyzeCritical(sod.BasicExampleProblem(), sod.BasicExampleXHat(), sod.CriticalOptions{}))
fmt.Printf("at x̂: ‖∇h‖_F = %.1g, eigenvalues of ∇f(x̂x̂ᵀ) = %.4f, u_n = %.4f\n", cp.GradNorm, cp.Lambda, cp.Un.RawVector().Data)
fmt.Printf("Hessian of h at x̂: eigenvalues %.4f (singular: the minimum is quartic along e₁)\n", cp.HessEig)
fmt.Println("spurious minimum check:", cp.CheckSpurious(1e-9) == nil, "   local minimum (2nd order):", cp.IsLocalMinimum(1e-9))
}
