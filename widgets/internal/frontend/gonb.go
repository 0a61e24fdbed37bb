//go:build !(js && wasm)

package frontend

import "github.com/janpfeifer/gonb/gonbui"

// IsNotebook reports whether the program runs as a notebook cell with a
// front end to show outputs in.
func IsNotebook() bool { return gonbui.IsNotebook }

// DisplayHTML appends an HTML output to the cell.
func DisplayHTML(html string) { gonbui.DisplayHTML(html) }

// UpdateHTML shows html in the output with the given id, creating it the
// first time.
func UpdateHTML(id, html string) { gonbui.UpdateHTML(id, html) }

// DisplaySVG appends an SVG image to the cell.
func DisplaySVG(svg string) { gonbui.DisplaySVG(svg) }

// Sync waits until the front end has received the outputs sent so far.
func Sync() { gonbui.Sync() }
