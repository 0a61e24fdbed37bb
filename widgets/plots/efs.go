package plots

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"sodworkbench.org/workbench/widgets"
	"sodworkbench.org/workbench/widgets/internal/chartkit"
)

// EFSZonesPlot is the static version of widgets.EFSZones.Chart. Save it with equal
// width and height so that the circles stay round.
func EFSZonesPlot(z widgets.EFSZones) (*plot.Plot, error) {
	rname, ext, skipped, err := z.Frame("EFSZonesPlot")
	if err != nil {
		return nil, err
	}
	p := newPlot(skippedNote(z.Title, skipped, false), chartkit.RadialAxis(rname), "", false, false)
	bg, err := plotter.NewPolygon(plotter.XYs{{X: -ext, Y: -ext}, {X: ext, Y: -ext}, {X: ext, Y: ext}, {X: -ext, Y: ext}})
	if err != nil {
		return nil, err
	}
	bg.Color, bg.LineStyle.Width = hexColor("#b2f2bb"), 0
	p.Add(bg)
	p.Legend.Add(tx(chartkit.ZoneFar(z.R2)), bg)
	for _, zn := range []struct {
		r    float64
		col  string
		name string
	}{{z.R2, "#ffe066", chartkit.ZoneBand}, {z.R1, "#ffa8a8", chartkit.ZoneNear(z.R1)}} {
		c, err := plotter.NewPolygon(circle(zn.r))
		if err != nil {
			return nil, err
		}
		c.Color = hexColor(zn.col)
		c.LineStyle = draw.LineStyle{Color: color.Gray{Y: 60}, Width: vg.Points(0.8)}
		p.Add(c)
		p.Legend.Add(tx(zn.name), c)
	}
	var pts []widgets.Point
	k := 0
	for _, in := range z.Instances {
		if !chartkit.Drawable(in.R, false) || in.R < 0 {
			continue
		}
		th := math.Pi/4 + 2*math.Pi*float64(k)/float64(max(len(z.Instances), 1))
		pts = append(pts, widgets.Point{Name: fmt.Sprintf("%s (R = %.3g)", in.Name, in.R), X: in.R * math.Cos(th), Y: in.R * math.Sin(th)})
		k++
	}
	if err := addPoints(p, pts, color.Black); err != nil {
		return nil, err
	}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -ext, ext, -ext, ext
	p.Legend.Top = false
	p.Legend.Left = true
	return p, nil
}

// ProbabilityPlot is the static version of widgets.ProbabilityCurve.Chart.
func ProbabilityPlot(pc widgets.ProbabilityCurve) (*plot.Plot, error) {
	if err := pc.Validate("ProbabilityPlot"); err != nil {
		return nil, err
	}
	p := newPlot(pc.Title, pc.XName, chartkit.ProbabilityAxis, false, false)
	bname, mname := pc.SeriesNames()
	if pc.StdErr != nil {
		var band plotter.XYs
		for i := range pc.X {
			if chartkit.Drawable(pc.X[i], false) && chartkit.Drawable(pc.MonteCarlo[i], false) && chartkit.Drawable(pc.StdErr[i], false) {
				band = append(band, plotter.XY{X: pc.X[i], Y: math.Min(1, pc.MonteCarlo[i]+2*pc.StdErr[i])})
			}
		}
		for i := len(pc.X) - 1; i >= 0; i-- {
			if chartkit.Drawable(pc.X[i], false) && chartkit.Drawable(pc.MonteCarlo[i], false) && chartkit.Drawable(pc.StdErr[i], false) {
				band = append(band, plotter.XY{X: pc.X[i], Y: math.Max(0, pc.MonteCarlo[i]-2*pc.StdErr[i])})
			}
		}
		if len(band) >= 3 {
			poly, err := plotter.NewPolygon(band)
			if err != nil {
				return nil, err
			}
			poly.Color = withAlpha(hexColor(chartkit.Palette[0]), 0.2)
			poly.LineStyle.Width = 0
			p.Add(poly)
			p.Legend.Add(tx("Monte Carlo ± 2 SE"), poly)
		}
	}
	s1, err := addLine(p, bname, pc.X, pc.Bound, false, false, lineStyle(chartkit.Palette[3], vg.Points(1.5), true), true)
	if err != nil {
		return nil, err
	}
	s2, err := addLine(p, mname, pc.X, pc.MonteCarlo, false, false, lineStyle(chartkit.Palette[0], vg.Points(1.5), false), true)
	if err != nil {
		return nil, err
	}
	for _, r := range []struct {
		v float64
		n string
	}{{pc.R1, chartkit.RadiusNames[0]}, {pc.R2, chartkit.RadiusNames[1]}} {
		if chartkit.Drawable(r.v, false) && r.v > 0 {
			if err := addVLine(p, r.v, 0, 1, r.n, "#495057"); err != nil {
				return nil, err
			}
		}
	}
	p.Y.Min, p.Y.Max = 0, 1
	p.Title.Text = tx(skippedNote(pc.Title, s1+s2, false))
	return p, nil
}

// circle returns a polygon approximating the circle of radius r around 0.
func circle(r float64) plotter.XYs {
	const n = 180
	xys := make(plotter.XYs, n)
	for i := range xys {
		th := 2 * math.Pi * float64(i) / n
		xys[i] = plotter.XY{X: r * math.Cos(th), Y: r * math.Sin(th)}
	}
	return xys
}
