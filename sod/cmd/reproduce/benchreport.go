package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"sodworkbench.org/workbench/sod/escapebench"
	"sodworkbench.org/workbench/sod/figures"
)

// benchReportFile is the self-contained offline HTML report of a complete
// suite (figures.WriteBenchReport). It holds CPU times and fresh chart
// ids, so it is not one of the byte-identical outputs.
const benchReportFile = "bench-report.html"

// writeBenchReport writes <out>/bench-report.html: spec's parameters in the
// header, the certified instances and dropped points of inst (if not nil),
// the tables and curves of rs.
func writeBenchReport(out string, spec benchSpec, rs []*escapebench.TrialResult, inst *benchInstances) error {
	rep := figures.BenchReport{Title: "Escape benchmark", Runs: rs, Settings: benchSettings(spec)}
	if inst != nil {
		rep.Instances, rep.Dropped = inst.Instances, inst.Dropped
	}
	var b bytes.Buffer
	if err := figures.WriteBenchReport(&b, rep); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, benchReportFile), b.Bytes(), 0o644)
}

// benchSettings are the suite's parameters for the report's header.
func benchSettings(s benchSpec) []figures.BenchSetting {
	join := func(xs []string) string { return strings.Join(xs, ", ") }
	set := []figures.BenchSetting{{Name: "families", Value: join(s.Families)}}
	if slices.Contains(s.Families, "pmc") {
		iter := strconv.Itoa(s.PMCIter)
		if s.PMCIter == 0 {
			iter = "max(20000, 30n)"
		}
		set = append(set, figures.BenchSetting{Name: "pmc", Value: fmt.Sprintf("cells n:ε[:points] %s; start %s; %s GD steps to find a point",
			cellsString(s.PMCCells), s.PMCStart, iter)})
	}
	if slices.Contains(s.Families, "gaussian") {
		set = append(set, figures.BenchSetting{Name: "gaussian", Value: fmt.Sprintf("cells n:m:r %s; up to %d draws per point", cellsString(s.GaussCells), s.GaussTries)})
	}
	return append(set,
		figures.BenchSetting{Name: "methods", Value: join(s.Methods)},
		figures.BenchSetting{Name: "points per family cell", Value: strconv.Itoa(s.PerCell)},
		figures.BenchSetting{Name: "trials per (instance, seeded method)", Value: strconv.Itoa(s.Trials) + " (deterministic methods run once per instance)"},
		figures.BenchSetting{Name: "seed", Value: strconv.FormatUint(s.Seed, 10)},
		figures.BenchSetting{Name: "GD steps per phase", Value: strconv.Itoa(s.MaxIter)},
		figures.BenchSetting{Name: "escape rounds per run", Value: strconv.Itoa(s.MaxEscapes)},
	)
}
