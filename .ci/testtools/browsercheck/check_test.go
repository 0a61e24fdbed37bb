package browsercheck

import (
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestErrorsExcept: an allowed message must match the URL and the text of
// an entry together; other exceptions and console errors are failures, and
// other message types are ignored.
func TestErrorsExcept(t *testing.T) {
	lsp := Allow{URL: "/lsp/status", Text: "404", Name: "lsp"}
	toc := Allow{URL: "packages_notebook_lib", Text: "reading 'type'", Name: "toc"}
	msg := func(typ chromedp.ConsoleType, url, text string) chromedp.ConsoleMessage {
		return chromedp.ConsoleMessage{Type: typ, URL: url, Text: text}
	}
	tests := []struct {
		name    string
		m       chromedp.ConsoleMessage
		failure bool
		counted int // index into the allow list, or -1
	}{
		{"allowed 404", msg(chromedp.ConsoleError, "http://h/lsp/status?1", "Failed to load resource: 404 (Not Found)"), false, 0},
		{"other 404 at the same URL part", msg(chromedp.ConsoleError, "http://h/lsp/status?1", "500 (Internal Server Error)"), true, -1},
		{"404 elsewhere", msg(chromedp.ConsoleError, "http://h/api/contents", "404 (Not Found)"), true, -1},
		{"allowed exception", msg(chromedp.ConsoleException, "http://h/static/lab/packages_notebook_lib_index_js.1.js", "TypeError: Cannot read properties of undefined (reading 'type')"), false, 1},
		{"same text from our output", msg(chromedp.ConsoleException, "http://h/lab/tree/05.ipynb", "TypeError: Cannot read properties of undefined (reading 'type')"), true, -1},
		{"warning", msg(chromedp.ConsoleWarning, "http://h/x.js", "deprecated"), false, -1},
	}
	allowed := []Allow{lsp, toc, {}} // an empty entry matches nothing
	for _, tc := range tests {
		rep := Report{Messages: []chromedp.ConsoleMessage{tc.m}}
		errs := rep.ErrorsExcept(allowed)
		if got := len(errs) > 0; got != tc.failure {
			t.Errorf("%s: failure = %v (%q), want %v", tc.name, got, errs, tc.failure)
		}
		want := make([]int, len(allowed))
		if tc.counted >= 0 {
			want[tc.counted] = 1
		}
		if got := rep.Allowed(allowed); !slices.Equal(got, want) {
			t.Errorf("%s: Allowed = %v, want %v", tc.name, got, want)
		}
	}
}

// TestErrorsLegacy: Errors with plain strings lets a message through when
// its URL or its text contains one of them.
func TestErrorsLegacy(t *testing.T) {
	rep := Report{Messages: []chromedp.ConsoleMessage{
		{Type: chromedp.ConsoleError, URL: "https://cdn.jsdelivr.net/x.js", Text: "net::ERR_NAME_NOT_RESOLVED"},
		{Type: chromedp.ConsoleError, URL: "http://h/page", Text: "MathJax failed"},
		{Type: chromedp.ConsoleException, URL: "http://h/page", Text: "ReferenceError: echarts is not defined"},
	}}
	errs := rep.Errors([]string{"cdn.jsdelivr.net", "MathJax", ""})
	if len(errs) != 1 || !strings.Contains(errs[0], "echarts is not defined") {
		t.Errorf("Errors = %q, want only the ReferenceError", errs)
	}
}
