package reproducecli_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"sodworkbench.org/workbench/sod"
	"sodworkbench.org/workbench/sod/escapebench"
	"sodworkbench.org/workbench/sod/reproducecli"
)

// A Go escape method gets the whole command from a main of a few lines:
// reproducecli.Main(mine) in it, or, as here, Run with the arguments. The
// method is named once (in the Method) and runs in the profile beside the
// built-in methods.
func ExampleRun() {
	mine := escapebench.EscaperMethod("mine", nil, func(escapebench.CertifiedInstance, uint64) sod.Escaper {
		return &sod.NegGradLineSearch{}
	})
	out, _ := os.MkdirTemp("", "bench")
	defer os.RemoveAll(out)
	args := []string{"bench", "-profile", "quick", "-families", "paper", "-trials", "1", "-quiet", "-out", out}
	if err := reproducecli.Run(context.Background(), args, io.Discard, io.Discard, mine); err != nil {
		fmt.Println(err, reproducecli.ExitCode(err))
		return
	}
	b, _ := os.ReadFile(filepath.Join(out, "bench-results.csv"))
	fmt.Println("runs of mine:", strings.Count(string(b), ",mine,"))
	// Output: runs of mine: 3
}
