package escapebench

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"sodworkbench.org/workbench/sod/quote"
)

// shellWord quotes s for a POSIX shell if it needs it. The page shows the
// command inside an HTML comment on one line, so a word with a control
// character, '<' or '>' (a line break, or "-->" that would end the
// comment) is written in $'…' quoting with those bytes as \xHH, which
// reads back as the same word.
func shellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:,=+@%", r))
	}) < 0 {
		return s
	}
	if strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '<' || r == '>' }) < 0 {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c == 0x7f || c == '<' || c == '>' || c == '\'' || c == '\\':
			fmt.Fprintf(&b, "\\x%02x", c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteString("'")
	return b.String()
}

// PageInfo is what WriteSummaryPage says of the command that produced
// the runs.
type PageInfo struct {
	// Command is the command line, word by word (quoted for a POSIX shell
	// on the page), e.g. go run ./sod/cmd/reproduce bench -workers 2.
	Command []string
	Wall    time.Duration // wall time of the command; 0 if unknown (merge, resumed)
	Workers int
	// Load is the machine's load averages (1, 5, 15 min) when the command
	// ended, as host.LoadAverage gives them; "" if unknown. Wall time on a
	// machine shared with other work is read beside it.
	Load string
	Env  Env // the environment of the command (CurrentEnv)
	// Shards are the environments of the shards of a merged run
	// (Shards[k] ran shard k/N, from its journal's header; ShardPairs).
	Shards []Env
}

// WriteSummaryPage writes the markdown results page of a complete suite
// (bench-summary.md; the committed sod/escapebench/RESULTS.md that the
// README shows): the command, the suite's Settings, the instances per
// family with the dropped points' reasons (if sr.Instances is not nil),
// the instances' Features with what they explain, the at-a-glance table
// (one row per method, one column per family: success and aRT), the
// measured time, the aRT to every target and the paired comparisons per
// family, the table of WriteSummaryMarkdown and the environment. ss are
// the summaries of sr.Runs (Summarize) and as their analyses (Analyze),
// computed once by the caller for every output.
func WriteSummaryPage(w io.Writer, spec Spec, sr *SuiteRun, ss []Summary, as []FamilyAnalysis, info PageInfo) error {
	if err := checkWriter("WriteSummaryPage", w); err != nil {
		return err
	}
	if sr == nil {
		return fmt.Errorf("%w: WriteSummaryPage: nil *SuiteRun", ErrBadBench)
	}
	rs, in := sr.Runs, sr
	var b bytes.Buffer
	writePageHead(&b, "Escape benchmark: results", info)
	b.WriteString("Every method is run from certified spurious second-order points of each family (package\n")
	b.WriteString("`sod/escapebench`); a run succeeds when it ends with ‖XXᵀ − M*‖_F < 0.02. Seeded methods run\n")
	fmt.Fprintf(&b, "%d trials per instance, deterministic ones once. The success rate over runs has a 95 %% Wilson\n", spec.Trials)
	b.WriteString("interval that treats runs as independent; runs on one instance are not, so the table also\n")
	b.WriteString("counts instances: escaped by at least one run / by every run / all, with the 95 % Wilson\n")
	b.WriteString("interval over instances. Costs are in ∇h-equivalents (one evaluation of h and ∇h; an h evaluation,\n")
	fmt.Fprintf(&b, "a Hessian–vector product and an eigen-solve count %g, %g and %g, CostWeights), with CPU time beside.\n", DefaultCostWeights.H, DefaultCostWeights.HessVec, DefaultCostWeights.Eigen)
	b.WriteString("Each run records its cost at its first hit of every target of a ladder (distance to M* and h);\n")
	b.WriteString("aRT, the average runtime of COCO, is the cost of all runs (failed ones in full) divided by the\n")
	b.WriteString("runs that reached the target. A method's judge says how it accepts a candidate: raw-h (h of the\n")
	b.WriteString("candidate, the paper's rule) or gd-probe (h after a gradient descent phase from it).\n\n")
	writeSettings(&b, spec)
	writeInstanceSections(&b, spec, in)
	// Only measured CPU times are summed (−1: not measurable here).
	var cpu time.Duration
	measured := 0
	for _, r := range rs {
		if r.Cost.CPU >= 0 {
			cpu += r.Cost.CPU
			measured++
		}
	}
	b.WriteString("\n## At a glance\n\n")
	writeGlance(&b, spec, ss, as)
	fmt.Fprintf(&b, "\n%d runs; CPU time of the runs %s", len(rs), fmtDur(cpu))
	if measured < len(rs) {
		fmt.Fprintf(&b, " (measured on %d of them)", measured)
	}
	if info.Env.CPU != "" { // times belong to a CPU: name it beside them
		fmt.Fprintf(&b, " on %s (%d CPUs)", quote.Markdown(info.Env.CPU), info.Env.NumCPU)
	}
	if info.Wall > 0 {
		fmt.Fprintf(&b, "; wall time of the command %s with -workers %d", fmtDur(info.Wall), info.Workers)
		if info.Load != "" {
			fmt.Fprintf(&b, ", load average at its end %s (1, 5, 15 min)", quote.Markdown(info.Load))
		}
	}
	b.WriteString(".\n")
	writeTargets(&b, as)
	writePaired(&b, as)
	b.WriteString("\n## Results\n\n")
	if err := WriteSummaryMarkdown(&b, ss); err != nil {
		return err
	}
	if note := sizeLimitNote(spec.Methods); note != "" {
		b.WriteString("\n" + note + "\n")
	}
	b.WriteString("\n")
	writeEnvironment(&b, append(info.Env.Pairs(), ShardPairs(info.Shards)...))
	_, err := w.Write(b.Bytes())
	return err
}

// lowerBound prints v to 3 significant digits rounded down (toward −∞),
// so that "≥ lowerBound(min)" is true of every value ≥ min: 0.808 stays
// 0.808, 0.8089 is 0.808, never 0.81.
func lowerBound(v float64) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	e := math.Floor(math.Log10(math.Abs(v))) - 2
	p := math.Pow(10, e)
	f := math.Floor(v/p) * p
	if f > v { // v/p rounded up in floating point
		f -= p
	}
	return strconv.FormatFloat(f, 'g', 3, 64)
}

