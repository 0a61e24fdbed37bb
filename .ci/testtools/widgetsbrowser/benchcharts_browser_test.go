package widgetsbrowser

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// benchChartJS reads every chart of a page from ECharts itself: the
// option (title, subtitle, legend, y axis range, each series' name,
// colour, dash, marker and step) and, from the drawn elements, where each
// text of the legend was laid out.
const benchChartJS = `(function () {
  var w = window.sodWidgets, out = [];
  document.querySelectorAll('div.sodw div.item').forEach(function (el) {
    var inst = w.charts[el.id];
    if (!inst) { out.push({id: el.id, missing: true}); return; }
    var o = inst.getOption();
    var first = function (v) { return Array.isArray(v) ? v[0] : v; };
    var title = first(o.title) || {}, legend = first(o.legend) || {}, y = first(o.yAxis) || {};
    var c = {id: el.id, title: title.text || '', subtitle: title.subtext || '', legendType: legend.type || 'plain',
      legendShow: legend.show !== false, legendData: (legend.data || []).map(function (d) { return typeof d === 'string' ? d : d.name; }),
      yMin: y.min === undefined ? null : String(y.min), yMax: y.max === undefined ? null : String(y.max), yName: y.name || '',
      width: inst.getWidth(), height: inst.getHeight(), series: [], texts: []};
    (o.series || []).forEach(function (s) {
      c.series.push({name: s.name || '', type: s.type, color: String(s.color || (s.itemStyle && s.itemStyle.color) || ''),
        dash: String((s.lineStyle && s.lineStyle.type) || 'solid'), symbol: String(s.symbol || ''), step: s.step ? String(s.step) : ''});
    });
    inst.getZr().storage.getDisplayList().forEach(function (d) {
      if (!d.style || typeof d.style.text !== 'string' || d.style.text === '' || d.invisible) { return; }
      var r = d.getBoundingRect().clone();
      if (d.transform) { r.applyTransform(d.transform); }
      c.texts.push({text: d.style.text, x0: r.x, y0: r.y, x1: r.x + r.width, y1: r.y + r.height});
    });
    out.push(c);
  });
  return out;
})()`

type benchSeries struct {
	Name, Type, Color, Dash, Symbol, Step string
}

type benchText struct {
	Text           string
	X0, Y0, X1, Y1 float64
}

type benchChart struct {
	ID, Title, Subtitle, LegendType, YName string
	Missing, LegendShow                    bool
	LegendData                             []string
	YMin, YMax                             *string
	Width, Height                          float64
	Series                                 []benchSeries
	Texts                                  []benchText
}

// methodCharts are the titles of the charts that compare every method of
// a family ("family: …").
var methodCharts = regexp.MustCompile(`^(.+): (runtime to target \(ECDF\)|performance profile \(Dolan–Moré\)|data profile \(Moré–Wild\)|median of .*|success rate per instance against .*)$`)

