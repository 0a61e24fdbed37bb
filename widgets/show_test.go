package widgets

import (
	"errors"
	"strings"
	"testing"

	"github.com/go-echarts/go-echarts/v2/charts"
)

type svgFig struct{ err error }

func (f svgFig) SVG() (string, error) { return "<svg>fig</svg>", f.err }

// TestShow checks what Show puts into the cell and onto standard error for
// every kind of value it accepts, and that an error is never dropped.
func TestShow(t *testing.T) {
	fakeAssets(t)
	curves := Curves{Title: "demo", X: []float64{1, 2}, Series: []Series{{"s", []float64{1, 2}}}}
	table := Table{Caption: "tab", Header: []string{"a"}, Rows: [][]Cell{{{Text: "<b>"}}}}
	boom := errors.New("the figure's builder failed: n = -1, want n ≥ 1")
	for _, tc := range []struct {
		name    string
		args    []any
		outputs int    // cell outputs (charts, tables, error boxes)
		want    string // in the last output
		stderr  string // in standard error ("" = nothing written)
	}{
		{"chart", []any{demoLine(t)}, 1, "echarts", ""},
		{"builder's two results", []any{curves, error(nil)}, 1, "echarts", ""},
		{"table", []any{table}, 1, "&lt;b&gt;", ""},
		{"*table", []any{&table}, 1, "<table", ""},
		{"static figure", []any{svgFig{}}, 1, "<svg>fig</svg>", ""},
		{"slice of charts", []any{[]Chart{demoLine(t), demoLine(t)}}, 2, "echarts", ""},
		{"slice of inputs", []any{[]Curves{curves, curves, curves}}, 3, "echarts", ""},
		{"nil, nil", []any{nil, error(nil)}, 0, "", ""},
		{"no arguments", nil, 0, "", ""},
		{"three results", []any{table, []Chart{demoLine(t), demoLine(t)}, error(nil)}, 3, "echarts", ""},
		{"three results, failed", []any{Table{}, []Chart(nil), boom}, 1, "n = -1", "n = -1"},
		{"two values, the second bad", []any{table, 42}, 2, "argument 2 of 2", "argument 2 of 2"},
		{"error", []any{boom}, 1, "n = -1, want n ≥ 1", "n = -1, want n ≥ 1"},
		{"error with a value", []any{demoLine(t), boom}, 1, ShowErrorPrefix, "the figure's builder failed"},
		{"error is escaped", []any{errors.New("</pre><script>x</script>")}, 1, "&lt;/pre&gt;&lt;script&gt;", "</pre><script>"},
		{"failing static figure", []any{svgFig{boom}}, 1, ShowErrorPrefix, "n = -1"},
		{"failing input", []any{Curves{Title: "bad"}}, 1, ShowErrorPrefix, ShowErrorPrefix},
		{"one bad element", []any{[]Curves{curves, {}}}, 2, "element 2 of 2", "element 2 of 2"},
		{"nil chart", []any{(*charts.Line)(nil)}, 1, "nil *charts.Line", "nil *charts.Line"},
		{"nil *Table", []any{(*Table)(nil)}, 1, "nil *widgets.Table", "nil *widgets.Table"},
		{"not showable", []any{42}, 1, "cannot show a int", "cannot show a int"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resetEmitted()
			s := &recSink{}
			var stderr strings.Builder
			show(s, &stderr, tc.args...)
			if len(s.outputs) != tc.outputs {
				t.Fatalf("%d outputs, want %d: %q", len(s.outputs), tc.outputs, s.outputs)
			}
			if tc.outputs > 0 && !strings.Contains(s.outputs[len(s.outputs)-1], tc.want) {
				t.Errorf("last output lacks %q: %.300s", tc.want, s.outputs[len(s.outputs)-1])
			}
			switch got := stderr.String(); {
			case tc.stderr == "" && got != "":
				t.Errorf("standard error = %q, want nothing", got)
			case tc.stderr != "" && (!strings.HasPrefix(got, ShowErrorPrefix) || !strings.Contains(got, tc.stderr)):
				t.Errorf("standard error = %q, want a line starting with %q containing %q", got, ShowErrorPrefix, tc.stderr)
			}
		})
	}
}

// TestShowOutsideNotebook: outside a notebook nothing is shown, but an error still reaches standard error.
func TestShowOutsideNotebook(t *testing.T) {
	var stderr strings.Builder
	show(offSink{}, &stderr, Curves{Title: "bad"})
	if !strings.HasPrefix(stderr.String(), ShowErrorPrefix) {
		t.Errorf("standard error = %q, want the error", stderr.String())
	}
}

type offSink struct{}

func (offSink) active() bool       { return false }
func (offSink) displayHTML(string) { panic("shown outside a notebook") }
func (offSink) displaySVG(string)  { panic("shown outside a notebook") }
func (offSink) sync()              {}
