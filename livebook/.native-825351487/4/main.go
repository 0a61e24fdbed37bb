package main
import "fmt"
type M int
func (M) F() {}
type I interface{ F() }
type Q int
type P struct{ A int }
func eq[T comparable](i any, t T) bool {
	return i == t
}
func main() {
fmt.Println(eq(0, 0))
}
