// Package widgets draws the experiments of the paper "Escaping Local Minima
// Provably in Non-convex Matrix Sensing: A Deterministic Framework via
// Simulated Lifting" in GoNB notebooks, with one call per figure; its
// subpackage widgets/plots exports the same figures as static SVG, PNG or
// PDF files.
//
// # Charts and the paper's figures
//
// Every chart is a function of plain input structs defined here (float64
// slices, intervals, grids, trajectories), so the experiments can fill them
// without this package importing the library. Each input type X is a noun
// (the data, including what the chart shows: title, axis names, log
// scales); its interactive ECharts version is the method X.Chart and its
// static gonum/plot version the function plots.XPlot returning a
// *plot.Plot, or plots.XFigure returning a plots.Figure of several aligned
// panels. Both read the same value, so a figure has one path from a result
// to either rendering: package sod/figures fills X from a result, X.Chart
// draws it here, plots.XPlot draws it there. The only [Option]s are how an
// interactive chart is presented ([Size], [Subtitle]).
//
// # Showing a figure: one call
//
// In a notebook every chart, table, static figure and widget is shown with
// [Show], which takes all the results of a figure's builder at once:
//
//	widgets.Show(figures.SuccessRatesChart(res, 0.15, "(a)")) // a chart and its error
//	widgets.Show(figures.EFSZonesCharts(insts))              // a table, charts and an error
//	widgets.Show(figures.WindowsTable(res))                  // a table alone
//	widgets.Show(curves, landscape)                          // inputs: their X.Chart is shown
//	widgets.Show(plots.AtSize(fig, w, h), err)               // a static figure at a size
//	widgets.Show(widgets.Explore(ctx, controls, draw))       // live controls (their error)
//
// Like GoNB's own display functions it returns nothing; unlike them it
// never drops an error: a failed figure writes its error to standard error
// (a line starting with [ShowErrorPrefix], which GoNB shows in red and the
// notebook harness fails on) and a red box in place of the figure, and the
// rest of the cell runs. No error helper is needed around a figure.
//
// # Kinds of output and their entry points
//
//	chart          any X.Chart, or any go-echarts chart    Show(c) (a program: Display(c), which returns the error)
//	table          Table (e.g. figures.AblationTable)      Show(t) (a program: DisplayTable(t))
//	static figure  plots.XPlot, plots.XFigure (gonum/plot) Show(plots.AtSize(s, width, height)) (a program: plots.DisplayStatic)
//	live controls  a chart redrawn as sliders move         Show(Explore(ctx, controls, draw))
//	progress       a bar updated in place                  NewProgressBar(title, total)
//
// Outside a notebook the same functions build the output (reporting any
// error) and show nothing; [HTML], [Page] and [WritePage] (charts and
// tables), plots.Render and plots.Save (static figures) give the output as
// HTML or as a file instead.
//
//	paper figure (LaTeX label)                  input               interactive              static (package plots)
//	exp2/exp3 (a)–(c): h, ‖∇h‖_F, ‖XXᵀ−M*‖_F      Curves              Curves.Chart             CurvesPlot
//	basic_example (left): distance to M*        Curves              Curves.Chart             CurvesPlot
//	basic_example (right): log landscape        Landscape           Landscape.Chart          LandscapePlot
//	exp2/exp3 (f): 3-D trajectory, n = 3        Trajectory3D        Trajectory3D.Chart (GL)  Trajectory3DPlot
//	exp2/exp3 (d), simulation (a): h^l(w̃(t))    LiftedObjective     LiftedObjective.Chart    LiftedObjectivePlot
//	exp2/exp3 (e), simulation (b): term norms   TermNorms           TermNorms.Chart          TermNormsFigure
//	ablation (figure): U_β, U_γ on t axis       EscapeWindows       EscapeWindows.Chart      EscapeWindowsPlot
//	r1_r2: EFS zones (r₁, r₂ circles)           EFSZones            EFSZones.Chart           EFSZonesPlot
//	§ probabilistic escape: Paley–Zygmund vs MC ProbabilityCurve    ProbabilityCurve.Chart   ProbabilityPlot
//	numerical_study (a), (b): success rates     SuccessRates        SuccessRates.Chart       SuccessRatesPlot
//	numerical_study (c), (d): 50 trajectories   Bundle              Bundle.Chart             BundlePlot
//	quadratic_nn: QNN training losses           Curves              Curves.Chart             CurvesPlot
//	quadratic_funcs: the quadratic in ρ̂         Curves (LogY off)   Curves.Chart             CurvesPlot
//	table:ablation (Appendix)                   Table               DisplayTable, Table.HTML (rows: figures.AblationTable)
//
// The closed-form TPGD curves and exact projected gradient descent in
// S = span{a, b, c} are drawn side by side (LiftedObjective.Exact,
// TermNorms.Exact) because they differ (REPRODUCTION.md F10); the ablation table shows
// the paper's printed value under ours and highlights a cell when the two
// differ at the printed digits.
//
// Values that cannot be drawn (NaN, ±Inf, and values ≤ 0 on a log axis) are
// left out as gaps and counted in the chart's subtitle (title for static
// plots) rather than dropped silently; bad input (mismatched lengths,
// empty data, impossible radii or counts) is an error, never a panic.
// [Gallery] (and plots.StaticGallery) build every chart on small synthetic
// data ([NewGalleryData]).
//
// # Why the static figures are a package of their own
//
// GoNB builds every cell as a program with all the notebook's imports and
// links it before it runs. gonum/plot brings its PNG, PDF and SVG back ends
// and a dozen embedded fonts, which made a program importing widgets about
// twice as costly to build and link as one importing go-echarts alone. This
// package therefore does not import gonum/plot (a test checks it, with the
// other packages a chart cell imports); only a cell that exports or shows a
// static figure imports widgets/plots. What both renderings share (the
// colour cycles, which values an axis can draw, the checks of each input
// type: Curves.Validate, EFSZones.Frame, ...) is defined once, here or in
// widgets/internal/chartkit.
//
// # Display plumbing
//
// [Display] renders a go-echarts chart (any of the above, or any chart built
// with go-echarts directly) as an HTML snippet — a <div> and a script, never
// a full page — into the GoNB cell output and calls gonbui.Sync. ECharts
// 5.6.0, and ECharts-GL 2.1.0 for 3-D charts only, are inlined from the
// local npm assets in widgets/assets (pinned by its package-lock.json and
// found by [AssetsDir]); no CDN is used, so notebooks and their nbconvert
// HTML exports work offline. Because GoNB runs each cell as a new program,
// the library is inlined in the first chart output of each cell and the
// browser evaluates it only once per page. It is inlined gzip-compressed
// (0.45 MB, plus 0.23 MB when the cell has a 3-D chart; the browser unpacks
// it with DecompressionStream), or as plain JavaScript (1.03 MB + 0.64 MB)
// when [CompressLibrary] is false. While it evaluates, define, exports,
// module and require are hidden, so require.js (Jupyter Notebook 6,
// nbconvert's HTML) cannot capture it. Every display
// gets a fresh DOM id, so re-running a cell works. [HTML] and [Page] give
// the same output as a string or a standalone page.
//
// Text taken from data — titles, axis, series and point names, legend
// entries, table captions, headers and cells, control labels, page titles —
// is always shown as text: it is HTML-escaped where it goes into markup,
// and a chart's option is encoded as JSON with <, > and & escaped, so that
// "</script>" or "<!--" in a name cannot end or disturb the chart's script.
// Only the JavaScript functions the program itself puts into an option
// (go-echarts' FuncOpts) are inserted as code. [GalleryWithText] builds
// every chart and table with one text in all their text fields, for the
// tests that check this in a browser.
//
// If the assets are missing, Display returns an error wrapping
// [ErrAssetsMissing] that says how to install them:
//
//	scripts/install.sh --user            # or
//	npm ci --prefix widgets/assets
//
// # Live controls and progress
//
// [Explore] shows GoNB sliders and selects (for l, t, ρ, η, the case) and
// redraws a chart when they move. GoNB widgets need a live browser and block
// under nbconvert: tag such cells with [LiveOnlyTag] ("live-only"); the
// notebook harness skips them in headless runs. [NewProgressBar] shows a
// progress bar for long cells, updated in place in one output.
//
// # Tests
//
// The browser tests (.ci/testtools/widgetsbrowser, in the test-tooling
// module, since chromedp is theirs alone) load every chart in headless
// Chromium with the network disabled: as a standalone page (plain, under a
// fake AMD loader and under require.js, plus a control page that must fail),
// in nbconvert's HTML export, in a notebook executed by the gonb kernel, and
// in a live Jupyter Notebook 6 where a slider is moved and the chart must
// change. They check from the DOM and from screenshots that every chart drew
// and that no script failed, and keep a PNG screenshot in testdata/out
// (git-ignored). They skip when Chromium, Jupyter or gonb is missing, or
// under -short, and fail instead when SOD_REQUIRE_BROWSER=1. With the test
// flag -live, TestBrowserLiveExplorer also drives the live-only explorer of
// notebook 07 (case select, sliders for l, t, ρ, η) in a server started by
// scripts/notebook.sh. The same checks run on any exported notebook with the
// chartcheck command:
//
//	go -C .ci/testtools run ./cmd/chartcheck [-shots dir] ../../out/book/*.html
package widgets
