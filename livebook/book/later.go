package book

import (
	"bytes"
	"regexp"
)

// LaterType is the type the book gives the kernel outputs' scripts (the
// chart libraries' loaders and each chart's initialisation): the browser
// does not run a script of an unknown type, so they take no time while the
// page loads, and live.js runs them (in document order, one per idle
// slice) once the page has shown its first output or its interpreter is
// ready; a library's loader runs at once when a live output needs it.
const LaterType = "text/x-sodlive-later"

// kernelScript is the start of a script element of the kernel's outputs
// (widgets' chart outputs, nbconvert's text/html outputs).
var kernelScript = []byte(`<script type="text/javascript">`)

// mathJaxTypeset is the export's MathJax configuration's request to
// typeset the page at start-up, and mathJaxConfig its configuration call.
var (
	mathJaxTypeset = regexp.MustCompile(`\n?[ \t]*MathJax\.Hub\.Queue\(\["Typeset", ?MathJax\.Hub\]\);`)
	mathJaxConfig  = []byte(`MathJax.Hub.Config({`)
)

// later defers the page's work on the main thread that its first output
// does not need: the kernel outputs' scripts in the body get LaterType,
// and MathJax typesets when live.js asks (skipStartupTypeset; the
// export's own Typeset request removed). A page without the export's
// MathJax configuration keeps its typesetting. later(later(p)) == later(p).
func later(page []byte) []byte {
	if i := bytes.Index(page, []byte("<body")); i >= 0 {
		body := bytes.ReplaceAll(page[i:], kernelScript, []byte(`<script type="`+LaterType+`">`))
		page = append(page[:i:i], body...)
	}
	if mathJaxTypeset.Match(page) && bytes.Count(page, mathJaxConfig) == 1 {
		page = mathJaxTypeset.ReplaceAll(page, nil)
		page = bytes.Replace(page, mathJaxConfig, []byte(`MathJax.Hub.Config({ skipStartupTypeset: true,`), 1)
	}
	return page
}
