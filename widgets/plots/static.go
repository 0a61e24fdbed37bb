package plots

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	_ "gonum.org/v1/plot/vg/vgimg" // PNG
	_ "gonum.org/v1/plot/vg/vgpdf" // PDF
	_ "gonum.org/v1/plot/vg/vgsvg" // SVG
	"sodworkbench.org/workbench/widgets/internal/chartkit"

	"sodworkbench.org/workbench/widgets/internal/frontend"
)

// Static is a figure drawn with gonum/plot for slides and papers: a
// *plot.Plot or a *Figure (several aligned panels). Every chart of package
// widgets has a static counterpart here, e.g. CurvesPlot for
// widgets.Curves.Chart.
type Static interface {
	Draw(c draw.Canvas)
}

// Figure is a grid of gonum/plot panels drawn aligned, e.g. the closed-form
// and exact term norms side by side, or the six panels (a)–(f) of the
// paper's figures exp2 and exp3 taken from several …Plot functions.
type Figure struct {
	Panels [][]*plot.Plot // rows of panels; nil panels are left empty
}

// Draw draws the panels aligned on c (nothing for a nil Figure or one
// without panels).
func (f *Figure) Draw(c draw.Canvas) {
	if f == nil || len(f.Panels) == 0 { // nothing to draw
		return
	}
	cols := 0
	for _, r := range f.Panels {
		cols = max(cols, len(r))
	}
	grid := make([][]*plot.Plot, len(f.Panels))
	for i, r := range f.Panels {
		grid[i] = make([]*plot.Plot, cols)
		copy(grid[i], r)
	}
	canvases := plot.Align(grid, draw.Tiles{Rows: len(grid), Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}, c)
	for i := range grid {
		for j, p := range grid[i] {
			if p != nil {
				p.Draw(canvases[i][j])
			}
		}
	}
}

// Length is a length on the page (gonum/plot's vg.Length, in points): sizes
// are written with the units below, e.g. 16 * plots.Centimeter.
type Length = vg.Length

// Units of Length.
const (
	Millimeter = vg.Millimeter
	Centimeter = vg.Centimeter
	Inch       = vg.Inch
)

// ErrRenderTooLarge reports a size above a stated limit (MaxRenderSize),
// refused before allocating.
var ErrRenderTooLarge = errors.New("plots: size exceeds the stated limit")

// ErrBadPlot reports a bad argument of this package: a nil figure, a
// non-positive or NaN size. The message names the value and the accepted
// range.
var ErrBadPlot = errors.New("plots: bad input")

// MaxRenderSize is the largest width or height Render and Save accept:
// 1 m, which is 3780 pixels at the PNG resolution of 96 dpi (a 57 MB
// canvas at the limit in both directions).
const MaxRenderSize = 100 * Centimeter

// Render draws s on a canvas of the given size and format ("svg", "png",
// "pdf") and returns the encoded bytes. width and height must lie in
// (0, MaxRenderSize]; a larger size is refused with ErrRenderTooLarge and
// a non-positive or NaN one with ErrBadPlot, before any canvas is
// allocated.
func Render(s Static, width, height Length, format string) ([]byte, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: Render: nil figure", ErrBadPlot)
	}
	if !(width > 0 && height > 0) {
		return nil, fmt.Errorf("%w: Render: size %v × %v pt, want each in (0, %v] pt", ErrBadPlot, float64(width), float64(height), float64(MaxRenderSize))
	}
	if width > MaxRenderSize || height > MaxRenderSize {
		return nil, fmt.Errorf("%w: Render: size %v × %v pt, want each at most MaxRenderSize = %v pt (1 m)", ErrRenderTooLarge, float64(width), float64(height), float64(MaxRenderSize))
	}
	c, err := draw.NewFormattedCanvas(width, height, strings.ToLower(format))
	if err != nil {
		return nil, fmt.Errorf("plots: Render: %w (use svg, png or pdf)", err)
	}
	if err := drawSafely(s, draw.New(c)); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, fmt.Errorf("plots: Render: %w", err)
	}
	return b.Bytes(), nil
}

// drawSafely turns a gonum/plot panic (e.g. a non-positive value reaching a
// log axis) into an error.
func drawSafely(s Static, c draw.Canvas) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("plots: gonum/plot failed to draw the figure: %v", r)
		}
	}()
	s.Draw(c)
	return nil
}

