//go:build js && wasm

package frontend

import (
	"fmt"
	"sync"
	"syscall/js"
)

// page is the live book's output sink: an object with a method
// display(kind, id, content) for kind "html", "update", "svg", "script" or
// "controls".
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

// Script runs JavaScript in the page (after the outputs sent so far).
func Script(js string) { send("script", "", js) }

// controls are the channels of the controls on the page by output id.
var controls = struct {
	sync.Mutex
	next  int
	chans map[string][]chan int
}{chans: map[string][]chan int{}}

// Controls shows HTML holding n controls (elements with the attribute
// data-sodlive-control="i", i from 0 to n-1) and returns, per control, a
// channel of its positions: the page calls globalThis.sodLiveControl(id,
// i, position) when the reader moves one. Only the latest position of a
// control waits in its channel.
func Controls(html string, n int) []<-chan int {
	controls.Lock()
	controls.next++
	id := fmt.Sprintf("sodlive_controls_%d", controls.next)
	chans := make([]chan int, n)
	out := make([]<-chan int, n)
	for i := range chans {
		chans[i] = make(chan int, 1)
		out[i] = chans[i]
	}
	controls.chans[id] = chans
	controls.Unlock()
	send("controls", id, html)
	return out
}

func init() {
	js.Global().Set("sodLiveControl", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 3 {
			return nil
		}
		controls.Lock()
		chans := controls.chans[args[0].String()]
		controls.Unlock()
		i, k := args[1].Int(), args[2].Int()
		if i < 0 || i >= len(chans) {
			return nil
		}
		for { // keep only the latest position
			select {
			case chans[i] <- k:
				return nil
			default:
				select {
				case <-chans[i]:
				default:
				}
			}
		}
	}))
}
