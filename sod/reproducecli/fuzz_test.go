package reproducecli

import (
	"errors"
	"flag"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// FuzzPlan: any experiment line (arguments separated by NUL) is either a
// plan of registered, distinct experiments, the help, or a usage error with
// a message — never a panic or another kind of error. plan has no side
// effect (it creates no file; run does, after it).
func FuzzPlan(f *testing.F) {
	for _, seed := range []string{
		"", "all", "basic", "bogus", "-h", "study\x00-h", "-ts\x00nan\x00ablation", "-ts\x002e6,1e300\x00ablation",
		"-trials\x002\x00-sizes\x0010\x00study", "-sizes\x00,\x00study", "-eps\x00inf\x00study", "-ls\x004\x00ablation",
		"-seed\x0018446744073709551615\x00basic", "-seed\x00-1\x00qnn", "--\x00-quiet", "basic\x00basic", "all\x00basic",
		"-rank\x0011\x00-sizes\x0010\x00study", "-workers=0\x00-step=0.5\x00study", "-format=csv\x00pmc\x00realworld",
		"-out=\x00basic", "-quiet=maybe\x00basic", "-trials\x00", "-ts\x00-inf\x00ablation",
		"-sizes\x0010,20,10\x00study", "-eps\x000.1,0.10\x00study", "-ls\x003,3\x00ablation", "-ts\x001e3,1000\x00ablation",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, "\x00")
		if len(args) > 0 && subcommands[args[0]] != nil {
			return // a subcommand parses its own line
		}
		p, err := plan(args, io.Discard, io.Discard)
		var ue *usageError
		switch {
		case err == nil:
			if len(p.runs) == 0 || len(p.runs) != len(p.names) {
				t.Fatalf("%q: plan with %d runs for %q", args, len(p.runs), p.names)
			}
			for i, n := range p.names {
				if experimentsByName[n] == nil || slices.Contains(p.names[:i], n) {
					t.Fatalf("%q: plan names %q", args, p.names)
				}
			}
			if p.c.out == "" {
				t.Fatalf("%q: empty output directory accepted", args)
			}
		case errors.Is(err, flag.ErrHelp):
		case errors.As(err, &ue):
			if ue.Error() == "" || exitCode(err) != 2 {
				t.Fatalf("%q: usage error %q, exit %d", args, err, exitCode(err))
			}
		default:
			t.Fatalf("%q: error %v is not a usage error", args, err)
		}
	})
}

// FuzzParseIntIn: the range-checked integer parser accepts exactly the
// integers (or float spellings of integers) in [min, max], and its errors
// name the range.
func FuzzParseIntIn(f *testing.F) {
	for _, s := range []string{"0", "1", "2e6", "nan", "inf", "-inf", "1e300", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "2.5", " 7 ", "0x10", ""} {
		f.Add(s, int64(1), int64(1e15))
	}
	f.Add("9.3e18", int64(math.MinInt64), int64(math.MaxInt64))
	f.Add("9223372036854775808e0", int64(math.MinInt64), int64(math.MaxInt64))
	f.Fuzz(func(t *testing.T, s string, lo, hi int64) {
		if lo > hi {
			lo, hi = hi, lo
		}
		v, err := parseIntIn(s, lo, hi, "an integer")
		if err != nil {
			if !strings.Contains(err.Error(), "want an integer in [") {
				t.Fatalf("%q in [%d, %d]: error %q does not name the range", s, lo, hi, err)
			}
			return
		}
		if v < lo || v > hi {
			t.Fatalf("%q in [%d, %d]: accepted %d", s, lo, hi, v)
		}
		if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err != nil || float64(v) != f {
			t.Fatalf("%q in [%d, %d]: accepted as %d", s, lo, hi, v)
		}
	})
}
