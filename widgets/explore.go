package widgets

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"sodworkbench.org/workbench/widgets/internal/frontend"
)

// LiveOnlyTag is the notebook cell tag for cells that need a live browser
// (GoNB widgets wait for the front end, so they block under nbconvert).
// The notebook harness skips cells with this tag in headless runs: tag
// every cell that calls Explore.
const LiveOnlyTag = "live-only"

// Control is one input of Explore: a slider over a numeric range or over
// a list of values, or a select over named options.
type Control struct {
	Name string // shown next to the control, and the key in Values
	// A slider over [Min, Max] with Steps+1 positions, evenly spaced (or
	// evenly spaced in log scale when Log is set; then Min must be > 0).
	Min, Max float64
	Steps    int
	Log      bool
	// Integer rounds the slider's values to whole numbers (e.g. a number
	// of steps t on a log slider), in the label and in Values.
	Integer bool
	// A slider over these values instead (e.g. l ∈ {3, 5, 7, 9, 11}).
	Values []float64
	// A select over these options instead; its value is the option's index.
	Options []string
	// Initial is the initial value (snapped to the nearest position), or
	// the initial option's index for a select.
	Initial float64
}

// Values holds the current value of every control by name.
type Values map[string]float64

// positions returns the number of slider positions, or of options.
func (c Control) positions() int {
	switch {
	case len(c.Options) > 0:
		return len(c.Options)
	case len(c.Values) > 0:
		return len(c.Values)
	}
	return c.Steps + 1
}

// value returns the value at position k.
func (c Control) value(k int) float64 {
	switch {
	case len(c.Options) > 0:
		return float64(k)
	case len(c.Values) > 0:
		return c.Values[k]
	}
	var v float64
	if c.Log {
		v = math.Exp(math.Log(c.Min) + (math.Log(c.Max)-math.Log(c.Min))*float64(k)/float64(c.Steps))
	} else {
		v = c.Min + (c.Max-c.Min)*float64(k)/float64(c.Steps)
	}
	if c.Integer {
		v = math.Round(v)
	}
	return v
}

// position returns the position whose value is nearest to v.
func (c Control) position(v float64) int {
	best, bestD := 0, math.Inf(1)
	for k := 0; k < c.positions(); k++ {
		d := math.Abs(c.value(k) - v)
		if c.Log && v > 0 {
			d = math.Abs(math.Log(c.value(k)) - math.Log(v))
		}
		if d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// format formats the value at position k for the label.
func (c Control) format(k int) string {
	if len(c.Options) > 0 {
		return c.Options[k]
	}
	if c.Integer && len(c.Values) == 0 {
		return strconv.FormatFloat(c.value(k), 'f', 0, 64)
	}
	return strconv.FormatFloat(c.value(k), 'g', 4, 64)
}

func (c Control) validate() error {
	if c.Name == "" {
		return fmt.Errorf("widgets: Explore: a control has no name")
	}
	switch {
	case len(c.Options) > 0:
	case len(c.Values) > 0:
		for _, v := range c.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("widgets: Explore: control %q has a non-finite value", c.Name)
			}
		}
	default:
		if c.Steps < 1 {
			return fmt.Errorf("widgets: Explore: control %q needs Steps ≥ 1, Values or Options", c.Name)
		}
		if !(c.Min < c.Max) || math.IsInf(c.Min, 0) || math.IsInf(c.Max, 0) {
			return fmt.Errorf("widgets: Explore: control %q needs finite Min < Max, got [%g, %g]", c.Name, c.Min, c.Max)
		}
		if c.Log && !(c.Min > 0) {
			return fmt.Errorf("widgets: Explore: control %q is logarithmic and needs Min > 0, got %g", c.Name, c.Min)
		}
	}
	return nil
}

