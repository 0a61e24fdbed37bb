// Package escapebench measures escape methods for spurious local minima of
// matrix sensing (the paper's problem P1, section 1.1) the way benchopt
// measures convex solvers: many certified spurious points × every method ×
// repeated seeded trials, with success rates and their error bars, oracle
// cost and convergence curves.
//
// # Concepts → API (one file each)
//
//   - certificate.go — a certified spurious second-order point (section 3):
//     Certify checks ‖∇h(X̂)‖_F ≤ Tol, λ_min(∇²h(X̂)) ≥ −Tol,
//     ‖X̂X̂ᵀ − M*‖_F ≥ MinDist (0.02, the paper's success threshold of
//     section 6.2) and that X̂ is not a zero of h away from M*, nor on
//     the way to one: h(X̂) > RelH·h(0) (10⁻⁶) and 2000 more gradient
//     steps from X̂ lower h by less than 10 % (a point that keeps
//     descending is dropped with the reason), and returns a Certificate (gradient norm, smallest
//     Hessian eigenvalue, h, distance, Kind). λ_min comes from the dense
//     Hessian (sod.Problem.Hessian) at small nr and from Lanczos on
//     Hessian–vector products (sod.HessianMinEig) above
//     CertifyOptions.DenseMax, never forming the nr×nr matrix there. Kind
//     (a PointKind) is StrictLocalMin only when λ_min > Tol: a
//     second-order point need not be a local minimum (the basic example's
//     X̂ is a degenerate saddle, DegenerateSecondOrder).
//   - family.go, families.go — instance families: a Family generates
//     seeded, deterministic StallPoints (problem + X̂ where gradient descent
//     stalled); Instances certifies them into CertifiedInstances and lists
//     the Dropped ones with the reason. Built in: PaperFamily (the paper's
//     three instances of section 6.1, sod.PaperInstances, at the spurious
//     point GD converges to from the printed X̂), PMCFamily (perturbed
//     matrix completion, Appendix case 1, over cells (n, ε) — PMCCell, with
//     fewer points at large n — on sod's structured path, from the
//     success-rate study's start or sign-pattern starts, PMCStart),
//     PMCRankFamily (the same at truth and search rank r ≥ 2, cells
//     n:ε:rK, with a weak column in the truth, since at equal columns
//     wrong signs rotate away), GaussianFamily (the Gaussian ensemble of
//     section 4.3 over cells (n, m, r), GaussianCell, each point the
//     first of Tries draws that stalls away from M*: spurious points are
//     rare and disappear near m ≈ 2.5nr), NoisyGaussianFamily (the same
//     draws with measurement noise e_i ~ N(0, σ²), M* the reference
//     minimum that gradient descent reaches from the truth, success and
//     certificate measured to it) and FuncFamily (a user family from a Go
//     function).
//   - method.go — a Method is a name, its parameters (recorded with every
//     result, read back from the escaper that ran: sod.EscaperParams of
//     its settings table) and a constructor of a fresh sod.Escaper per
//     run.
//     BuiltinMethods: every sod escaper (single-step SOD, section 4;
//     multi-step SOD, section 5; SOD line search, section 6.3; exact
//     subspace SOD; perturbed GD; random and negative-gradient line
//     searches) and the baselines "gd-alone" and "random-restart";
//     EscaperMethod wraps a user escaper; ConfigurableMethod one with a
//     table of settings (sod.Configurable, entries by sod.NewParam), whose
//     name then takes settings and grids as a built-in method's does. A
//     deterministic method (not Seeded) runs once per instance: repeated identical runs would make
//     its interval falsely narrow. A method with MaxN is not run on larger
//     instances (single-step and exact subspace SOD need n×n arrays, so
//     stop at n = sod.MaxDenseSize); the paper's multi-step SOD takes the
//     instance's (l, t) where the paper gives one, else its zero value
//     (l = sod.DefaultLiftingOrder, t from sod.AutoT(1) per point); the
//     SOD line search scans
//     t = 10^0 … 10^12.
//   - exec.go — a method in any language: ExecCommand runs an external
//     program (one process per run) that speaks the versioned protocol of
//     PROTOCOL.md (ExecProtocol; JSON lines over its stdin and stdout):
//     the benchmark describes the instance, serves every oracle call (h,
//     ∇h, Hessian–vector products, the critical-point analysis) on the
//     run's counted problem, so its costs are counted like a built-in
//     method's, and takes the program's candidates. A program that
//     crashes, hangs, floods or breaks the protocol ends its own run with
//     the reason (ErrExternalMethod, ExecLimits), never the suite.
//     Reference clients: clients/python (NumPy) and the Go package
//     execclient, each with an example escape (negcurv).
//   - cost.go, trial.go — RunTrial runs one method once (TrialOptions: GD
//     budget, escape rounds, success distance, the ladder of targets) with
//     sod.RunEscape
//     on a counted copy of the problem (sod.Problem.WithCounter): the Cost
//     (evaluations of h, of ∇h, Hessian–vector products, eigen-solves, and
//     the run's CPU time) has no global state, so parallel workers count
//     apart, and the trace holds h and ‖XXᵀ − M*‖_F against gradient
//     evaluations (TracePoint); each escape round is recorded
//     (EscapeRound: candidates proposed, the one accepted with its label,
//     and for SOD's its kind β or γ, line and t); SummarizeRounds counts
//     them per family and method (accepted kinds and lines, t median and
//     range; an external method's kind is not reported by the protocol). Counting costs under 1 % of a gradient
//     descent step at n = 80 and n = 10⁴ (BenchmarkGDCountingRatio).
//   - The cost unit. Every cost of a report is in ∇h-equivalents: one
//     evaluation of h and ∇h together is 1, and an evaluation of h alone,
//     a Hessian–vector product and an eigen-solve count at their relative
//     costs measured on the benchmark's instances (CostWeights,
//     DefaultCostWeights: 0.75, 8 and 300; BenchmarkOracleCosts in
//     cost_test.go measures them), with the measured CPU time of the runs
//     beside it. The runs store raw counts, so other weights redo a report.
//   - targets.go — the ladder of targets (Target, DefaultTargets: the
//     distance to M* halved, divided by ten and below the success
//     threshold 0.02; h divided by 2, 10², 10⁴, 10⁸): each run records
//     the oracle counts at its first hit of each (TrialResult.Hits).
//   - profiles.go — Analyze: per family and method, COCO's average
//     runtime aRT to each target (failed runs charged in full, divided by
//     the runs that reached it), the ECDF of the runtime to target over
//     (instance, trial, target) triples, the Dolan–Moré performance profile
//     and the Moré–Wild data profile against the virtual best method, the
//     instance × method matrix and McNemar's paired test against the
//     method that solves most instances (FamilyAnalysis).
//   - features.go — Features of each instance, stored with it: the exact
//     minimum of h on the β and γ lines relative to h(X̂), EFS(0),
//     λ_min(∇²h), the δ lower bound 1 − 2h/d² and the distance to M*:
//     what explains why a method fails (the β and γ lines of every SOD
//     candidate do not go below h(X̂) on Gaussian sensing).
//   - judge.go — the two rules by which a run accepts a candidate (Judge:
//     raw-h, the paper's; gd-probe, after a gradient descent phase), named
//     in every result; WithJudge sets a method beside the same method
//     judged the other way ("sod-line-search+probe").
//   - grid.go — a method's settings in its name ("sod-line-search+l-3")
//     and grids of them (ExpandMethodGrid "sod-line-search:l=3,5,7",
//     ResolveMethod), each setting a method of its own: the text is
//     resolved once, by the escaper's settings table (sod.Configure), into
//     a configuration every run copies, and the method is named
//     canonically, so two spellings of one configuration are one method.
//   - env.go — Env, the environment (version, Go, CPU, GOMAXPROCS, date)
//     that every result file carries.
//   - metrics.go — Summarize gives per (family, method) the success rate
//     with its 95 % Wilson interval (Wilson) over runs and, since runs on
//     one instance are not independent, the per-instance view (instances
//     escaped by at least one run, by every run, with the Wilson interval
//     over instances; a method whose runs agree on every instance, all
//     succeeding or all failing, gets the interval over instances as its
//     interval, Summary.RunsAgree, marked ‡ in the summary page: repeated
//     runs that do not vary add no information), median and 90th percentile
//     (Quantile) of gradient evaluations and CPU time to success, the share
//     of escape rounds whose accepted point lowered h, and the convergence
//     band (Curve: median, quartiles and 10–90 % of ‖XXᵀ − M*‖_F against gradient
//     evaluations).
//   - suite.go, run.go — RunSuite(ctx, suite, RunOptions{…}) runs a Suite
//     (families × methods × trials) on parallel workers (a batch.ForEach
//     pool), or one shard k/N of it (RunOptions.Shard, a batch.Shard); the
//     runs come back in one Canonical order, so one run, a resumed run and
//     merged shards give the same bytes.
//   - journal.go — the Journal file: RunSuite appends each finished run at
//     once (CreateJournal; ResumeJournal continues an interrupted run
//     without redoing work), ReadJournal reads it back and MergeJournals
//     combines the journals of the N shards; its header records the format
//     (JournalFormat) and the environment of the shard's machine
//     (ShardEnvs, kept by a merge's timings, summary and pages).
//   - instancesfile.go — bench-instances.json: InstanceInfo (with n, r, m,
//     ε, the seeds and X̂), WriteInstancesJSON and ReadInstancesJSON
//     (InstancesFormat).
//   - validate.go — every file is read as an argument is checked: a path
//     that is not a regular file (a FIFO, a device, a directory) is refused
//     before it is opened, JSON must be one value in the writer's spelling
//     (no key twice, no unknown key, nothing after it), and what is read
//     must be what a writer writes (validateRun for runs, with a run twice
//     with different results refused; InstanceInfo's shapes and ranges);
//     the analyses refuse runs with impossible numbers the same way. Each
//     reader has a fuzz target whose property is the round trip.
//   - symmetry.go — SymmetryClasses: instances equal up to the problem's
//     symmetry, which the paired tests count once.
//   - spec.go — a Spec names a suite of built-in families and methods
//     (serialisable: a journal's header): DefaultSpec is the benchmark of
//     RESULTS.md, QuickSpec a suite of a few seconds, LargeSpec the large
//     profile (PMC up to n = 10⁵), ProfileSpec one by name; Spec.Suite builds it,
//     with your own methods by name, and Spec.Settings lists it in words.
//   - output.go — JSON and CSV of the runs (WriteResultsJSON,
//     WriteResultsCSV: no timing in them, hence deterministic), the timings
//     (WriteTimingsCSV), and the summaries (WriteSummaryTable,
//     WriteSummaryJSON, WriteSummaryMarkdown); Outputs computes summaries
//     and analyses once and lists the files (Outputs.Files).
//     The writers take runs in canonical order and do not sort them again;
//     Summarize runs once and its result goes to every writer.
//   - instancespage.go — WriteInstancesPage, the markdown page of a
//     suite's instances alone (GenerateInstances, in run.go): the families
//     table and every certificate, with the time, CPU and load
//     (RESULTS-large.md).
//   - summarypage.go — WriteSummaryPage, the markdown results page (the
//     suite, the instances, the families' cells with the extremes of their
//     certificates (familytable.go), the instances' features, an at-a-glance table of
//     success and aRT, the measured time, aRT to every target, the paired
//     comparisons, the environment; RESULTS.md).
//   - progressline.go — ProgressLine, RunSuite's progress on a terminal.
//
// # Benchmark or variant comparison
//
// Package sod/experiments' RunVariantComparison (notebook 10) runs each
// escape variant once from a few given points (by default the paper's
// three case studies with their exact RIP constant) and returns every run
// in full, trajectory and candidates included: a view for prototyping a
// variant and seeing what it does. RunSuite measures: success rates with
// their 95 % intervals, oracle cost and convergence bands over many
// certified spurious points and seeded trials, resumable and sharded, to
// compare methods (notebook 11).
//
// The command `reproduce bench` (sod/cmd/reproduce) parses its flags into
// a Spec and runs it, with -shard k/N and `reproduce bench merge`:
// -profile default is the benchmark of RESULTS.md (generated by
// `go run ./sod/cmd/reproduce bench -workers 2 -out bench-out -results-md sod/escapebench/RESULTS.md`),
// -profile quick a suite of a few seconds, -profile large PMC up to
// n = 10⁵ (hours per core). -instances-only generates and certifies a
// suite's instances and runs no method (GenerateInstances,
// WriteInstancesPage): the large profile's are in RESULTS-large.md,
// generated by
// `go run ./sod/cmd/reproduce bench -profile large -instances-only -out bench-large -results-md sod/escapebench/RESULTS-large.md`,
// and re-certified from their definition by
// `SOD_BENCH_INSTANCES=bench-large/bench-instances.json go test ./sod/escapebench -run TestInstancesFileCertifiedIndependently -v`.
// The large profile's runs, `go run ./sod/cmd/reproduce bench -profile
// large -workers 2 -out bench-large`, cost as a guide 60 to 200 times the
// time of its instances on one core (a run at n = 10⁵ is one to four
// gradient descent phases of up to 3·10⁶ steps, a random restart about
// 15, 3 trials, where finding the point took about 10⁶ steps), and each
// invocation finds the instances again first.
// `-method 'exec:PROGRAM [ARG…]'`
// adds an external method (exec.go, PROTOCOL.md), and a main of a few
// lines, sodworkbench.org/workbench/sod/reproducecli's Main with your
// Method, gives a Go method the whole command.
package escapebench
