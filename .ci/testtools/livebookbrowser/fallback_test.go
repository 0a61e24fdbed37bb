package livebookbrowser

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"sodworkbench.org/workbench/testtools/browsercheck"
)

// TestPageWithoutInterpreter opens the first page of the live book whose
// kernel outputs hold a chart while the server refuses part of the live
// runtime, and checks that the page still draws every chart of the
// kernel's outputs and typesets every formula, as the page before the
// book deferred them (book.LaterType): with the interpreter refused
// (live.js runs, the interpreter cannot start) and with the whole live/
// folder refused (live.js never runs; load.js does the work).
func TestPageWithoutInterpreter(t *testing.T) {
	dir := os.Getenv("SOD_LIVEBOOK")
	if dir == "" {
		t.Skip("set SOD_LIVEBOOK to a live book built by scripts/book.sh (scripts/test.sh builds one)")
	}
	if testing.Short() && os.Getenv("SOD_REQUIRE_BROWSER") != "1" {
		t.Skip("browser test skipped in -short mode")
	}
	chromium, err := browsercheck.FindChromium()
	if err != nil {
		need(t, "%v", err)
	}
	nbs, _ := filepath.Glob(filepath.Join(dir, "ipynb", "[0-9]*.ipynb"))
	name, want := "", 0
	for _, nb := range nbs {
		_, charts := kernelOutputs(t, nb)
		n := 0
		for _, c := range charts {
			n += c
		}
		if n > 0 {
			name, want = strings.TrimSuffix(filepath.Base(nb), ".ipynb"), n
			break
		}
	}
	if name == "" {
		t.Fatalf("no page of %s has a chart in its kernel outputs", dir)
	}
	bctx, cancel, err := browsercheck.Start(chromium, t.TempDir(), 5*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	files := http.FileServer(http.Dir(dir))
	for _, tc := range []struct {
		what    string
		refused func(path string) bool
	}{
		{"the interpreter refused", func(p string) bool { return strings.Contains(p, "/live/sodlive") }},
		{"the live runtime refused", func(p string) bool { return strings.HasPrefix(p, "/live/") }},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if tc.refused(r.URL.Path) {
				http.NotFound(w, r)
				return
			}
			files.ServeHTTP(w, r)
		}))
		tb := browsercheck.OpenTab(bctx)
		if err := chromedp.Do(tb.Ctx, chromedp.Navigate(srv.URL+"/"+name+".html")); err != nil {
			t.Fatalf("%s: %v", tc.what, err)
		}
		rep, err := tb.Inspect(30 * time.Second)
		if err != nil {
			t.Fatalf("%s: %v", tc.what, err)
		}
		for _, p := range rep.ChartProblems(want) {
			t.Errorf("%s, %s: %s", name, tc.what, p)
		}
		// Every formula typeset: MathJax replaces each math script's
		// preview with a rendered frame.
		math, err := chromedp.Run(tb.Ctx, chromedp.Poll[[]int](`(function () {
			var f = document.querySelectorAll('script[type^="math/tex"]').length;
			var done = document.querySelectorAll('[id^="MathJax-Element-"][id$="-Frame"]').length;
			return f > 0 && done >= f ? [f, done] : null; })()`, chromedp.WithPollingTimeout(30*time.Second)))
		if err != nil {
			t.Errorf("%s, %s: the math was not typeset within 30 s (%v)", name, tc.what, err)
		} else {
			t.Logf("%s, %s: %d charts drawn, %d of %d formulas typeset", name, tc.what, len(rep.Charts), math[1], math[0])
		}
		tb.Close()
		srv.Close()
	}
}
