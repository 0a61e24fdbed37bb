package escapebench

import (
	"errors"
	"fmt"

	"sodworkbench.org/workbench/sod/internal/resultcache"
)

// Remember keeps run, the run of the suite built from spec, for the later
// cells of a notebook session; Remembered(spec) gives it back without
// running the suite again. Under GoNB (and in the live book) every cell is
// a program of its own, so this is how a run reaches the cells that
// analyse it without the notebook writing a file (package
// sod/internal/resultcache: the session's cache, keyed by spec). Outside a
// notebook session it keeps nothing. spec names the methods, so give your
// own method a new name, or rerun the cell that runs the suite, when you
// change it.
func Remember(spec Spec, run *SuiteRun) error {
	if run == nil {
		return fmt.Errorf("%w: Remember: nil *SuiteRun", ErrBadBench)
	}
	return resultcache.Store("escapebench.SuiteRun", spec, run)
}

// Remembered returns the run Remember kept for spec in this notebook
// session, or an error saying to run the suite first.
func Remembered(spec Spec) (*SuiteRun, error) {
	var run SuiteRun
	if err := resultcache.Load("escapebench.SuiteRun", spec, &run); err != nil {
		if errors.Is(err, resultcache.ErrNotKept) {
			return nil, errors.New("escapebench: no run of this spec in this notebook session: run the cell that calls RunSuite and Remember first")
		}
		return nil, err
	}
	return &run, nil
}
