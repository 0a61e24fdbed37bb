package main
import "fmt"
type M int
func (M) F() {}
type I interface{ F() }
type Q int
type P struct{ A int }
func sw[T any](i any) string {
	switch i.(type) {
	case T:
		return "T"
	}
	return "other"
}
func main() {
fmt.Println(sw[Q](Q(1)), sw[any](2))
}
