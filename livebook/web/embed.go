// Package web holds the live book's browser files: the page runtime
// (live.js, live.css, and load.js inlined in each page) and the Web Worker that runs the interpreter
// (worker.js, with its in-memory file system memfs.js).
package web

import "embed"

// Files are live.js, live.css, worker.js and memfs.js.
//
//go:embed live.js live.css worker.js memfs.js
var Files embed.FS

// Loader is load.js, which the book inlines into every page's <head> (it
// starts the interpreter's download before the page has parsed).
//
//go:embed load.js
var Loader string