// Explore shows the controls and the chart draw(values) below them, and
// redraws the chart whenever a control changes, for classroom exploration
// (sliders for l, t, ρ, η; a select for the case). It returns when ctx is
// done or draw fails; in a notebook, interrupt the cell to stop it.
//
// Explore needs a live browser: tag its cell with LiveOnlyTag ("live-only")
// so that headless runs skip it. Outside a notebook it calls draw once with
// the initial values and returns its error.
//
// A nil ctx or draw is an error wrapping ErrBadInput.
func Explore(ctx context.Context, controls []Control, draw func(Values) (Chart, error)) error {
	if ctx == nil || draw == nil {
		return fmt.Errorf("%w: Explore needs a context and a draw function, got nil (context %v, draw %v)", ErrBadInput, ctx != nil, draw != nil)
	}
	seen := map[string]bool{}
	vals := Values{}
	pos := make([]int, len(controls))
	for i, c := range controls {
		if err := c.validate(); err != nil {
			return err
		}
		if seen[c.Name] {
			return fmt.Errorf("widgets: Explore: two controls are named %q", c.Name)
		}
		seen[c.Name] = true
		pos[i] = c.position(c.Initial)
		if len(c.Options) > 0 {
			pos[i] = min(max(int(c.Initial), 0), len(c.Options)-1)
		}
		vals[c.Name] = c.value(pos[i])
	}
	first, err := draw(vals)
	if err != nil {
		return err
	}
	if !frontend.IsNotebook() {
		_, _, err := fragment(first)
		return err
	}

	// The library goes into its own output, which is never replaced.
	frag, needGL, err := fragment(first)
	if err != nil {
		return err
	}
	if err := emitLibraries(needGL); err != nil {
		return err
	}
	type change struct{ i, k int }
	changes := make(chan change, 64)
	labelIDs := make([]string, len(controls))
	for i := range controls {
		labelIDs[i] = "sodw_label_" + freshID()
	}
	for i, ch := range showControls(controls, pos, labelIDs) {
		go func(i int, ch <-chan int) {
			for k := range ch {
				select {
				case changes <- change{i, k}:
				case <-ctx.Done():
					return
				}
			}
		}(i, ch)
	}
	displayID := "sodw_explore_" + freshID()
	frontend.UpdateHTML(displayID, frag)
	frontend.Sync()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ch := <-changes:
			// Apply every pending change before redrawing once.
			apply := func(ch change) {
				c := controls[ch.i]
				k := min(max(ch.k, 0), c.positions()-1)
				vals[c.Name] = c.value(k)
				setLabel(labelIDs[ch.i], c.format(k))
			}
			apply(ch)
		drain:
			for {
				select {
				case ch := <-changes:
					apply(ch)
				default:
					break drain
				}
			}
			c, err := draw(vals)
			if err != nil {
				frontend.UpdateHTML(displayID, fmt.Sprintf(`<pre style="color:#c92a2a">%s</pre>`, escapeHTML(err.Error())))
				continue
			}
			frag, gl, err := fragment(c)
			if err != nil {
				return err
			}
			if gl && !needGL {
				if err := emitLibraries(true); err != nil {
					return err
				}
				needGL = true
			}
			frontend.UpdateHTML(displayID, frag)
			frontend.Sync()
		}
	}
}

// emitLibraries displays the libraries not yet emitted by this process in
// an output of their own.
func emitLibraries(needGL bool) error {
	emitted.Lock()
	defer emitted.Unlock()
	libs, err := librariesHTML(needGL, emitted.lib)
	if err != nil {
		return err
	}
	if libs != "" {
		frontend.DisplayHTML(libs)
	}
	emitted.lib[libECharts] = true
	if needGL {
		emitted.lib[libEChartsGL] = true
	}
	return nil
}

// controlLabelHTML is the label of a control: its name and current value,
// the value in an element with the given id (see setTextJS).
func controlLabelHTML(name, id, value string) string {
	return fmt.Sprintf(`<div class="sodw-control" style="margin:6px 0 0 0;"><b>%s</b> = <span id="%s">%s</span></div>`,
		escapeHTML(name), escapeHTML(id), escapeHTML(value))
}

// setTextJS is a script that sets the text of the element with the given
// id (a control's value label).
func setTextJS(id, text string) string {
	return fmt.Sprintf(`(function () { var el = document.getElementById(%s); if (el) { el.textContent = %s; } })();`,
		jsString(id), jsString(text))
}
