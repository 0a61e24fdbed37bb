package main
import "fmt"
type M int
func (M) F() {}
type I interface{ F() }
type Q int
type P struct{ A int }
func main() {
var x, y I = M(5), M(5)
fmt.Println(x == y)
}
