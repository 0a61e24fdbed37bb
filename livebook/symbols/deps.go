package symbols

// The packages the generator extracts must be required by this module
// before their symbols exist; these imports keep them in go.mod.
import (
	_ "github.com/janpfeifer/must"
	_ "gonum.org/v1/gonum/mat"
	_ "sodworkbench.org/workbench/sod"
	_ "sodworkbench.org/workbench/widgets"
)
