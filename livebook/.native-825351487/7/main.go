package main
import "fmt"
type M int
func (M) F() {}
type I interface{ F() }
type Q int
type P struct{ A int }
func main() {
fmt.Printf("%#v\n", P{1})
}
