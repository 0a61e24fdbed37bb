// Package web holds the live book's browser files: the page runtime
// (live.js, live.css) and the Web Worker that runs the interpreter
// (worker.js, with its in-memory file system memfs.js).
package web

import "embed"

// Files are live.js, live.css, worker.js and memfs.js.
//
//go:embed live.js live.css worker.js memfs.js
var Files embed.FS
