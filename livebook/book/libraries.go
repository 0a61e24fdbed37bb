package book

import "regexp"

// libraryLoader is a <script> element by which a widgets chart output
// carries a chart library (widgets' compressed or plain loader): the
// library's name is the first submatch; the book's LaterType counts too. Every chart output of the kernel
// carries the libraries its cell had not shown yet, so a page whose cells
// draw charts carries one copy per such cell, of which the page runs only
// the first (each loader does nothing once the library is loading).
var libraryLoader = regexp.MustCompile(`(?s)<script type="(?:text/javascript|` + regexp.QuoteMeta(LaterType) + `)">\n` +
	`(?:\(function \(\) \{\n  var w = window\.sodWidgets = [^\n]*\n  w\.loading = [^\n]*\n  var name = "([\w-]+)", global = ` +
	`|if \(!\(window\["([\w-]+)"\]\)\) \{ \(function \(define, exports, module, require\) \{\n)` +
	`.*?</script>\n?`)

// dedupeLibraries keeps the first loader of each chart library in the page
// and removes the later ones, which would only be downloaded and parsed.
func dedupeLibraries(page []byte) []byte {
	seen := map[string]bool{}
	return libraryLoader.ReplaceAllFunc(page, func(m []byte) []byte {
		sub := libraryLoader.FindSubmatch(m)
		name := string(sub[1]) + string(sub[2])
		if seen[name] {
			return nil
		}
		seen[name] = true
		return m
	})
}

// LibraryCopies counts the loaders of each chart library in a page.
func LibraryCopies(page []byte) map[string]int {
	n := map[string]int{}
	for _, sub := range libraryLoader.FindAllSubmatch(page, -1) {
		n[string(sub[1])+string(sub[2])]++
	}
	return n
}