// Save writes s to path in the format given by its extension (.svg, .png
// or .pdf), at the given size (e.g. 16*Centimeter × 10*Centimeter).
func Save(s Static, path string, width, height Length) error {
	ext := strings.TrimPrefix(filepath.Ext(path), ".")
	b, err := Render(s, width, height, ext)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// DisplayStatic shows s as an SVG in the current GoNB cell and waits with
// gonbui.Sync, and returns any error: the form for programs (a notebook
// uses widgets.Show(AtSize(s, width, height), err)). Outside a notebook it
// renders s, reporting any error, and shows nothing.
func DisplayStatic(s Static, width, height Length) error {
	b, err := Render(s, width, height, "svg")
	if err != nil {
		return err
	}
	if frontend.IsNotebook() {
		frontend.DisplaySVG(string(b))
		frontend.Sync()
	}
	return nil
}

// newPlot returns a plot with a title, axis labels and optional log axes.
func newPlot(title, xName, yName string, logX, logY bool) *plot.Plot {
	p := plot.New()
	p.Title.Text = tx(title)
	p.X.Label.Text = tx(xName)
	p.Y.Label.Text = tx(yName)
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	if logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = logTicks{}
	}
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
	}
	return p
}

// logTicks marks the powers of ten of a log axis with the labels of the
// interactive charts (0.001 … 10000 as they are, else 1e-9, 1e7). The
// values are exact (math.Pow10): gonum's LogTicks multiplies by ten
// repeatedly and printed 9.999999999999999e-05. When the range spans more
// than maxLogLabels decades only every k-th power is marked, so that the
// labels do not overlap, and the minor ticks (2…9 × 10^e) are left out.
// When fewer than two powers of ten fall inside the range, it falls back
// to gonum's evenly spaced DefaultTicks, so that the axis keeps labels.
type logTicks struct{}

// maxLogLabels is the largest number of labelled powers of ten on a log axis.
const maxLogLabels = 8

// Ticks implements plot.Ticker.
func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi >= lo) {
		return nil
	}
	a := max(int(math.Floor(math.Log10(lo))), -323)
	b := min(int(math.Ceil(math.Log10(hi))), 308)
	inside := 0
	for e := a; e <= b; e++ {
		if v := math.Pow10(e); v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
			inside++
		}
	}
	if inside < 2 {
		// Fewer than two powers of ten inside [lo, hi] (e.g. a lifted
		// objective between 2.5e-4 and 6e-4): plain evenly spaced ticks.
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	step := max(1, (b-a+maxLogLabels-1)/maxLogLabels)
	var ticks []plot.Tick
	for e := a; e <= b; e++ {
		if step > 1 && e%step != 0 {
			continue // an unlabelled tick per decade would blacken the axis over hundreds of decades
		}
		v := math.Pow10(e)
		ticks = append(ticks, plot.Tick{Value: v, Label: chartkit.LogLabel(e)})
		if step == 1 && e < b {
			for i := 2; i <= 9; i++ {
				ticks = append(ticks, plot.Tick{Value: float64(i) * v})
			}
		}
	}
	return ticks
}

// hexColor parses "#rrggbb".
func hexColor(s string) color.Color {
	var r, g, b uint8
	if _, err := fmt.Sscanf(s, "#%02x%02x%02x", &r, &g, &b); err != nil {
		return color.Black
	}
	return color.RGBA{R: r, G: g, B: b, A: 255}
}

func withAlpha(c color.Color, a float64) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: uint8(255 * a)}
}

// segments splits the points into runs of drawable points (gaps where a
// point cannot be drawn), and counts the undrawable ones.
func segments(x, y []float64, logX, logY bool) ([]plotter.XYs, int) {
	var segs []plotter.XYs
	var cur plotter.XYs
	skipped := 0
	for i := range x {
		if chartkit.Drawable(x[i], logX) && chartkit.Drawable(y[i], logY) {
			cur = append(cur, plotter.XY{X: x[i], Y: y[i]})
			continue
		}
		skipped++
		if len(cur) > 0 {
			segs = append(segs, cur)
			cur = nil
		}
	}
	if len(cur) > 0 {
		segs = append(segs, cur)
	}
	return segs, skipped
}

