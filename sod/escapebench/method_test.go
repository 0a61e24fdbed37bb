package escapebench

import (
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod"
)

// TestBuiltinMethodParamsDerived: every Params value of a built-in method
// equals the listing of the escaper its New constructs (sod.EscaperParams
// of the value that runs), except a setting chosen per instance or per
// trial, which Params describes ("trial", "instance ..."); and no setting
// of the escaper is missing from Params, nor Params listing one it lacks.
func TestBuiltinMethodParamsDerived(t *testing.T) {
	in := CertifiedInstance{StallPoint: StallPoint{L: 7, T: 33500}}
	perRun := func(v string) bool { return strings.Contains(v, "trial") || strings.Contains(v, "instance") }
	for _, m := range BuiltinMethods() {
		if m.Name == "random-restart" {
			continue // the benchmark's own baseline: no settings, its scale is a formula
		}
		esc, err := m.New(in, 12345)
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		got := sod.EscaperParams(esc)
		for k, v := range got {
			want, ok := m.Params[k]
			switch {
			case !ok:
				t.Errorf("%s: setting %s = %s is not in Params %v", m.Name, k, v, m.Params)
			case perRun(want):
			case want != v:
				t.Errorf("%s: Params[%q] = %q, the escaper that runs has %q", m.Name, k, want, v)
			}
		}
		for k, v := range m.Params {
			if _, ok := got[k]; !ok && !perRun(v) {
				t.Errorf("%s: Params lists %s = %s, which the escaper that runs does not set", m.Name, k, v)
			}
		}
	}
}
