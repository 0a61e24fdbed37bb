package main


import "math"


import "sodworkbench.org/workbench/widgets"
// 𝒜(xxᵀ) = (x₁² + x₂²/2, √3·x₁x₂, (√3/2)·x₂²) and b = 𝒜(e₁e₁ᵀ) = (1, 0, 0).
func hBasic(x1, x2 float64) float64 {
	r1 := x1*x1 + x2*x2/2 - 1
	r2 := math.Sqrt(3) * x1 * x2
	r3 := math.Sqrt(3) / 2 * x2 * x2
	return (r1*r1 + r2*r2 + r3*r3) / 2
}
func threePaths() (s []float64, paths []widgets.Series) {
	paths = []widgets.Series{{Name: "x̂ + s(z − x̂)"}, {Name: "x̂ + s·e₁"}, {Name: "(√s, √(½ − 2s))"}}
	for i := 0; i <= 50; i++ {
		t := 0.25 * float64(i) / 50
		s = append(s, t)
		paths[0].Y = append(paths[0].Y, hBasic(t, (1-t)/math.Sqrt2))
		paths[1].Y = append(paths[1].Y, hBasic(t, 1/math.Sqrt2))
		paths[2].Y = append(paths[2].Y, hBasic(math.Sqrt(t), math.Sqrt(math.Max(0, 0.5-2*t))))
	}
	return s, paths
}
var answer001 = 0.0
func main() {
}
