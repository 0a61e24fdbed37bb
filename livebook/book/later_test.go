package book_test

import (
	"bytes"
	"io/fs"
	"strings"
	"testing"

	"sodworkbench.org/workbench/livebook/book"
	"sodworkbench.org/workbench/livebook/web"
)

// TestInjectDefersLater checks that the kernel outputs' scripts in the
// body get book.LaterType (the head's and the page's own do not), that
// MathJax waits for live.js (skipStartupTypeset, the export's Typeset
// request removed) and that injecting again changes nothing more.
func TestInjectDefersLater(t *testing.T) {
	const mathJax = `<script type="text/x-mathjax-config">
    init_mathjax = function() {
        if (window.MathJax) {
            MathJax.Hub.Config({
                tex2jax: {}
            });

            MathJax.Hub.Queue(["Typeset", MathJax.Hub]);
        }
    }
    init_mathjax();
    </script>`
	loader := "<script type=\"text/javascript\">\n(function () {\n  var w = window.sodWidgets = window.sodWidgets || {};\n" +
		"  w.loading = w.loading || {};\n  var name = \"echarts\", global = \"echarts\", after = \"\";\n})();\n</script>\n"
	chart := "<script type=\"text/javascript\">\n(function () { var id = \"c1\"; })();\n</script>\n"
	head := `<html><head><meta charset="utf-8"><script type="text/javascript">var inHead = 1;</script>` + mathJax + `</head>`
	tests := []struct {
		name, page                    string
		later, plain, typeset, config int // LaterType scripts, text/javascript scripts, Typeset requests, skipStartupTypeset
		copies                        int // ECharts loaders
	}{
		{"outputs and MathJax", head + "<body>" + loader + chart + chart + "</body></html>", 3, 1, 0, 1, 1},
		{"no MathJax", "<html><head></head><body>" + chart + "</body></html>", 1, 0, 0, 0, 0},
		{"no scripts", head + "<body><p>text</p></body></html>", 0, 1, 0, 1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			once, err := book.Inject([]byte(tc.page), book.PageData{Wasm: book.WasmFile})
			if err != nil {
				t.Fatal(err)
			}
			twice, err := book.Inject(once, book.PageData{Wasm: book.WasmFile})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(once, twice) {
				t.Errorf("injecting again changed the page:\n%s\n----\n%s", once, twice)
			}
			s := string(once)
			for _, c := range []struct {
				what      string
				got, want int
			}{
				{"LaterType scripts", strings.Count(s, `<script type="`+book.LaterType+`">`), tc.later},
				{"text/javascript scripts", strings.Count(s, `<script type="text/javascript">`), tc.plain},
				// The export's, not the loader's (which typesets when live.js never ran).
				{"Typeset requests", strings.Count(strings.Replace(s, web.Loader, "", 1), `"Typeset"`), tc.typeset},
				{"skipStartupTypeset", strings.Count(s, "skipStartupTypeset: true"), tc.config},
				{"ECharts loaders", book.LibraryCopies(once)["echarts"], tc.copies},
			} {
				if c.got != c.want {
					t.Errorf("%s: %d, want %d", c.what, c.got, c.want)
				}
			}
		})
	}
}

// TestLaterTypeInRuntime holds the page runtime to book.LaterType: live.js
// runs the deferred scripts once the interpreter is ready (or cannot
// start), and load.js runs them when live.js never ran.
func TestLaterTypeInRuntime(t *testing.T) {
	live, err := fs.ReadFile(web.Files, "live.js")
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{"live.js": string(live), "load.js": web.Loader} {
		if !strings.Contains(src, `"`+book.LaterType+`"`) {
			t.Errorf("%s does not name book.LaterType %q", name, book.LaterType)
		}
	}
}
