package widgets_test

import (
	"slices"
	"testing"

	"sodworkbench.org/workbench/widgets"
	"sodworkbench.org/workbench/widgets/plots"
)

// TestInjectionStaticSVG renders every gonum/plot figure of package
// widgets/plots with each payload in every text field as SVG (what
// plots.DisplayStatic shows) and checks that the SVG holds only the
// elements of the plain-text figure.
func TestInjectionStaticSVG(t *testing.T) {
	type svg struct {
		elements          []string
		comments, scripts int
	}
	svgs := func(text string) []svg {
		items, err := plots.StaticGalleryWithText(1, text)
		if err != nil {
			t.Fatalf("text %q: %v", text, err)
		}
		var out []svg
		for _, it := range items {
			b, err := plots.Render(it.Static, 400, 300, "svg")
			if err != nil {
				t.Fatalf("text %q: %s: %v", text, it.Name, err)
			}
			var d svg
			d.elements, d.comments, d.scripts = widgets.SVGMarkup(string(b))
			out = append(out, d)
		}
		return out
	}
	base := svgs("plain text")
	for _, payload := range widgets.InjectionPayloads {
		for i, doc := range svgs(payload) {
			if !slices.Equal(doc.elements, base[i].elements) || doc.comments != base[i].comments || doc.scripts != 0 {
				t.Errorf("%q: static figure %d: %s, %d comments, %d scripts", payload, i, widgets.FirstDiff(base[i].elements, doc.elements), doc.comments, doc.scripts)
			}
		}
	}
}
