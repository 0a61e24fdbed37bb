package main
import "context"
import "fmt"
import "github.com/janpfeifer/must"

import "sodworkbench.org/workbench/sod"


import "sodworkbench.org/workbench/sod/figures"
import "sodworkbench.org/workbench/widgets"
var ctx = context.Background()
func main() {
p := sod.BasicExampleProblem()
grid := must.M1(figures.HGrid(p, -1.5, 1.5, 81, 0))
starts := [][2]float64{{0.08, 1.3}, {-0.1, -1.2}, {1.3, 1.1}, {-0.5, 0.3}}
paths, runs := must.M2(figures.GDPaths(ctx, p, starts, sod.GDOptions{Iteration: sod.Iteration{Step: 0.1, MaxIter: 300}}))
for k, r := range runs {
	fmt.Printf("%-22s → (%+.4f, %+.4f)   h = %.2e   ‖XXᵀ − M*‖_F = %.3f\n", paths[k].Name, r.X.At(0, 0), r.X.At(1, 0), r.H, p.DistStar(r.X))
}
widgets.Show(widgets.Landscape{Title: "Basic example: log₁₀ h(x) and gradient descent paths",
	XName: "x₁", YName: "x₂", Grid: grid, LogZ: true, Paths: paths, Points: figures.BasicPoints()}.Chart(widgets.Size("100%", "560px")))
}
