//go:build js && wasm

package frontend

import "syscall/js"

// page is the live book's output sink: an object with a method
// display(kind, id, content) for kind "html", "update" or "svg".
func page() js.Value { return js.Global().Get("sodLivePage") }

// IsNotebook reports whether the page's worker provides an output sink.
func IsNotebook() bool { return page().Truthy() }

// DisplayHTML appends an HTML output to the cell.
func DisplayHTML(html string) { send("html", "", html) }

// UpdateHTML shows html in the output with the given id, creating it the
// first time.
func UpdateHTML(id, html string) { send("update", id, html) }

// DisplaySVG appends an SVG image to the cell.
func DisplaySVG(svg string) { send("svg", "", svg) }

// Sync does nothing: the worker posts every output to the page at once.
func Sync() {}

func send(kind, id, content string) {
	if p := page(); p.Truthy() {
		p.Call("display", kind, id, content)
	}
}
