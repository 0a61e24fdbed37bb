package sod_test

import (
	"errors"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod"
)

func TestCheckIdentifier(t *testing.T) {
	for _, s := range []string{"07.1", "pmc", "sod-line-search", "basic_example", "single-step-sod+probe", "a", strings.Repeat("x", sod.MaxIdentifierLen)} {
		if err := sod.CheckIdentifier("name", s); err != nil {
			t.Errorf("CheckIdentifier(%q) = %v, want nil", s, err)
		}
	}
	for _, s := range []string{"", "../x", "..", ".", ".hidden", "-rf", "_x", "+x", "a/b", `a\b`, "a..b", "a b", "a|b", "a\rb", "é", "x\x00", strings.Repeat("x", sod.MaxIdentifierLen+1)} {
		err := sod.CheckIdentifier("name", s)
		if !errors.Is(err, sod.ErrBadParameter) {
			t.Errorf("CheckIdentifier(%q) = %v, want ErrBadParameter", s, err)
			continue
		}
		if !strings.Contains(err.Error(), "want 1 to") {
			t.Errorf("CheckIdentifier(%q) = %v, want the accepted form named", s, err)
		}
	}
}
