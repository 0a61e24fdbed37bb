package reproducecli

import (
	"io"
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
