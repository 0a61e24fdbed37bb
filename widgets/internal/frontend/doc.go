// Package frontend is where the widgets' outputs go: the notebook front end
// of the current cell. Under GoNB (every build but js/wasm) it is gonbui,
// which talks to the Jupyter kernel; in the live book (GOOS=js
// GOARCH=wasm, the interpreter in the page's Web Worker) it is the page,
// reached through the JavaScript object globalThis.sodLivePage that the
// worker provides. The widgets call only this package, so that their
// charts, tables and controls work in both.
package frontend
