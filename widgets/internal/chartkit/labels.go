package chartkit

import "fmt"

// The labels a figure prints, the same in its interactive chart (package
// widgets) and its static figure (package widgets/plots): each is written
// here once, so that the two renderings cannot drift apart.

// TAxis is the name of the simulated TPGD time axis (lifted objective, term
// norms, escape windows).
const TAxis = "TPGD steps t"

// LiftedAxis is the y axis of the lifted objective.
const LiftedAxis = "h^l(w̃(t))"

// TermNormAxis is the y axis of the term-norm panels.
const TermNormAxis = "Frobenius norm"

// ClosedForm and ExactPGD name the two computations of TPGD that the
// lifted-objective and term-norm figures draw side by side; ClosedFormPanel
// is the term-norm panel of the former.
const (
	ClosedForm      = "closed-form TPGD"
	ClosedFormPanel = "closed form"
	ExactPGD        = "exact PGD in S"
)

// TermNames are the names of the a-, b- and c-term norms, in the order of
// the fields of widgets.Terms.
var TermNames = [3]string{"‖α̃ a‖ (a-term)", "‖β̃ b‖ (b-term)", "‖γ̃ c‖ (c-term)"}

// Reference labels the reference level h^l(ŵ) of the lifted objective.
func Reference(v float64) string { return fmt.Sprintf("h^l(ŵ) = %.4g", v) }

// WindowNames are the legend names of the β- and γ-type escape windows, and
// EmptyWindow the suffix of a row's label when that window is empty.
var (
	WindowNames = [2]string{"U_β (β-type point)", "U_γ (γ-type point)"}
	EmptyWindow = [2]string{" (U_β = ∅)", " (U_γ = ∅)"}
)

// Unbounded marks an escape window that never closes.
const Unbounded = "→ ∞"

// ProbabilityAxis is the y axis of the probability curve.
const ProbabilityAxis = "probability"

// RadialAxis is the axis of the EFS zones, for the radius named rname.
func RadialAxis(rname string) string { return "R = " + rname + " (radial)" }

// ZoneFar and ZoneNear are the outer and inner zones of Theorem
// single-step-sod-formal, beyond r₂ and inside r₁.
func ZoneFar(r2 float64) string {
	return fmt.Sprintf("outside r₂ = %.4g: escape claimed certain", r2)
}

// ZoneNear is the zone inside r₁ (see ZoneFar).
func ZoneNear(r1 float64) string { return fmt.Sprintf("inside r₁ = %.4g: no escape", r1) }

// ZoneBand is the zone between r₁ and r₂.
const ZoneBand = "r₁ < R < r₂: P(EFS > 1) ∈ (0, 1)"

// RadiusNames are the marks of r₁ and r₂ on the probability curve.
var RadiusNames = [2]string{"r₁", "r₂"}

// SuccessAxis is the y axis of the success-rate bars.
func SuccessAxis(trials int) string { return fmt.Sprintf("success rate (%%, %d trials)", trials) }

// Count labels a bar with its successes out of the trials, e.g. "37/50".
func Count(k, trials int) string { return fmt.Sprintf("%d/%d", k, trials) }

// Threshold labels the success threshold of a bundle of runs.
func Threshold(v float64) string { return fmt.Sprintf("success threshold %g", v) }

// Coordinates are the default names of the three axes of a 3-D trajectory.
var Coordinates = [3]string{"x₁", "x₂", "x₃"}

// LogValue names the colour scale of a landscape drawn on log₁₀ values.
const LogValue = "log₁₀ value"
