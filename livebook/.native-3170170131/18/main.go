package main
import "context"
import "fmt"
import "github.com/janpfeifer/must"



import "sodworkbench.org/workbench/sod/experiments"
import "sodworkbench.org/workbench/sod/figures"
import "sodworkbench.org/workbench/widgets"
var ctx = context.Background()
func main() {
cfg := experiments.DefaultDeltaSweepConfig() // n = 3, 6, 10; ε from 1 to 0.05; 40 starts; GD step 0.05
res := must.M1(experiments.RunDeltaSweep(ctx, cfg, nil))
for k, n := range res.Sizes {
	fmt.Printf("n = %2d: exact δ %.2f\n         success %.2f\n", n, res.Delta[k], res.Rate[k])
}
widgets.Show(figures.DeltaSweepChart(res))
}