// addLine adds the drawable segments of (x, y) with one legend entry.
func addLine(p *plot.Plot, name string, x, y []float64, logX, logY bool, style draw.LineStyle, legend bool) (int, error) {
	segs, skipped := segments(x, y, logX, logY)
	for k, s := range segs {
		l, err := plotter.NewLine(s)
		if err != nil {
			return skipped, fmt.Errorf("plots: %s: %w", name, err)
		}
		l.LineStyle = style
		p.Add(l)
		if k == 0 && legend && name != "" {
			p.Legend.Add(tx(name), l)
		}
	}
	return skipped, nil
}

func lineStyle(col string, width vg.Length, dashed bool) draw.LineStyle {
	s := draw.LineStyle{Color: hexColor(col), Width: width}
	if dashed {
		s.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	return s
}

// addVLine draws a labelled vertical line at x from y0 to y1.
func addVLine(p *plot.Plot, x, y0, y1 float64, label, col string) error {
	l, err := plotter.NewLine(plotter.XYs{{X: x, Y: y0}, {X: x, Y: y1}})
	if err != nil {
		return err
	}
	l.LineStyle = lineStyle(col, vg.Points(1), true)
	p.Add(l)
	if label != "" {
		lb, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: x, Y: y1}}, Labels: []string{" " + tx(label)}})
		if err != nil {
			return err
		}
		p.Add(lb)
	}
	return nil
}

// addHLine draws a labelled horizontal line at y from x0 to x1.
func addHLine(p *plot.Plot, y, x0, x1 float64, label, col string) error {
	l, err := plotter.NewLine(plotter.XYs{{X: x0, Y: y}, {X: x1, Y: y}})
	if err != nil {
		return err
	}
	l.LineStyle = lineStyle(col, vg.Points(1), true)
	p.Add(l)
	if label != "" {
		p.Legend.Add(tx(label), l)
	}
	return nil
}

// skippedNote appends a note on undrawn values to a title.
func skippedNote(title string, skipped int, log bool) string {
	if skipped == 0 {
		return title
	}
	what := "non-finite"
	if log {
		what = "non-finite or non-positive"
	}
	return fmt.Sprintf("%s\n(%d %s value(s) not drawn)", title, skipped, what)
}

// rampPalette interpolates a list of hex colours into n colours.
type rampPalette struct {
	stops []string
	n     int
}

func (r rampPalette) Colors() []color.Color {
	cs := make([]color.Color, r.n)
	for i := range cs {
		t := float64(i) / float64(r.n-1) * float64(len(r.stops)-1)
		k := min(int(math.Floor(t)), len(r.stops)-2)
		f := t - float64(k)
		a, b := hexColor(r.stops[k]).(color.RGBA), hexColor(r.stops[k+1]).(color.RGBA)
		mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*(1-f) + float64(y)*f)) }
		cs[i] = color.RGBA{R: mix(a.R, b.R), G: mix(a.G, b.G), B: mix(a.B, b.B), A: 255}
	}
	return cs
}

// staticText replaces the characters that gonum/plot's default font
// (Liberation) cannot draw.
var staticText = strings.NewReplacer(
	"∅", "empty", "∈", "in", "\u0302", "^", "\u0303", "~", "≻", ">", "✓", "yes", "✗", "no",
	"∇", "grad ", "ℝ", "R",
)

// tx makes a label drawable with gonum/plot's default font.
func tx(s string) string { return staticText.Replace(s) }

// Sized is a static figure at a size, for widgets.Show (make it with
// AtSize):
//
//	fig, err := staticfig.CaseFigure(…)
//	widgets.Show(plots.AtSize(fig, 32*plots.Centimeter, 19*plots.Centimeter), err)
type Sized struct {
	fig           Static
	width, height Length
}

// AtSize returns s at the given size, for widgets.Show. The size is
// checked when the figure is drawn (SVG), as by Render.
func AtSize(s Static, width, height Length) Sized { return Sized{s, width, height} }

// SVG renders the figure as SVG (what widgets.Show shows); a nil figure or
// a size Render refuses is an error.
func (s Sized) SVG() (string, error) {
	if s.fig == nil {
		return "", fmt.Errorf("%w: plots.Sized with a nil figure (use AtSize)", ErrBadPlot)
	}
	b, err := Render(s.fig, s.width, s.height, "svg")
	return string(b), err
}
