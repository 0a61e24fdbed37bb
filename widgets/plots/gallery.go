package plots

import "sodworkbench.org/workbench/widgets"

// StaticItem is one static (gonum/plot) figure of the static gallery.
type StaticItem struct {
	Name, Figure string
	Static       Static
}

// StaticGallery is widgets.Gallery's static counterpart: every gonum/plot
// figure of this package, on the same synthetic data and with the same
// item names and paper figures.
func StaticGallery(seed uint64) ([]StaticItem, error) {
	return staticGalleryItems(widgets.NewGalleryData(seed))
}

// StaticGalleryWithText is StaticGallery with every caller-text field of
// every figure's data set to text (widgets.GalleryWithText's data). It
// exists for the injection tests, which check that markup in any text stays
// text in the SVG.
func StaticGalleryWithText(seed uint64, text string) ([]StaticItem, error) {
	return staticGalleryItems(widgets.NewGalleryDataWithText(seed, text))
}

func staticGalleryItems(gd widgets.GalleryData) ([]StaticItem, error) {
	var items []StaticItem
	add := func(name string, s Static, err error) error {
		if err != nil {
			return err
		}
		items = append(items, StaticItem{Name: name, Figure: widgets.GalleryFigure(name), Static: s})
		return nil
	}
	s1, err := CurvesPlot(gd.Curves)
	if err := add("curves", s1, err); err != nil {
		return nil, err
	}
	s2, err := LandscapePlot(gd.Landscape)
	if err := add("landscape", s2, err); err != nil {
		return nil, err
	}
	s3, err := Trajectory3DPlot(gd.Trajectory)
	if err := add("trajectory3d", s3, err); err != nil {
		return nil, err
	}
	s4, err := LiftedObjectivePlot(gd.Lifted)
	if err := add("lifted-objective", s4, err); err != nil {
		return nil, err
	}
	s5, err := TermNormsFigure(gd.Terms)
	if err := add("term-norms", s5, err); err != nil {
		return nil, err
	}
	s6, err := EscapeWindowsPlot(gd.Windows)
	if err := add("escape-windows", s6, err); err != nil {
		return nil, err
	}
	s7, err := EFSZonesPlot(gd.Zones)
	if err := add("efs-zones", s7, err); err != nil {
		return nil, err
	}
	s8, err := ProbabilityPlot(gd.Probability)
	if err := add("paley-zygmund", s8, err); err != nil {
		return nil, err
	}
	s9, err := SuccessRatesPlot(gd.Success)
	if err := add("success-rates", s9, err); err != nil {
		return nil, err
	}
	s10, err := BundlePlot(gd.Bundle)
	if err := add("bundles", s10, err); err != nil {
		return nil, err
	}
	return items, nil
}
