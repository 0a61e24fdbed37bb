package widgets

import (
	"os/exec"
	"strings"
	"testing"
)

// chartPackages are the packages a notebook cell imports to compute and show
// interactive charts. GoNB builds and links every cell as a program with
// all of its imports, so none of them may bring gonum/plot (its PNG, PDF
// and SVG back ends and a dozen embedded fonts, about half the cost of a
// cell's build): the static figures live in widgets/plots and
// sod/figures/staticfig, imported only by the cells that export
// or show one.
var chartPackages = []string{
	"sodworkbench.org/workbench/sod",
	"sodworkbench.org/workbench/sod/experiments",
	"sodworkbench.org/workbench/sod/figures",
	"sodworkbench.org/workbench/sod/exercises",
	"sodworkbench.org/workbench/sod/paper",
	"sodworkbench.org/workbench/widgets",
}

// heavyPrefix is the import path prefix chart code must not depend on.
const heavyPrefix = "gonum.org/v1/plot"

// goTool returns the go command that runs this test (go test puts its
// GOROOT/bin first in $PATH).
func goTool(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command in $PATH: %v", err)
	}
	return p
}

// deps returns the packages pkg depends on (itself included), from go list.
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command(goTool(t), "list", "-deps", pkg).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, ee.Stderr)
		}
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	return strings.Fields(string(out))
}

func TestChartPackagesDoNotLinkGonumPlot(t *testing.T) {
	for _, pkg := range chartPackages {
		var heavy []string
		for _, d := range deps(t, pkg) {
			if strings.HasPrefix(d, heavyPrefix) {
				heavy = append(heavy, d)
			}
		}
		if len(heavy) > 0 {
			t.Errorf("%s depends on %s (%d packages, e.g. %s): move the static figure code to widgets/plots or figures/staticfig", pkg, heavyPrefix, len(heavy), heavy[0])
		}
	}
	// Control: the check sees gonum/plot where it is.
	found := false
	for _, d := range deps(t, "sodworkbench.org/workbench/widgets/plots") {
		found = found || strings.HasPrefix(d, heavyPrefix)
	}
	if !found {
		t.Errorf("control: go list -deps widgets/plots shows no %s package", heavyPrefix)
	}
}
