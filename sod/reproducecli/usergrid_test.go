package reproducecli_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/escapebench"
	"sodworkbench.org/workbench/sod/reproducecli"
)

// scaled is a user escaper with a table of settings: one, scale (> 0,
// default 1). It proposes nothing.
type scaled struct{ Scale float64 }

func (*scaled) Name() string { return "scaled" }
func (*scaled) Propose(context.Context, *sod.EscapeState) ([]sod.Candidate, error) {
	return nil, nil
}
func (e *scaled) Validate() error {
	if e.Scale < 0 {
		return errors.New("scale must be > 0")
	}
	return nil
}
func (e *scaled) Params() []sod.Param {
	return []sod.Param{sod.NewParam("scale", "step scale, > 0 (0: 1)", func() string {
		if e.Scale == 0 {
			return "1"
		}
		return strconv.FormatFloat(e.Scale, 'g', -1, 64)
	}, func(s string) error {
		v, err := strconv.ParseFloat(s, 64)
		e.Scale = v
		return err
	}, "s")}
}

// A Go method of one's own, given to Run (Main), takes the same -method
// grid and +key-value settings as a built-in one: its settings come from
// its table, declared once; a configuration is named canonically (scale 1
// is its default: "mine"), each runs, and a bad value is a usage error
// before any run.
func TestUserMethodGrid(t *testing.T) {
	mine := escapebench.ConfigurableMethod("mine", scaled{}, false, nil)
	out := t.TempDir()
	args := []string{"bench", "-profile", "quick", "-families", "paper", "-methods", "gd-alone", "-trials", "1", "-quiet", "-out", out,
		"-method", "mine:scale=1,2,0.5", "-method", "mine+S-3"}
	if err := reproducecli.Run(context.Background(), args, io.Discard, io.Discard, mine); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "bench-results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"mine", "mine+scale-2", "mine+scale-0.5", "mine+scale-3", "gd-alone"} {
		if got := strings.Count(string(b), ","+m+","); got != 3 {
			t.Errorf("%d runs of %s, want 3 (one per paper instance)", got, m)
		}
	}
	j, err := os.ReadFile(filepath.Join(out, "bench-results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`"scale":\s*"0.5"`).Match(j) {
		t.Error("the runs do not record the setting read back from the escaper (scale 0.5)")
	}
	for _, bad := range []string{"mine:scale=x", "mine:scale=-1", "mine:speed=2", "mine+scale-2+scale-3"} {
		err := reproducecli.Run(context.Background(), []string{"bench", "-profile", "quick", "-quiet", "-out", t.TempDir(), "-method", bad}, io.Discard, io.Discard, mine)
		if reproducecli.ExitCode(err) != 2 {
			t.Errorf("-method %s: %v (exit %d), want a usage error", bad, err, reproducecli.ExitCode(err))
		}
	}
}
