package reproducecli

import (
	"io"
	"slices"
	"strings"

	"sodworkbench.org/workbench/sod/escapebench"
	"sodworkbench.org/workbench/sod/figures/staticfig"
	"sodworkbench.org/workbench/widgets/plots"
)

// profileFigureFiles are the benchmark's profiles as static figures for
// papers: bench-profile-<family>-<kind>.svg, kind ecdf, perf or data (the
// ECDF, the performance and the data profile, those with a curve), the
// same charts as the HTML report's (staticfig.BenchProfileFigures).
func profileFigureFiles(as []escapebench.FamilyAnalysis) []escapebench.OutputFile {
	var out []escapebench.OutputFile
	for _, a := range as {
		ps, err := staticfig.BenchProfileFigures(a)
		if err != nil {
			out = append(out, escapebench.OutputFile{Name: "bench-profile-" + a.Family + ".svg", Write: func(io.Writer) error { return err }})
			continue
		}
		for _, p := range ps {
			kind := "data"
			switch t := p.Title.Text; {
			case strings.Contains(t, "ECDF"):
				kind = "ecdf"
			case strings.Contains(t, "Dolan"):
				kind = "perf"
			}
			out = append(out, escapebench.OutputFile{Name: "bench-profile-" + a.Family + "-" + kind + ".svg", Write: func(w io.Writer) error {
				b, err := plots.Render(p, 16*plots.Centimeter, 12*plots.Centimeter, "svg")
				if err == nil {
					_, err = w.Write(b)
				}
				return err
			}})
		}
	}
	return out
}

// bandColumns is the number of panels per row of the static convergence
// figure.
const bandColumns = 4

// bandFigureFiles are the convergence bands as static figures for papers:
// bench-convergence-<family>.svg, a panel per method with its median and
// inter-quartile band (staticfig.BenchBandFigure), the same curves as the
// HTML report's.
func bandFigureFiles(ss []escapebench.Summary) []escapebench.OutputFile {
	var out []escapebench.OutputFile
	var fams []string
	for _, s := range ss {
		if len(s.Curve.Grad) > 0 && !slices.Contains(fams, s.Family) { // a family with a trace
			fams = append(fams, s.Family)
		}
	}
	for _, fam := range fams {
		out = append(out, escapebench.OutputFile{Name: "bench-convergence-" + fam + ".svg", Write: func(w io.Writer) error {
			f, err := staticfig.BenchBandFigure(ss, fam, bandColumns)
			if err != nil {
				return err
			}
			rows := len(f.Panels)
			b, err := plots.Render(f, bandColumns*8*plots.Centimeter, plots.Length(rows)*7*plots.Centimeter, "svg")
			if err == nil {
				_, err = w.Write(b)
			}
			return err
		}})
	}
	return out
}
