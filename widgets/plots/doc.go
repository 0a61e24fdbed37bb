// Package plots draws the figures of package widgets as static gonum/plot
// figures for slides and papers: the paper "Escaping Local Minima Provably
// in Non-convex Matrix Sensing: A Deterministic Framework via Simulated
// Lifting", figure by figure, as SVG, PNG or PDF.
//
// Each input type X of package widgets (the data of one of the paper's
// figures) has its interactive chart X.Chart there and its static version
// here: the function XPlot returning a *plot.Plot, or XFigure returning a
// [Figure] of several aligned panels.
//
//	paper figure (LaTeX label)                  input (widgets)     static
//	exp2/exp3 (a)–(c), basic_example (left),
//	quadratic_nn, quadratic_funcs               Curves              CurvesPlot
//	basic_example (right): log landscape        Landscape           LandscapePlot
//	exp2/exp3 (f): 3-D trajectory, n = 3        Trajectory3D        Trajectory3DPlot (a fixed oblique view)
//	exp2/exp3 (d), simulation (a): h^l(w̃(t))    LiftedObjective     LiftedObjectivePlot
//	exp2/exp3 (e), simulation (b): term norms   TermNorms           TermNormsFigure
//	ablation (figure): U_β, U_γ on t axis       EscapeWindows       EscapeWindowsPlot
//	r1_r2: EFS zones (r₁, r₂ circles)           EFSZones            EFSZonesPlot
//	§ probabilistic escape: Paley–Zygmund vs MC ProbabilityCurve    ProbabilityPlot
//	numerical_study (a), (b): success rates     SuccessRates        SuccessRatesPlot
//	numerical_study (c), (d): 50 trajectories   Bundle              BundlePlot
//
// The input is the same value the interactive chart draws (package
// sod/figures fills it from a result), so the two renderings cannot drift
// apart. A figure is shown in a GoNB cell as SVG with [DisplayStatic], the
// one way to show a static figure (the other kinds of output are listed in
// package widgets' doc); it is written with [Save] (the format from the
// file's extension) or encoded with [Render]; sizes are a [Length], e.g. 16*plots.Centimeter, at most
// [MaxRenderSize]. [StaticGallery] draws every figure on the synthetic data
// of widgets.Gallery. The six panels of Figs. exp2 and exp3 in one figure
// come from sod/figures/staticfig.CaseFigure.
//
// This is a package of its own because gonum/plot, with its back ends and
// embedded fonts, is the largest part of what a notebook cell's program
// would otherwise link: the cells that only show interactive charts import
// widgets, which does not depend on gonum/plot, and only the cells that
// export or show a static figure import this package.
package plots
