package reproduction

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Report is every value the reproduction report states, computed on one
// run with packages sod and sod/experiments, beside the paper's printed
// values it is compared with (package paper), and a verdict (a bool) for
// every claim. It is plain data: WriteMarkdown words it. A section that
// Options did not ask for is nil.
type Report struct {
	RealWorld  *RealWorldValues
	Ablation   *AblationValues
	PMC        *PMCValues
	Basic      *BasicValues
	SingleStep *SingleStepValues
	PZ         *PZValues
	Study      *StudyValues
	QNN        *QNNValues
}

// A Section is one value table of the report: a case or experiment of the
// paper (see the package documentation for where each is in the paper).
type Section int

// The sections, in the order of the report.
const (
	SectionRealWorld    Section = iota + 1 // the real-world case (Appendix, case study 2)
	SectionAblation                        // the ablation table (Appendix)
	SectionPMC                             // perturbed matrix completion (Appendix, case study 1)
	SectionBasic                           // the basic example (§1.1)
	SectionSingleStep                      // single-step SOD, the Case 1 recipe (§4.2)
	SectionPaleyZygmund                    // the moments of S and the Paley–Zygmund bound (§4.3)
	SectionStudy                           // the success-rate study (§6.2)
	SectionQNN                             // the quadratic network on Iris (§6.3)
)

// sectionInfo describes a Section: its anchor in the report (String),
// what it computes (for errors), how, and whether a Report holds it.
type sectionInfo struct {
	id, what string
	compute  func(context.Context, *Report) error
	done     func(*Report) bool
}

func newSection[T any](id, what string, field func(*Report) **T, compute func(context.Context) (*T, error)) sectionInfo {
	return sectionInfo{id, what,
		func(ctx context.Context, r *Report) (err error) {
			*field(r), err = compute(ctx)
			return err
		},
		func(r *Report) bool { return *field(r) != nil }}
}

// sections describes each Section, by its value.
var sections = []sectionInfo{
	SectionRealWorld:    newSection("real-world", "real-world case", func(r *Report) **RealWorldValues { return &r.RealWorld }, computeRealWorld),
	SectionAblation:     newSection("ablation", "ablation table", func(r *Report) **AblationValues { return &r.Ablation }, computeAblation),
	SectionPMC:          newSection("pmc", "PMC case", func(r *Report) **PMCValues { return &r.PMC }, computePMC),
	SectionBasic:        newSection("basic", "basic example", func(r *Report) **BasicValues { return &r.Basic }, computeBasic),
	SectionSingleStep:   newSection("single-step", "single-step SOD", func(r *Report) **SingleStepValues { return &r.SingleStep }, computeSingleStep),
	SectionPaleyZygmund: newSection("paley-zygmund", "Paley–Zygmund", func(r *Report) **PZValues { return &r.PZ }, computePZ),
	SectionStudy:        newSection("study", "success rates", func(r *Report) **StudyValues { return &r.Study }, computeStudy),
	SectionQNN:          newSection("qnn", "quadratic network", func(r *Report) **QNNValues { return &r.QNN }, computeQNN),
}

// AllSections are the report's sections in order.
func AllSections() []Section {
	all := make([]Section, 0, len(sections)-1)
	for s := SectionRealWorld; int(s) < len(sections); s++ {
		all = append(all, s)
	}
	return all
}

func (s Section) valid() bool { return s >= SectionRealWorld && int(s) < len(sections) }

// String returns the section's anchor in the report ("real-world",
// "ablation", …).
func (s Section) String() string {
	if !s.valid() {
		return fmt.Sprintf("Section(%d)", int(s))
	}
	return sections[s].id
}

// Options selects what Compute computes.
type Options struct {
	// Sections are the sections to compute, each at most once; nil or
	// empty computes all of them (WriteMarkdown needs all).
	Sections []Section
}

// Validate reports an error naming the first section that is out of
// range or listed twice.
func (o Options) Validate() error {
	for i, s := range o.Sections {
		if !s.valid() {
			return fmt.Errorf("reproduction: section %d (%v) out of range: want one of %s", int(s), s, sectionList())
		}
		if slices.Contains(o.Sections[:i], s) {
			return fmt.Errorf("reproduction: section %v listed twice", s)
		}
	}
	return nil
}

func sectionList() string {
	var ids []string
	for _, s := range AllSections() {
		ids = append(ids, fmt.Sprintf("%d (%v)", int(s), s))
	}
	return strings.Join(ids, ", ")
}

// Compute computes the sections opts asks for (all by default): every
// experiment they rest on is run afresh, deterministically (seeded), so
// two calls return the same values. The whole report takes a few seconds
// on one core. It stops with ctx's error when ctx is done.
func Compute(ctx context.Context, opts Options) (*Report, error) {
	if ctx == nil {
		return nil, errors.New("reproduction: nil context")
	}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	want := opts.Sections
	if len(want) == 0 {
		want = AllSections()
	}
	r := &Report{}
	for _, s := range AllSections() {
		if !slices.Contains(want, s) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := sections[s].compute(ctx, r); err != nil {
			return nil, fmt.Errorf("reproduction: %s: %w", sections[s].what, err)
		}
	}
	return r, nil
}

// missing returns the sections r lacks.
func (r *Report) missing() []Section {
	var out []Section
	for _, s := range AllSections() {
		if !sections[s].done(r) {
			out = append(out, s)
		}
	}
	return out
}

// ripStarts and ripSeed are the settings of the δ_p estimates by
// optimisation (Nelder–Mead from 40 seeded starts).
const (
	ripStarts = 40
	ripSeed   = 1
)
