// Package reproduction computes the workbench's reproduction report of the
// paper "Escaping Local Minima Provably in Non-convex Matrix Sensing: A
// Deterministic Framework via Simulated Lifting" and writes it as Markdown:
// every value the paper prints that the workbench reproduces or refutes,
// beside the paper's printed value (package sod/paper), with a verdict, then
// the conventions the workbench assumes and the places where the paper's
// claims do not hold.
//
// Compute first, then render:
//
//	r, err := reproduction.Compute(ctx, reproduction.Options{}) // every section, a few seconds
//	...
//	err = r.WriteMarkdown(w) // the report as committed in notebooks/REPRODUCTION.md
//
// The committed notebooks/REPRODUCTION.md is exactly WriteMarkdown's output
// (RegenerateCommand rewrites it; a test of this package fails when it is
// stale). Report holds plain data, one field per section; each row's
// verdict is a bool of that data, which the report words as a Status
// (Reproduces, Differs, Fails, NotPrinted) and counts per section
// (Report.Summary).
//
// The sections and where they are in the paper:
//
//	Section              Report field  the paper
//	SectionRealWorld     RealWorld     real-world case (Appendix, case study 2; Fig. exp3): x̂, m, λ_n, σ_r,
//	                                   ⟨E, u_nu_nᵀ⟩, Ξ², δ, EFS, the multi-step theorem's conditions, the escape
//	SectionAblation      Ablation      the ablation table (Appendix): ρ_min, U_β, U_γ and every (l, t) cell
//	SectionPMC           PMC           perturbed matrix completion (Appendix, case study 1; Fig. exp2)
//	SectionBasic         Basic         the basic example (§1.1, eq. basic_example; Fig. 2)
//	SectionSingleStep    SingleStep    single-step SOD, the Case 1 recipe (§4.2)
//	SectionPaleyZygmund  PZ            the moments of S and the Paley–Zygmund bound (§4.3)
//	SectionStudy         Study         the success-rate study (§6.2, Fig. numerical_study)
//	SectionQNN           QNN           the quadratic network on Iris (§6.3, Fig. quadratic_nn)
//
// Options.Sections computes some sections only (a notebook cell that wants
// one table's values); WriteMarkdown needs them all.
//
// Every value comes from packages sod and sod/experiments run afresh with
// fixed seeds, so the report is deterministic. The numbers are written by
// format.go (true minus signs, the paper's typesetting of printed numbers,
// two more digits than the printed value beside it); the wording is the
// embedded templates report.md.tmpl (the value tables) and report_text.md
// (conventions and findings). Text that is not a formatted number (a
// condition's name, an escape kind, an interval) is escaped for Markdown
// where it is inserted.
package reproduction