// successIndex is the index of the success target in ts (the absolute
// distance target), −1 if none.
func successIndex(ts []Target) int {
	for k, t := range ts {
		if t.Of == TargetDist && !t.Relative {
			return k
		}
	}
	return -1
}

// fmtCost prints a cost in ∇h-equivalents with 3 digits, ∞ for no hit.
func fmtCost(v OptFloat) string {
	switch x := float64(v); {
	case math.IsInf(x, 1):
		return "∞"
	case math.IsNaN(x):
		return "–"
	case x < 1e5:
		return fmt.Sprintf("%.0f", x)
	default:
		return fmt.Sprintf("%.3g", x)
	}
}

// writeTargets writes per family the aRT of every method to every target.
func writeTargets(b *bytes.Buffer, as []FamilyAnalysis) {
	if len(as) == 0 {
		return
	}
	b.WriteString("\n## Runtime to targets\n\naRT in ∇h-equivalents to each target of the ladder (∞: no run reached it).\n")
	for _, a := range as {
		fmt.Fprintf(b, "\n%s:\n\n| method |", quote.Markdown(a.Family))
		for _, t := range a.Targets {
			fmt.Fprintf(b, " %s |", quote.Markdown(t.String()))
		}
		b.WriteString("\n|---|" + strings.Repeat("---:|", len(a.Targets)) + "\n")
		for mi, m := range a.Methods {
			fmt.Fprintf(b, "| %s |", quote.Markdown(m))
			for k := range a.Targets {
				fmt.Fprintf(b, " %s |", fmtCost(a.ART[mi][k]))
			}
			b.WriteString("\n")
		}
	}
}

