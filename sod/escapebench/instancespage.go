package escapebench

import (
	"bytes"
	"fmt"
	"io"
	"strconv"

	"sodworkbench.org/workbench/sod/quote"
)

// InstancesPageFile is the name of WriteInstancesPage's page in the output
// folder of `reproduce bench -instances-only`.
const InstancesPageFile = "bench-instances.md"

// WriteInstancesPage writes the markdown page of a suite's instances alone
// (GenerateInstances; `reproduce bench -instances-only`, e.g. the committed
// sod/escapebench/RESULTS-large.md): the command, the suite's Settings,
// the instances per family with the dropped points' reasons, the families
// table and Features of WriteSummaryPage, every instance's certificate,
// the wall time with the CPU and the load, and the environment. Runs in
// sr, if any, are not shown.
func WriteInstancesPage(w io.Writer, spec Spec, sr *SuiteRun, info PageInfo) error {
	if err := checkWriter("WriteInstancesPage", w); err != nil {
		return err
	}
	if sr == nil || sr.Instances == nil {
		return fmt.Errorf("%w: WriteInstancesPage: no instances (nil *SuiteRun or nil Instances)", ErrBadBench)
	}
	var b bytes.Buffer
	writePageHead(&b, "Escape benchmark: certified instances", info)
	b.WriteString("The spurious second-order points of the suite's families, found by gradient descent and certified\n")
	b.WriteString("(Certify: ‖∇h‖_F ≤ 1e-5, λ_min(∇²h) ≥ −1e-5, ‖X̂X̂ᵀ − M*‖_F ≥ 0.02, h above h(M*) and a continued\n")
	b.WriteString("descent that does not lower h by 10 %), with no method run: X̂ and the seeds are in\n")
	b.WriteString("bench-instances.json (InstanceInfo says how to rebuild and re-certify them). The PMC instances are\n")
	b.WriteString("re-certified from their definition, apart from the certificate's code, by\n")
	b.WriteString("`SOD_BENCH_INSTANCES=<out>/bench-instances.json go test ./sod/escapebench -run TestInstancesFileCertifiedIndependently -v`.\n\n")
	writeSettings(&b, spec)
	writeInstanceSections(&b, spec, sr)
	b.WriteString("\n## Certificates\n\nPer instance: ‖∇h(X̂)‖_F, λ_min(∇²h(X̂)) (by Lanczos on Hessian–vector products or a dense\neigendecomposition), h(X̂), h(X̂) − h(M*), ‖X̂X̂ᵀ − M*‖_F, the continued descent (steps of the\ninstance's step η, and h after them) and the kind:\n\n")
	b.WriteString("| family | instance | ‖∇h‖_F | λ_min | λ_min by | h | h − h(M*) | ‖X̂X̂ᵀ − M*‖_F | η | descent steps | h after | kind |\n|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---|\n")
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }
	for _, in := range sr.Instances {
		c := in.Cert
		by := "dense"
		if c.Lanczos {
			by = "Lanczos"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %d | %s | %s |\n", quote.Markdown(in.Family), quote.Markdown(in.Name),
			g(c.GradNorm), g(c.MinHessEig), by, g(c.H), g(c.H-c.HStar), g(c.Dist), g(in.Step), c.DescentSteps, g(c.HDescent), c.Kind)
	}
	fmt.Fprintf(&b, "\n%d certified instances, %d points dropped", len(sr.Instances), len(sr.Dropped))
	if info.Wall > 0 {
		fmt.Fprintf(&b, "; wall time of the command %s", fmtDur(info.Wall))
		if info.Env.CPU != "" {
			fmt.Fprintf(&b, " on %s (%d CPUs; the families are generated one after another, on one core)", quote.Markdown(info.Env.CPU), info.Env.NumCPU)
		}
		if info.Load != "" {
			fmt.Fprintf(&b, ", load average at its end %s (1, 5, 15 min)", quote.Markdown(info.Load))
		}
	}
	b.WriteString(".\n\n")
	writeEnvironment(&b, info.Env.Pairs())
	_, err := w.Write(b.Bytes())
	return err
}
