//go:build js && wasm

package widgets

import (
	"fmt"
	"strings"

	"sodworkbench.org/workbench/widgets/internal/frontend"
)

// showControls shows Explore's controls in the live book's page: an HTML
// range input per slider and a select per option list, each under its
// label (a value in the element labelIDs[i]); the page sends their
// positions back (frontend.Controls).
func showControls(controls []Control, pos []int, labelIDs []string) []<-chan int {
	var b strings.Builder
	for i, c := range controls {
		b.WriteString(controlLabelHTML(c.Name, labelIDs[i], c.format(pos[i])))
		if len(c.Options) > 0 {
			fmt.Fprintf(&b, `<select data-sodlive-control="%d">`, i)
			for j, o := range c.Options {
				sel := ""
				if j == pos[i] {
					sel = " selected"
				}
				fmt.Fprintf(&b, `<option value="%d"%s>%s</option>`, j, sel, escapeHTML(o))
			}
			b.WriteString("</select>")
		} else {
			fmt.Fprintf(&b, `<input type="range" data-sodlive-control="%d" min="0" max="%d" value="%d" style="width:320px">`, i, c.positions()-1, pos[i])
		}
	}
	return frontend.Controls(b.String(), len(controls))
}

// setLabel shows a control's new value in its label.
func setLabel(id, text string) { frontend.Script(setTextJS(id, text)) }
