package reproducecli

import (
	"fmt"
	"slices"
	"strings"

	"sodworkbench.org/workbench/sod/escapebench"
)

// methodOrExec is -method: an external method "exec:[NAME=]PROGRAM
// [ARG…]" (escapebench.ParseExecCommand), named in the spec's methods and
// its command in exec, or else a grid (methodGrid).
type methodOrExec struct {
	grid methodGrid
	exec *[]escapebench.ExecCommand
}

func (f methodOrExec) String() string { return "" }
func (f methodOrExec) Set(s string) error {
	if !strings.HasPrefix(s, escapebench.ExecPrefix) {
		return f.grid.Set(s)
	}
	c, err := escapebench.ParseExecCommand(s)
	if err != nil {
		return err
	}
	if slices.Contains(*f.grid.p, c.Name) {
		return fmt.Errorf("method %q named twice (name an external method with exec:NAME=PROGRAM)", c.Name)
	}
	*f.grid.p, *f.exec = append(*f.grid.p, c.Name), append(*f.exec, c)
	return nil
}
