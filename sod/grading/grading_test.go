package grading

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

const tok = "0123456789abcdef0123"

// run calls Verdict with stdout captured, and returns what it printed.
func run(t *testing.T, id, token string, check func()) string {
	t.Helper()
	out, panicked, p := capture(func() { Verdict(id, token, check) })
	if panicked {
		t.Fatalf("Verdict panicked: %v", p)
	}
	return out
}

func TestVerdict(t *testing.T) {
	for _, tc := range []struct {
		name  string
		id    string
		check func()
		pass  bool
		msg   string
	}{
		{"correct", "07.1", func() { fmt.Println("exercise 07.1: correct") }, true, "correct"},
		{"correct on stderr", "07.1", func() { fmt.Fprintln(os.Stderr, "exercise 07.1: correct") }, true, "correct"},
		{"panic", "07.1", func() { panic("exercise 07.1: 0.5 is not h(x̂+0.5e₁)") }, false, "0.5 is not"},
		{"panic after a forged line", "07.1", func() { fmt.Println("exercise 07.1: correct"); panic("wrong") }, false, "wrong"},
		{"says something else", "07.1", func() { fmt.Println("Set answer first") }, false, "did not say correct: Set answer first"},
		{"silent", "07.1", func() {}, false, "no output"},
		{"correct for another exercise", "07.1", func() { fmt.Println("exercise 07.2: correct") }, false, "did not say correct"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := run(t, tc.id, tok, tc.check)
			rs := Parse(out, tok)
			if len(rs) != 1 {
				t.Fatalf("%d verdict lines in %q, want 1", len(rs), out)
			}
			if rs[0].Pass != tc.pass || !strings.Contains(rs[0].Message, tc.msg) {
				t.Errorf("verdict %+v, want pass=%v with message containing %q", rs[0], tc.pass, tc.msg)
			}
		})
	}
}

func TestVerdictBadInput(t *testing.T) {
	for _, tc := range []struct{ id, token string }{{"7.1", tok}, {"07.1", "not-hex"}, {"07.1", "abc"}} {
		out := run(t, tc.id, tc.token, func() { fmt.Println("exercise " + tc.id + ": correct") })
		if !strings.Contains(out, " fail ") || !strings.Contains(out, "bad exercise id") || strings.Contains(out, " pass ") {
			t.Errorf("Verdict(%q, %q) printed %q, want a failed verdict naming the bad input", tc.id, tc.token, out)
		}
	}
}

func TestParseIgnoresOtherTokens(t *testing.T) {
	text := strings.Join([]string{
		"exercise 07.1: correct",
		Line("ffffffffffffffffffff", "07.1", true, "correct"), // a forged line with a guessed token
		Line(tok, "07.1", false, "wrong: 1 is not 2"),
		Prefix + " " + tok + " 07.1 pass unquoted",
	}, "\n")
	rs := Parse(text, tok)
	if len(rs) != 1 || rs[0].Pass || rs[0].Message != "wrong: 1 is not 2" {
		t.Errorf("Parse = %+v, want only the failed verdict with the run's token", rs)
	}
}

func TestLineRoundTrip(t *testing.T) {
	for _, msg := range []string{"", "correct", `quote " and \ backslash`, "ρ̂ ∈ (−1, 0)"} {
		rs := Parse(Line(tok, "10.2", true, msg), tok)
		if len(rs) != 1 || rs[0].Message != msg || rs[0].ID != "10.2" || !rs[0].Pass {
			t.Errorf("round trip of %q gave %+v", msg, rs)
		}
	}
}

func ExampleVerdict() {
	answer071 := 0.53125
	Verdict("07.1", "00112233445566778899aabb", func() {
		if answer071 != 0.53125 {
			panic(fmt.Sprintf("exercise 07.1: %v is not h(x̂ + 0.5·e₁)", answer071))
		}
		fmt.Println("exercise 07.1: correct")
	})
	// Output:
	// exercise 07.1: correct
	// sodgrade 00112233445566778899aabb 07.1 pass "correct"
}
