//go:build !(js && wasm)

package widgets

// pageAssets reports that the assets are on disk (see display_js.go for the
// live book's).
func pageAssets() (string, bool) { return "", false }
