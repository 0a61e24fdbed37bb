// Package staticfig draws the paper's figures as static gonum/plot figures
// (SVG, PNG, PDF) for slides and papers, from the same data as the
// interactive charts of package figures:
//
//	Fig. exp2, exp3, panels (a)–(f) in one figure   CaseFigure (experiments.RunCaseStudy)
//	escape benchmark: ECDF, performance, data profiles   BenchProfileFigures
//	escape benchmark: median and inter-quartile bands    BenchBandFigure
//
// It is a package of its own so that the notebook cells that only show
// interactive charts do not link gonum/plot, its back ends and its fonts:
// only a cell that exports or shows a static figure imports it (with
// sodworkbench.org/workbench/widgets/plots, which saves and shows it).
package staticfig
