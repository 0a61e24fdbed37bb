package escapebench

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod"
)

// Each run says what happened in each round: the SOD line search's
// accepted candidate is a β or γ point of its grid, with its line and t,
// and its label says the same; gd-alone proposes nothing.
func TestEscapeRounds(t *testing.T) {
	fi, err := Instances(context.Background(), PaperFamily{}, 1, 3, CertifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ms := BuiltinMethods()
	ls, gd := ms[2], ms[7]
	if ls.Name != "sod-line-search" || gd.Name != "gd-alone" {
		t.Fatalf("methods %s, %s", ls.Name, gd.Name)
	}
	accepted := 0
	for _, in := range fi.Instances {
		r, err := RunTrial(context.Background(), in, ls, 0, 1, DefaultTrialOptions())
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Escapes) != r.Rounds {
			t.Fatalf("%s: %d rounds, %d recorded", in.Name, r.Rounds, len(r.Escapes))
		}
		for _, e := range r.Escapes {
			if e.Accepted < 0 {
				continue
			}
			accepted++
			if e.Kind != "β" && e.Kind != "γ" || e.T <= 0 || (e.Line != "+" && e.Line != "−") || !strings.Contains(e.Label, e.Kind) || !(float64(e.H) < float64(e.HFrom)) || e.Proposed <= e.Accepted {
				t.Errorf("%s round %d: %+v", in.Name, e.Round, e)
			}
		}
		g, err := RunTrial(context.Background(), in, gd, 0, 1, DefaultTrialOptions())
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range g.Escapes {
			if e.Proposed != 0 || e.Accepted != -1 || e.Kind != "" {
				t.Errorf("gd-alone on %s: %+v", in.Name, e)
			}
		}
	}
	if accepted == 0 {
		t.Error("the SOD line search accepted no candidate on the paper's instances")
	}
}

// TestSummarizeRounds counts hand-made rounds: the kinds, lines and t of
// the accepted candidates, rounds with none and failed rounds, and an
// external method marked by its protocol parameter.
func TestSummarizeRounds(t *testing.T) {
	run := func(fam, m string, params map[string]string, es ...EscapeRound) *TrialResult {
		return &TrialResult{Family: fam, Instance: "i", Method: m, Params: params, Outcome: sod.Solved, H: 1, Dist: 1, Rounds: len(es), Escapes: es, Hits: []Hit{}}
	}
	beta := func(line string, tv int64, in bool) EscapeRound {
		return EscapeRound{Accepted: 0, Proposed: 4, Kind: "β", Line: line, T: tv, InInterval: in}
	}
	rs := []*TrialResult{
		run("pmc", "sod", nil, beta("+", 10, true), beta("−", 1000, false)),
		run("pmc", "sod", nil, EscapeRound{Accepted: 1, Proposed: 2, Kind: "γ", Line: "+", T: 100, InInterval: true}, EscapeRound{Accepted: -1}),
		run("pmc", "ext", map[string]string{execProtocolParam: "1"}, EscapeRound{Accepted: 0, Proposed: 1, Label: "u_n"}, EscapeRound{Accepted: -2}),
		run("paper", "sod", nil),
	}
	got, err := SummarizeRounds(rs)
	if err != nil {
		t.Fatal(err)
	}
	want := []RoundStats{
		{Family: "pmc", Method: "sod", Runs: 2, Rounds: 4, Accepted: 3, None: 1,
			Kinds: []KindCount{{"β+", 1}, {"β−", 1}, {"γ+", 1}}, T: TRange{N: 3, Median: 100, Min: 10, Max: 1000}, InInterval: 2},
		{Family: "pmc", Method: "ext", Runs: 1, Rounds: 2, Accepted: 1, Failed: 1, Unkinded: 1, External: true},
		{Family: "paper", Method: "sod", Runs: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("SummarizeRounds:\n got %+v\nwant %+v", got, want)
	}
	if _, err := SummarizeRounds([]*TrialResult{nil}); err == nil {
		t.Error("a nil run: no error")
	}
	if m := medianInt([]int64{1, 3, 10, 20}); m != 6.5 {
		t.Errorf("median of 1, 3, 10, 20 = %v, want 6.5", m)
	}
}
