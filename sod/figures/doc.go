// Package figures turns the results of package sod and sod/experiments into
// the charts and tables of the paper "Escaping Local Minima Provably in
// Non-convex Matrix Sensing: A Deterministic Framework via Simulated
// Lifting" — one call per figure — for the workbench's notebooks. It is
// where the machinery that used to fill notebook cells lives: instance
// tables, chart builders, loops over cases. A function returning a
// widgets.Chart ends in Chart (several: Charts), one returning a
// widgets.Table in Table; the other names return data for widgets' types.
// Package widgets draws plain data and does not know the paper's results;
// this package does, and fills widgets' input structs from them, once per
// figure: the interactive chart (X.Chart) and the static figure (package
// widgets/plots) are drawn from the same value, e.g. StudySuccessRates for
// widgets.SuccessRates.Chart and plots.SuccessRatesPlot; an …Chart function
// is that value drawn interactively. Figures made of several static panels
// are in the subpackage staticfig, so that the cells showing interactive
// charts do not link gonum/plot.
//
// # The paper's figures and tables → API
//
// Before a semicolon: the function giving the figure's input (widgets'
// data, drawn by both renderings); after it: the same drawn interactively,
// and the tables.
//
//	Fig. basic_example (left, right)      BasicDistances, BasicTrajectories; …Chart (experiments.RunBasicFromStart)
//	                   (random starts)    BasicStartsChart (experiments.RunBasicExample)
//	Fig. quadratic_funcs                  QuadraticInequality; QuadraticInequalityChart (sod.SingleStep)
//	Fig. r1_r2                            InstanceEFSZones; EFSZonesCharts (sod.PaleyZygmund)
//	Fig. simulation                       Simulation; SimulationCharts (sod.CompareTPGD)
//	Fig. ablation                         AblationWindows; AblationWindowsChart (experiments.RunEscapeWindows / RunAblation)
//	Table ablation                        AblationTable, WindowsTable (experiments.RunAblation, paper.Ablation)
//	Fig. exp2, exp3 (a)–(c), (d)–(e), (f) CaseCurves, CaseLifted, CaseTrajectory (experiments.RunCaseStudy)
//	                six static panels     staticfig.CaseFigure (a package of its own: gonum/plot)
//	Fig. numerical_study (a)–(b), (c)–(d) StudySuccessRates, StudyBundle; SuccessRatesChart, StudyBundleChart (experiments.RunStudy)
//	Fig. quadratic_nn (a), (b)            QNNLosses; QNNLossesChart, QNNSummaryTable, QNNScanTable (experiments.RunQNN, RunQNNScan)
//
// And the notebooks' own figures and tables: EFSTable and
// EFSAgainstDeltaChart (single-step SOD on the paper's instances),
// SingleStepLineChart and CaseOneLandscapeChart (the certified interval, the
// Case 1 pitfall), RIPTable and DeltaSweepChart (RIP constants),
// SMomentsTable, PZCurve and PZCurveChart (Paley–Zygmund), LiftingCheckTable,
// ExplicitMemoryTable, LiftedAlongBChart and
// FirstStepGapTable (the lifted problem), DescentScanChart (does the escape point
// lower h?), VariantTable and VariantCurvesChart (escape variants),
// BenchMetricsTable, BenchMethodsTable, BenchRoundsTable (what the escape
// rounds accepted), BenchCurvesCharts and BenchBandCurves (median and
// inter-quartile band per method) and WriteBenchReport (the escape
// benchmark's tables, convergence bands and offline HTML report,
// sod/escapebench), and the live
// explorer of the escape windows (ExplorerControls, ExplorerChart).
// HGrid, GDPaths and PathFromIterates build landscapes of two-dimensional problems.
//
// Every function returns an error instead of panicking on bad input;
// notebooks wrap calls in must.M1 (github.com/janpfeifer/must) so that an
// error stops the cell loudly.
package figures
