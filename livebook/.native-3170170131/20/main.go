package main
import "context"




import "sodworkbench.org/workbench/sod/exercises"



var ctx = context.Background()
var answer011 = 0.0
func main() {
exercises.Check("01.1", answer011)
}
