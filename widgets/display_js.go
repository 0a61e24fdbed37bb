//go:build js && wasm

package widgets

// In the live book (the interpreter in the page's Web Worker) the page
// loads ECharts and ECharts-GL from the book's own copy of the npm bundle,
// so no chart output carries the libraries: they count as emitted.
func init() { emitted.lib = [numLibraries]bool{true, true} }

// pageAssets names where the live book's charts take ECharts from (see
// AssetsDir): the book's live/ folder, a copy of widgets/assets/node_modules.
func pageAssets() (string, bool) {
	return "live/ (the book's copy of widgets/assets/node_modules)", true
}
