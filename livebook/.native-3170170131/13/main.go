package main
import "context"
import "fmt"
import "github.com/janpfeifer/must"
import "gonum.org/v1/gonum/mat"
import "sodworkbench.org/workbench/sod"




var ctx = context.Background()
func main() {
p := sod.BasicExampleProblem()
n, m := p.Op.Dims()
fmt.Printf("basic example: n = %d, m = %d, search rank r = %d\n", n, m, p.R)
for i := range m {
	A := must.M1(sod.SensingMatrix(p.Op, i))
	fmt.Printf("A_%d = %.4f\n", i+1, mat.Formatted(A, mat.Prefix("      ")))
}
fmt.Printf("\nh(x̂) = %.6f (paper: 3/8)    h(z) = %.6f\n", p.H(sod.BasicExampleXHat()), p.H(mat.NewDense(2, 1, []float64{1, 0})))
}
