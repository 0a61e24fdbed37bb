// Package figures turns the results of package sod and sod/experiments into
// the charts and tables of the paper "Escaping Local Minima Provably in
// Non-convex Matrix Sensing: A Deterministic Framework via Simulated
// Lifting" — one call per figure — for the workbench's notebooks. It is
// where the machinery that used to fill notebook cells lives: instance
// tables, chart builders, loops over cases. Package widgets draws plain
// data and does not know the paper's results; this package does, and fills
// widgets' input structs from them.
//
// # The paper's figures and tables → API
//
//	Fig. basic_example (left, right)      BasicDistances, BasicTrajectories (experiments.BasicFromStart)
//	                   (random starts)    BasicStarts (experiments.BasicExample)
//	Fig. quadratic_funcs                  QuadraticInequality (sod.SingleStep)
//	Fig. r1_r2                            EFSZones (sod.PaleyZygmund)
//	Fig. simulation                       Simulation (sod.CompareTPGD)
//	Fig. ablation                         AblationWindows (experiments.EscapeWindows / Ablation)
//	Table ablation                        AblationTable, WindowsTable (experiments.Ablation, PaperAblation)
//	Fig. exp2, exp3 (a)–(c), (d)–(e), (f) CaseCurves, CaseLifted, CaseTrajectory (experiments.CaseStudy)
//	                six static panels     CaseStatic
//	Fig. numerical_study (a)–(b), (c)–(d) SuccessRates, StudyBundle (experiments.RunStudy)
//	Fig. quadratic_nn (a), (b)            QNNLosses, QNNSummary, QNNScanTable (experiments.QNN, QNNScan)
//
// And the notebooks' own figures and tables: EFSTable and EFSAgainstDelta
// (single-step SOD on the paper's instances), SingleStepLine and
// CaseOneLandscape (the certified interval, the Case 1 pitfall), RIPTable
// and DeltaSweep (RIP constants), SMomentsTable and PZCurve
// (Paley–Zygmund), LiftingCheckTable, ExplicitMemoryTable, LiftedAlongB and
// FirstStepGapTable (the lifted problem), DescentScan (does the escape point
// lower h?), VariantTable and VariantCurves (escape variants), and the live
// explorer of the escape windows (ExplorerControls, ExplorerChart).
// HGrid, GDPaths and Path2D build landscapes of two-dimensional problems.
//
// Every function returns an error instead of panicking on bad input;
// notebooks wrap calls in must.M1 (github.com/janpfeifer/must) so that an
// error stops the cell loudly.
package figures
