package main
import "context"

import "github.com/janpfeifer/must"

import "sodworkbench.org/workbench/sod"


import "sodworkbench.org/workbench/sod/figures"
import "sodworkbench.org/workbench/widgets"
var ctx = context.Background()
func main() {
tab := must.M1(figures.RIPTable(ctx, sod.PaperInstances(), 2000, 40, 1)) // 2000 samples, 40 Nelder–Mead starts, seed 1
widgets.Show(tab)
}
