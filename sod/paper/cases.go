package paper

import "fmt"

// CaseSettings are the settings the paper prints for one of its two case
// studies (§6.1, "Two Case Studies"): the instance, its ground truth z and
// spurious point x̂ as printed, and the runs: GD with step Step for Before
// iterations, one multi-step SOD escape at lifting order L after T
// simulated TPGD steps, then After iterations more. What the paper does not
// state (the random seed, ρ and η of the escape) is not here.
type CaseSettings struct {
	N, Rank int
	// Eps is the perturbation ε of the PMC operator (0 for the real-world
	// case).
	Eps float64
	// Z is the ground-truth factor and XHat the spurious point, as printed
	// (each up to sign).
	Z, XHat [3]Printed
	// StartScale is ζ of the small initialisation x₀ = ζ·x̃, x̃ ~ N(0, I)
	// (0 where the paper states none).
	StartScale    float64
	Step          float64
	Before, After int
	L             int
	T             int64
}

// RealWorldSettings returns the settings of the real-world case (§6.1, Fig.
// "exp3"; Appendix, case study 2): n = 3, rank 1, z = (1, 0, 0), the pair of
// prominent local minima x̂ = ±(0.2234, 0.0918, 0.5985) of the Appendix,
// GD with step 0.1 for 100 steps before and 100 after an escape at l = 5,
// t = 150000. The digits of x̂ are the minimum's truncated, not rounded;
// Table "ablation" is computed at this point.
func RealWorldSettings() CaseSettings {
	return CaseSettings{N: 3, Rank: 1, Z: [3]Printed{"1", "0", "0"}, XHat: [3]Printed{"0.2234", "0.0918", "0.5985"},
		Step: 0.1, Before: 100, After: 100, L: 5, T: 150000}
}

// RealWorldMatrices returns the six symmetric 3×3 sensing matrices
// A_1, …, A_6 of the real-world case as printed (Appendix, eq.
// sensing-matrices-real-world, from Xu et al. 2024), each row-major. Each
// call returns a new copy.
func RealWorldMatrices() [][9]float64 {
	return [][9]float64{
		{0.0783, 0.2372, -0.0439, 0.2372, -0.0397, 0.1456, -0.0439, 0.1456, -0.4724},
		{0.0389, 0.0536, -0.0059, 0.0536, 0.4614, -0.3907, -0.0059, -0.3907, 0.2760},
		{0.0293, -0.1456, -0.1656, -0.1456, 0.3257, 0.2528, -0.1656, 0.2528, -0.0078},
		{0.0762, 0.3193, -0.3338, 0.3193, -0.3364, 0.5847, -0.3338, 0.5847, 0.1873},
		{-0.0889, 0.7089, 0.4472, 0.7089, 0.3788, 0.0902, 0.4472, 0.0902, -0.3193},
		{0.4097, 0.1190, 0.2078, 0.1190, 0.2282, -0.2274, 0.2078, -0.2274, 0.4046},
	}
}

// PMCSettings returns the settings of the perturbed matrix completion case
// (§6.1, Fig. "exp2"; Appendix, case study 1): n = 3, ε = 0.3, ground truth
// z = ±(1, 0, 1), spurious solution x̂ = ±(1, 0, −1), the small start
// x₀ = 0.01·x̃, GD with step 0.001 for 6000 iterations before and 1000
// after an escape at l = 11, t = 59000.
func PMCSettings() CaseSettings {
	return CaseSettings{N: 3, Rank: 1, Eps: 0.3, Z: [3]Printed{"1", "0", "1"}, XHat: [3]Printed{"1", "0", "-1"},
		StartScale: 0.01, Step: 0.001, Before: 6000, After: 1000, L: 11, T: 59000}
}

// PMCDelta is the RIP constant the paper quotes for the PMC operator of
// case study 1 (Appendix): δ_p ≈ (1−ε)/(1+ε), printed as 0.538 for ε = 0.3.
const PMCDelta Printed = "0.538"

// PMCDeltaFormula is the closed form the paper gives for PMCDelta,
// (1−ε)/(1+ε), for the PMC perturbation ε ∈ (0, 1]; another ε (NaN,
// infinite, ≤ 0 or > 1) is refused with an error naming it.
func PMCDeltaFormula(eps float64) (float64, error) {
	if !(eps > 0 && eps <= 1) {
		return 0, fmt.Errorf("paper: PMCDeltaFormula needs ε in (0, 1], got %v", eps)
	}
	return (1 - eps) / (1 + eps), nil
}

// StudyGrid is the grid of the success-rate study (§6.2, Fig.
// "numerical_study"): PMC instances of each size n and perturbation ε,
// Trials independent trials per cell, a trial succeeding iff the final
// ‖XXᵀ − M*‖_F < SuccessTol.
type StudyGrid struct {
	Sizes      []int
	Epsilons   []float64
	Trials     int
	SuccessTol float64
}

// SuccessStudy returns the grid of §6.2: n ∈ {40, 50, 60, 70, 80},
// ε ∈ {0.15, 0.10}, 50 trials, success iff ‖XXᵀ − M*‖_F < 0.02. Each call
// returns a new copy.
func SuccessStudy() StudyGrid {
	return StudyGrid{Sizes: []int{40, 50, 60, 70, 80}, Epsilons: []float64{0.15, 0.10}, Trials: 50, SuccessTol: 0.02}
}
