// Package widgets draws the experiments of the paper "Escaping Local Minima
// Provably in Non-convex Matrix Sensing: A Deterministic Framework via
// Simulated Lifting" in GoNB notebooks, with one call per figure.
//
// # Display plumbing
//
// Every chart is a go-echarts chart shown with [Display]: it is rendered as
// an HTML snippet (never a full page) into the cell output, with ECharts and,
// for 3-D charts, ECharts-GL inlined from the local npm assets in
// widgets/assets (pinned by its package-lock.json; see [AssetsDir]). No CDN
// is used, so notebooks and their nbconvert HTML exports work offline, with
// or without require.js on the page. [HTML] and [WritePage] give the same
// output as a string or as a standalone page.
//
// If the assets are missing, Display returns an error wrapping
// [ErrAssetsMissing] that says how to install them:
//
//	docker/install.sh --user            # or
//	npm ci --prefix widgets/assets
//
// # Charts
//
// Every chart is a function of plain input structs defined here (series of
// float64 slices, intervals, grids, trajectories), so experiments can fill
// them without this package importing the library. Values that cannot be
// drawn (NaN, ±Inf, non-positive values on a log axis) are left out as gaps
// and counted in the chart's subtitle rather than dropped silently.
//
//   - [LineChart]: several named series against a shared x axis.
package widgets
