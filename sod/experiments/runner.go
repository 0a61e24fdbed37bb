package experiments

import (
	"context"
	"fmt"

	"sodworkbench.org/workbench/sod"
)

// checkContext refuses a nil ctx (an error wrapping sod.ErrBadParameter
// naming the runner) rather than letting the run panic on it.
func checkContext(ctx context.Context, runner string) error {
	if ctx == nil {
		return fmt.Errorf("%w: %s needs a context, got nil (use context.Background())", sod.ErrBadParameter, runner)
	}
	return nil
}
