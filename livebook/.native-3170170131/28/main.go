package main

import "github.com/janpfeifer/must"

import "sodworkbench.org/workbench/sod"

import "sodworkbench.org/workbench/sod/figures"
import "sodworkbench.org/workbench/widgets"
func main() {
rw := sod.RealWorldCase()
s := must.M1(sod.SingleStep(rw.P, rw.XHat, sod.SingleStepOptions{Delta: rw.Delta()}))
widgets.Show(figures.QuadraticInequalityChart("Real-world case: no root", rw.P, s, -3, 3))
}
