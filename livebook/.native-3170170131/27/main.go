package main



import "sodworkbench.org/workbench/sod"

import "sodworkbench.org/workbench/sod/figures"
import "sodworkbench.org/workbench/widgets"
func main() {
insts := sod.PaperInstances() // basic example, PMC, real-world at their spurious points, each with its δ's
widgets.Show(figures.EFSTable(insts))
widgets.Show(figures.EFSAgainstDeltaChart(insts))
}