// writePaired writes per family McNemar's test of every method against
// the one that solves most instances.
func writePaired(b *bytes.Buffer, as []FamilyAnalysis) {
	if len(as) == 0 {
		return
	}
	b.WriteString("\n## Paired comparison\n\nPer family, each method against the one that solves most problems (solved: at least half of\nits runs succeed), on the problems both ran: problems solved by the best only / by the method only,\nand the two-sided exact McNemar p-value. Instances equal up to the problem's symmetry (the sign of\nX̂ and, for PMC, permutations that keep Ω and M*) are one problem, counted once with their runs\npooled; the other tables count instances.\n\n")
	for _, a := range as {
		if a.Distinct < len(a.Instances) {
			fmt.Fprintf(b, "- %s: %d instances, %d distinct problems.\n", quote.Markdown(a.Family), len(a.Instances), a.Distinct)
		}
	}
	b.WriteString("\n| family | method | best | problems | best only | method only | p |\n|---|---|---|---:|---:|---:|---:|\n")
	for _, a := range as {
		for _, p := range a.Paired {
			fmt.Fprintf(b, "| %s | %s | %s | %d | %d | %d | %.2g |\n", quote.Markdown(a.Family), quote.Markdown(p.Method), quote.Markdown(p.Best), p.Instances, p.OnlyBest, p.OnlyMethod, p.P)
		}
	}
}

// writeFeatures writes per family the range of each instance feature
// and what the features say of the SOD methods.
func writeFeatures(b *bytes.Buffer, spec Spec, insts []InstanceInfo) {
	b.WriteString("\n## Instance features\n\nPer family, the range (min / median / max) over the instances of the Features stored with each\ninstance in bench-instances.json:\n\n")
	b.WriteString("| family | " + strings.Join(FeatureNames, " | ") + " |\n|---|" + strings.Repeat("---|", len(FeatureNames)) + "\n")
	var notes []string
	for _, f := range spec.Families {
		var vals [][]float64
		for _, in := range insts {
			if in.Family == f {
				vals = append(vals, in.Features.Values())
			}
		}
		if len(vals) == 0 {
			continue
		}
		fmt.Fprintf(b, "| %s |", quote.Markdown(f))
		for j := range FeatureNames {
			var col []float64
			for _, v := range vals {
				if !math.IsNaN(v[j]) {
					col = append(col, v[j])
				}
			}
			if len(col) == 0 {
				b.WriteString(" – |")
				continue
			}
			slices.Sort(col)
			med, _ := Quantile(col, 0.5)
			fmt.Fprintf(b, " %.3g / %.3g / %.3g |", col[0], med, col[len(col)-1])
		}
		b.WriteString("\n")
		notes = append(notes, featureSentences(f, vals)...)
	}
	if len(notes) > 0 {
		b.WriteString("\n" + strings.Join(notes, "\n") + "\n")
	}
}