// checkBenchCharts asserts what makes the report's charts readable
// without hovering, from each chart's option and drawn legend: every
// series of a chart has its own (colour, dash, marker); the legend is not
// a scrolling one and every series' name is drawn inside the chart's box;
// a chart comparing methods lists every method of its family
// (methods[family]); shares and rates have a [0, 1] y axis; the ECDF and
// the profiles are step lines and say which targets they pool. It returns
// the number of charts checked and the problems found.
func checkBenchCharts(charts []benchChart, methods map[string][]string) (checked int, problems []string) {
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	for _, c := range charts {
		if c.Missing {
			bad("chart %s: no ECharts instance", c.ID)
			continue
		}
		var lines []benchSeries
		for _, s := range c.Series {
			if s.Type == "line" {
				lines = append(lines, s)
			}
		}
		if len(lines) < 2 {
			continue
		}
		checked++
		where := fmt.Sprintf("chart %q", c.Title)
		seen := map[string]string{}
		for _, s := range lines {
			key := s.Color + " " + s.Dash + " " + s.Symbol
			if prev, dup := seen[key]; dup {
				bad("%s: series %q and %q share colour, dash and marker (%s)", where, prev, s.Name, key)
			}
			seen[key] = s.Name
		}
		if c.LegendType == "scroll" || !c.LegendShow {
			bad("%s: legend of type %q, shown %v; want a plain legend that lists every series", where, c.LegendType, c.LegendShow)
		}
		for _, s := range lines {
			if len(c.LegendData) > 0 && !slices.Contains(c.LegendData, s.Name) {
				bad("%s: the legend's data leave out %q", where, s.Name)
			}
			drawn := false
			for _, tx := range c.Texts {
				if tx.Text == s.Name {
					drawn = true
					if tx.X0 < -1 || tx.Y0 < -1 || tx.X1 > c.Width+1 || tx.Y1 > c.Height+1 {
						bad("%s: legend name %q drawn at [%.0f, %.0f]×[%.0f, %.0f], outside the chart's %.0f×%.0f box", where, s.Name, tx.X0, tx.X1, tx.Y0, tx.Y1, c.Width, c.Height)
					}
				}
			}
			if !drawn {
				bad("%s: the legend does not draw %q", where, s.Name)
			}
		}
		m := methodCharts.FindStringSubmatch(c.Title)
		if m == nil {
			continue
		}
		fam := m[1]
		for _, want := range methods[fam] {
			if !slices.ContainsFunc(lines, func(s benchSeries) bool { return s.Name == want || strings.HasPrefix(s.Name, want+" (") }) {
				bad("%s: no curve of method %q of family %s", where, want, fam)
			}
		}
		if strings.Contains(c.YName, "share") || strings.Contains(c.YName, "rate") {
			if c.YMin == nil || c.YMax == nil || *c.YMin != "0" || *c.YMax != "1" {
				bad("%s: y axis %q from %v to %v, want [0, 1]", where, c.YName, deref(c.YMin), deref(c.YMax))
			}
		}
		if strings.Contains(c.Title, "ECDF") || strings.Contains(c.Title, "profile") {
			for _, s := range lines {
				if s.Step == "" {
					bad("%s: %q is not drawn as steps", where, s.Name)
				}
			}
			if !strings.Contains(c.Subtitle, "targets") {
				bad("%s: subtitle %q does not name the targets it pools", where, c.Subtitle)
			}
		}
	}
	return checked, problems
}

func deref(p *string) string {
	if p == nil {
		return "unset"
	}
	return *p
}

// benchMethods reads the methods of each family from bench-summary.json.
func benchMethods(t *testing.T, dir string) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "bench-summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Summaries []struct{ Family, Method string }
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, x := range s.Summaries {
		out[x.Family] = append(out[x.Family], x.Method)
	}
	return out
}

// checkBenchSVGs asserts that every static profile and convergence
// figure names every method of its family.
func checkBenchSVGs(t *testing.T, dir string, methods map[string][]string) (checked int) {
	t.Helper()
	for fam, ms := range methods {
		files, _ := filepath.Glob(filepath.Join(dir, "bench-profile-"+fam+"-*.svg"))
		files = append(files, filepath.Join(dir, "bench-convergence-"+fam+".svg"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Error(err)
				continue
			}
			checked++
			for _, m := range ms {
				if !strings.Contains(string(b), ">"+m+"<") && !strings.Contains(string(b), ">"+m+" (") {
					t.Errorf("%s: the legend lacks method %q", filepath.Base(f), m)
				}
			}
		}
	}
	return checked
}

// spoilBenchCharts returns a copy of the charts with one of each fault
// checkBenchCharts looks for, in the first ECDF: a series styled like
// another, a scrolling legend, a method's name drawn outside the box, a
// method left out, a y axis to 1.2, a ramp instead of steps and no
// targets named; the control that shows the checks can fail.
func spoilBenchCharts(charts []benchChart) ([]benchChart, []string) {
	out := slices.Clone(charts)
	for i, c := range out {
		if !strings.Contains(c.Title, "ECDF") || len(c.Series) < 3 {
			continue
		}
		c.Series = slices.Clone(c.Series)
		c.Texts = slices.Clone(c.Texts)
		c.Series[1].Color, c.Series[1].Dash, c.Series[1].Symbol = c.Series[0].Color, c.Series[0].Dash, c.Series[0].Symbol
		c.LegendType = "scroll"
		for k, tx := range c.Texts {
			if tx.Text == c.Series[2].Name {
				c.Texts[k].X1 = c.Width + 50
			}
		}
		gone := c.Series[len(c.Series)-1].Name
		c.Series = c.Series[:len(c.Series)-1]
		max := "1.2"
		c.YMax = &max
		c.Series[0].Step = ""
		c.Subtitle = ""
		out[i] = c
		return out, []string{"share colour, dash and marker", "legend of type \"scroll\"", "outside the chart's", "no curve of method " + fmt.Sprintf("%q", gone), "want [0, 1]", "is not drawn as steps", "does not name the targets"}
	}
	return nil, nil
}
