package main
import "context"
import "fmt"

import "gonum.org/v1/gonum/mat"
import "sodworkbench.org/workbench/sod"




var ctx = context.Background()
func main() {
// ∇h(X) = 2∇f(XXᵀ)X (eq. matrix_gradient) against central differences (h(x + εeᵢ) − h(x − εeᵢ))/(2ε).
p := sod.BasicExampleProblem()
x := mat.NewDense(2, 1, []float64{0.3, -0.8})
g := mat.NewDense(2, 1, nil)
p.Grad(g, x)
const eps = 1e-6
for i := range 2 {
	xp, xm := mat.DenseCopyOf(x), mat.DenseCopyOf(x)
	xp.Set(i, 0, x.At(i, 0)+eps)
	xm.Set(i, 0, x.At(i, 0)-eps)
	fmt.Printf("∂h/∂x%d at (0.3, −0.8): formula %+.9f   finite difference %+.9f\n", i+1, g.At(i, 0), (p.H(xp)-p.H(xm))/(2*eps))
}
}