// featureSentences says in words what the features of one family's
// instances imply for the SOD methods. Every number in a sentence is a
// bound computed from vals and printed rounded in the bound's direction
// (lowerBound), so that the sentence stays true as printed.
func featureSentences(f string, vals [][]float64) []string {
	n := len(vals)
	var lineUp, efsLow int
	minDelta := math.Inf(1)
	minLine := math.Inf(1)
	for _, v := range vals {
		if v[0] >= 1 && v[1] >= 1 {
			lineUp++
			minLine = math.Min(minLine, math.Min(v[0], v[1]))
		}
		if v[2] <= 1 {
			efsLow++
		}
		if !math.IsNaN(v[4]) {
			minDelta = math.Min(minDelta, v[4])
		}
	}
	var out []string
	fam := quote.Markdown(f)
	switch {
	case lineUp == n:
		out = append(out, fmt.Sprintf("- %s: on all %d instances the minimum of h over the whole β and γ lines is at least %s·h(X̂): no SOD candidate (any t, l, ρ, η) lowers h, so SOD judged by raw h (the paper's rule) cannot escape them (compare the same methods judged after a GD probe, +probe).", fam, n, lowerBound(minLine)))
	case lineUp > 0:
		out = append(out, fmt.Sprintf("- %s: on %d of %d instances no point of the β or γ line lowers h (SOD judged by raw h cannot escape them); on the others some line point does.", fam, lineUp, n))
	default:
		out = append(out, fmt.Sprintf("- %s: on every instance some point of the β or γ line lowers h, so SOD's lines can escape by raw h.", fam))
	}
	if efsLow == n {
		out = append(out, fmt.Sprintf("- %s: EFS(0) ≤ 1 on all %d instances, so single-step SOD certifies no escape for any δ.", fam, n))
	}
	if !math.IsInf(minDelta, 1) {
		out = append(out, fmt.Sprintf("- %s: the certificates give δ_2r ≥ 1 − 2h/d² ≥ %s on every instance: a guarantee that assumes a smaller RIP constant says nothing about them.", fam, lowerBound(minDelta)))
	}
	return out
}

// glanceHead opens the "At a glance" block of the summary page.
const glanceHead = "Success rate over runs [95 % Wilson interval] · aRT to success in ∇h-equivalents (failed runs charged; ∞: no success)."

