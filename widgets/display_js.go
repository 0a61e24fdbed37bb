//go:build js && wasm

package widgets

// In the live book (the interpreter in the page's Web Worker) the page
// loads ECharts and ECharts-GL from the book's own copy of the npm bundle,
// so no chart output carries the libraries: they count as emitted.
func init() { emitted.lib = [numLibraries]bool{true, true} }
