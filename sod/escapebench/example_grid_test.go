package escapebench_test

import (
	"fmt"

	"sodworkbench.org/workbench/sod/escapebench"
)

// A grid of settings of the SOD line search, judged both ways: each
// setting is a method of its own (reproduce bench -method
// sod-line-search:l=3,5). A method is named canonically: l = 5 is the
// line search's default, so "sod-line-search+l-5" is "sod-line-search".
func ExampleExpandMethodGrid() {
	for _, spec := range []string{"sod-line-search:l=3,5", "sod-line-search+probe:l=3"} {
		names, _ := escapebench.ExpandMethodGrid(spec)
		for _, n := range names {
			m, err := escapebench.ResolveMethod(n)
			fmt.Println(m.Name, m.Judge, m.Params["l"], err)
		}
	}
	// Output:
	// sod-line-search+l-3 raw-h 3 <nil>
	// sod-line-search raw-h 5 <nil>
	// sod-line-search+probe+l-3 gd-probe 3 <nil>
}

// McNemar's exact test on 10 discordant instances, 9 of them won by one
// method: p = 2·(1 + 10)/2¹⁰.
func ExampleMcNemar() {
	p, _ := escapebench.McNemar(1, 9)
	fmt.Printf("p = %.4f\n", p)
	// Output: p = 0.0215
}
