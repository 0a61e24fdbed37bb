package escapebench

import (
	"context"
	"strings"
	"testing"
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
