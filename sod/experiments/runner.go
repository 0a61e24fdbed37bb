package experiments

import (
	"context"
	"fmt"
)

// checkContext refuses a nil ctx (an error wrapping ErrBadExperiment
// naming the runner) rather than letting the run panic on it.
func checkContext(ctx context.Context, runner string) error {
	if ctx == nil {
		return fmt.Errorf("%w: %s needs a context, got nil (use context.Background())", ErrBadExperiment, runner)
	}
	return nil
}
