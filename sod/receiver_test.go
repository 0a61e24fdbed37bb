package sod_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"sodworkbench.org/workbench/sod"
)

// TestNilReceivers: a nil problem stays nil through WithCounter and is then
// refused by the function that takes it; methods with an error result
// return one naming the type, the method and the constructor; methods
// without one panic with that error (the walker of sod/internal/walker
// tries every method so).
func TestNilReceivers(t *testing.T) {
	var c sod.EvalCounter
	var p *sod.Problem
	q := p.WithCounter(&c)
	if q != nil {
		t.Fatalf("(*Problem)(nil).WithCounter = %v, want nil", q)
	}
	if _, err := sod.GradientDescent(context.Background(), q, mat.NewDense(3, 1, nil), sod.GDOptions{}); !errors.Is(err, sod.ErrBadParameter) {
		t.Errorf("GradientDescent on the nil problem: %v, want ErrBadParameter", err)
	}
	var cf *sod.TPGDClosedForm
	if _, err := cf.BetaScale(3); !errors.Is(err, sod.ErrBadParameter) || !strings.Contains(err.Error(), "TPGDClosedForm.BetaScale") || !strings.Contains(err.Error(), "NewTPGDClosedForm") {
		t.Errorf("(*TPGDClosedForm)(nil).BetaScale: %v", err)
	}
	func() {
		defer func() {
			err, _ := recover().(error)
			if !errors.Is(err, sod.ErrBadParameter) || !strings.Contains(err.Error(), "TPGDClosedForm.K") {
				t.Errorf("(&TPGDClosedForm{}).K panicked with %v, want an error wrapping ErrBadParameter", err)
			}
		}()
		(&sod.TPGDClosedForm{}).K()
	}()
	if n, r := p.Dims(); n != 0 || r != 0 || p.HasTruth() {
		t.Errorf("nil problem: Dims = %d, %d, HasTruth = %v", n, r, p.HasTruth())
	}
}
