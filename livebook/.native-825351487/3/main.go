package main
import "fmt"
type M int
func (M) F() {}
type I interface{ F() }
type Q int
type P struct{ A int }
func main() {
var x I = M(5)
switch x {
case M(5):
	fmt.Println("5")
}
}
