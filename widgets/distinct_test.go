package widgets

import (
	"fmt"
	"testing"

	"sodworkbench.org/workbench/widgets/internal/chartkit"
)

// A chart of many methods (Curves.Distinct) gives each of 16 series its
// own colour and each of 48 its own (colour, dash), lists every name in
// a legend that does not scroll, draws steps on a y axis fixed to [0, 1].
func TestCurvesDistinct(t *testing.T) {
	const n = 48
	seen16, seen48 := map[string]bool{}, map[[2]string]bool{}
	for k := range n {
		st := chartkit.SeriesStyle(k)
		if k < 16 {
			if seen16[st.Color] {
				t.Errorf("series %d repeats colour %s", k, st.Color)
			}
			seen16[st.Color] = true
		}
		if seen48[[2]string{st.Color, st.Dash}] {
			t.Errorf("series %d repeats colour and dash %v", k, st)
		}
		seen48[[2]string{st.Color, st.Dash}] = true
	}
	var ss []Series
	for k := range 16 {
		ss = append(ss, Series{Name: fmt.Sprintf("method-%d", k), Y: []float64{0, 0.5, 1}})
	}
	m := optionJSON(t, must(Curves{Title: "ECDF", X: []float64{1, 10, 100}, Series: ss, LogX: true, Step: true, Probability: true, Distinct: true}.Chart()))
	if lg, _ := m["legend"].(map[string]any); lg == nil || lg["type"] != "plain" || lg["show"] != true {
		t.Errorf("legend %v, want a plain legend shown", m["legend"])
	}
	colours := map[any]bool{}
	for _, s := range m["series"].([]any) {
		s := s.(map[string]any)
		if s["step"] != "end" || s["symbol"] == nil || s["lineStyle"] == nil {
			t.Errorf("series %v: want a step, a marker and a dash", s["name"])
		}
		colours[s["color"]] = true
	}
	if len(colours) != 16 {
		t.Errorf("%d colours for 16 series", len(colours))
	}
	y := m["yAxis"].([]any)[0].(map[string]any)
	if y["min"] != 0.0 || y["max"] != 1.0 {
		t.Errorf("y axis [%v, %v], want [0, 1]", y["min"], y["max"])
	}
}
