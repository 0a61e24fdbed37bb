// Package paper holds the values the paper
//
//	Escaping Local Minima Provably in Non-convex Matrix Sensing:
//	A Deterministic Framework via Simulated Lifting
//
// prints, as data, each typed once: the workbench's experiments take their
// settings from here, and its tests, figures, notebooks and reproduction
// report compare what they compute with these values. Nothing here is
// computed; the package depends on the standard library only.
//
// # Paper → data
//
//   - Appendix, Table "ablation" (Hyperparameter Analysis of l and t,
//     real-world case): Ablation, one AblationBlock per lifting order l with
//     ρ_min, U_β and U_γ (PrintedInterval) and the AblationEntry of every t
//     (its Window — the row "U" —, the distances, their ratio and the
//     Endpoint of GD, the row X_final); AblationBlockOf and AblationEntryAt
//     look one up; AblationRho and AblationEta are the ρ = η = 0.1 it fixes,
//     AblationOrders and AblationSteps its grid of l and t.
//   - Appendix, case study 2 and Fig. "exp3" (the real-world case):
//     RealWorldSettings, the settings of §6.1 with the printed spurious minimum
//     x̂, and RealWorldMatrices, the six printed sensing matrices.
//   - Appendix, case study 1 and Fig. "exp2" (perturbed matrix completion):
//     PMCSettings, the settings of §6.1, and PMCDelta with PMCDeltaFormula, the
//     RIP constant the paper quotes.
//   - §6.2, Fig. "numerical_study": SuccessStudy, the grid of the
//     success-rate study (a StudyGrid).
//
// A printed number is a Printed value: its digits exactly as typeset, so
// that a computed value can be compared at the paper's precision
// (Printed.Rounds), or one of the paper's marks, Undefined (✗¹) and Unstable
// (✗²).
package paper