// writeGlance writes one row per method and one column per family: the
// success rate over runs with its 95 % Wilson interval, and the median
// number of gradient evaluations of the successful runs.
func writeGlance(b *bytes.Buffer, spec Spec, ss []Summary, as []FamilyAnalysis) {
	cell := map[[2]string]Summary{}
	judge := map[string]JudgingRule{}
	for _, s := range ss {
		cell[[2]string{s.Method, s.Family}] = s
		judge[s.Method] = s.Judge
	}
	art := map[[2]string]OptFloat{}
	for _, a := range as {
		if k := successIndex(a.Targets); k >= 0 {
			for mi, m := range a.Methods {
				art[[2]string{m, a.Family}] = a.ART[mi][k]
			}
		}
	}
	b.WriteString(glanceHead + "\n\n| method | judge |")
	for _, f := range spec.Families {
		fmt.Fprintf(b, " %s |", quote.Markdown(f))
	}
	b.WriteString("\n|---|---|")
	for range spec.Families {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	na, anyAgree := false, false
	for _, m := range spec.Methods {
		fmt.Fprintf(b, "| %s | %v |", quote.Markdown(m), judge[m])
		for _, f := range spec.Families {
			s, ok := cell[[2]string{m, f}]
			a, hasART := art[[2]string{m, f}]
			g := "–"
			if hasART {
				g = fmtCost(a)
			}
			switch {
			case !ok || s.Trials == 0:
				// No run: the method does not apply to any instance of
				// the family (Method.MaxN), or this is a shard.
				b.WriteString(" n/a |")
				na = true
			default:
				agree := ""
				if s.RunsAgree {
					agree, anyAgree = "‡", true
				}
				fmt.Fprintf(b, " %.0f %% [%.0f, %.0f]%s · %s |", 100*s.Rate, 100*s.RateLo, 100*s.RateHi, agree, g)
			}
		}
		b.WriteString("\n")
	}
	if anyAgree {
		b.WriteString("\n‡: the method's runs agree on every instance (all succeed or all fail), so repeating them adds no information: the interval is over instances, not over runs.\n")
	}
	switch note := sizeLimitNote(spec.Methods); {
	case na:
		b.WriteString("\nn/a: no run. " + note + "\n")
	case note != "":
		b.WriteString("\n" + note + "\n")
	}
}

// sizeLimitNote says which of the named methods are not run above a size
// (Method.MaxN), or "" if none is limited.
func sizeLimitNote(methods []string) string {
	want := map[string]bool{}
	for _, m := range methods {
		want[m] = true
	}
	byN := map[int][]string{}
	var ns []int
	for _, m := range BuiltinMethods() {
		if want[m.Name] && m.MaxN > 0 {
			if byN[m.MaxN] == nil {
				ns = append(ns, m.MaxN)
			}
			byN[m.MaxN] = append(byN[m.MaxN], m.Name)
		}
	}
	var parts []string
	for _, n := range ns {
		parts = append(parts, fmt.Sprintf("%s: not run above n = %d (dense n×n arrays)", strings.Join(byN[n], ", "), n))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + "; the runs and instances counted for these methods are those at or below it."
}

// fmtDur prints d to 3 digits below a minute ("412 ms", "3.21 s"), to
// the second above ("17m16s").
func fmtDur(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%.3g ms", float64(d)/float64(time.Millisecond))
	case d < time.Minute:
		return fmt.Sprintf("%.3g s", d.Seconds())
	default:
		return d.Round(time.Second).String()
	}
}

// roundDur prints d to the second (1m05s), for the progress line.
func roundDur(d time.Duration) string { return d.Round(time.Second).String() }

// writeInstanceSections writes the instances per family with the dropped
// points' reasons, the families table and the Features (bench-instances.json)
// of in, if in.Instances is not nil.
func writeInstanceSections(b *bytes.Buffer, spec Spec, in *SuiteRun) {
	// Instances and dropped points (bench-instances.json).
	if in.Instances != nil {
		b.WriteString("\n## Instances\n\nCertified spurious points per family (certificates in bench-instances.json: ‖∇h‖_F, λ_min(∇²h), h,\n‖X̂X̂ᵀ − M*‖_F, kind) and generated points dropped by the certificate:\n\n")
		b.WriteString("| family | certified | strict local minima | degenerate | dropped |\n|---|---:|---:|---:|---:|\n")
		for _, f := range spec.Families {
			var c, strict, deg, d int
			for _, x := range in.Instances {
				if x.Family == f {
					c++
					if x.Cert.Kind == StrictLocalMin {
						strict++
					} else {
						deg++
					}
				}
			}
			for _, x := range in.Dropped {
				if x.Family == f {
					d++
				}
			}
			fmt.Fprintf(b, "| %s | %d | %d | %d | %d |\n", quote.Markdown(f), c, strict, deg, d)
		}
		for _, x := range in.Dropped {
			fmt.Fprintf(b, "\n- dropped %s / %s: %s", quote.Markdown(x.Family), quote.Markdown(x.Name), quote.Markdown(x.Reason))
		}
		if len(in.Dropped) > 0 {
			b.WriteString("\n")
		}
	}
	if in.Instances != nil {
		writeFamilyCells(b, spec, in.Instances)
		writeFeatures(b, spec, in.Instances)
	}
}

// writePageHead writes a generated page's title and the comment naming
// the command that wrote it (info.Command, quoted for a shell).
func writePageHead(b *bytes.Buffer, title string, info PageInfo) {
	var words []string
	for _, a := range info.Command {
		words = append(words, shellWord(a))
	}
	fmt.Fprintf(b, "# %s\n\n<!-- Generated by `%s`; do not edit by hand. -->\n\n", title, strings.Join(words, " "))
}

// writeSettings writes the suite's parameters (Spec.Settings) as the
// page's "Suite" table.
func writeSettings(b *bytes.Buffer, spec Spec) {
	b.WriteString("## Suite\n\n| parameter | value |\n|---|---|\n")
	for _, s := range spec.Settings() {
		fmt.Fprintf(b, "| %s | %s |\n", quote.Markdown(s.Name), quote.Markdown(s.Value))
	}
}

// writeEnvironment writes the page's "Environment" table.
func writeEnvironment(b *bytes.Buffer, pairs [][2]string) {
	b.WriteString("## Environment\n\n| | |\n|---|---|\n")
	for _, kv := range pairs {
		fmt.Fprintf(b, "| %s | %s |\n", quote.Markdown(kv[0]), quote.Markdown(kv[1]))
	}
}
