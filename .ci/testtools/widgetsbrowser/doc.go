// Package widgetsbrowser holds the browser tests of the widgets package:
// every chart of the gallery must draw in headless Chromium with the network
// disabled, in a standalone page (with and without an AMD loader), in
// nbconvert's HTML export of a notebook, in a notebook executed by the gonb
// kernel, and live in Jupyter, where a slider redraws its chart.
//
// They live in the test-tooling module (.ci/testtools) because they need
// chromedp, which the library does not. Screenshots and exported HTML are
// kept in widgets/testdata/out (git-ignored), inside the workbench's module,
// so that a notebook there finds the module by walking up. Environment:
//
//	SOD_REQUIRE_BROWSER=1  fail (instead of skip) when Chromium, Jupyter or gonb is missing
//	SOD_CHROMIUM=path      the Chromium/Chrome binary (default: chromium, chromium-browser, google-chrome on PATH)
//
// They take about a minute and a half on two cores (the two tests with the
// gonb kernel most of it); `go test -short` skips them unless
// SOD_REQUIRE_BROWSER=1. TestBrowserLiveExplorer, which drives a course
// notebook, runs only with the test flag -live.
package widgetsbrowser
