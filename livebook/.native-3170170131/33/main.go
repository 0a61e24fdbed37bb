package main
import "fmt"
import "github.com/janpfeifer/must"
import "math"
import "sodworkbench.org/workbench/sod"
import "sodworkbench.org/workbench/sod/exercises"
import "sodworkbench.org/workbench/sod/figures"
import "sodworkbench.org/workbench/widgets"
func main() {
in := must.M1(sod.GaussianSpuriousInstance())
s := must.M1(sod.SingleStep(in.P, in.XHat, sod.SingleStepOptions{Delta: in.Delta()}))
widgets.Show(figures.CaseOneLandscapeChart(in, s))
}
