package main


import "math"



// 𝒜(xxᵀ) = (x₁² + x₂²/2, √3·x₁x₂, (√3/2)·x₂²) and b = 𝒜(e₁e₁ᵀ) = (1, 0, 0).
func hBasic(x1, x2 float64) float64 {
	r1 := x1*x1 + x2*x2/2 - 1
	r2 := math.Sqrt(3) * x1 * x2
	r3 := math.Sqrt(3) / 2 * x2 * x2
	return (r1*r1 + r2*r2 + r3*r3) / 2
}
func main() {
}
