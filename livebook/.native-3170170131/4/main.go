package main
import "fmt"
import "github.com/janpfeifer/must"

import "sodworkbench.org/workbench/sod"

import "sodworkbench.org/workbench/widgets"
func main() {
fmt.Println(sod.BuildInfo())
fmt.Println("offline ECharts assets:", must.M1(widgets.AssetsDir()))
}
