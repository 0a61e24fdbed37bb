package sod

import "sync/atomic"

// EvalCounter counts the oracle calls made through a Problem returned by
// Problem.WithCounter: evaluations of h alone (Problem.H, and the h-only
// evaluations of the escape driver), of ∇h (each also yields h: one call of
// Problem.Grad or one gradient descent step), Hessian–vector products
// (Problem.HessVec; the dense Problem.Hessian counts its nr products) and
// eigen-solves (AnalyzeCritical's spectrum of ∇f(X̂X̂ᵀ) and its Hessian, and
// HessianMinEig). It is the cost model of an escape method: no global
// state, one counter per run, safe for concurrent use (atomic adds). A nil
// *EvalCounter counts nothing. Problem.DistStar is a measurement, not an
// oracle call, and is not counted.
type EvalCounter struct {
	h, grad, hessVec, eigen atomic.Int64
}

// EvalCounts is a snapshot of an EvalCounter.
type EvalCounts struct {
	H       int64 `json:"h"`        // evaluations of h alone
	Grad    int64 `json:"grad"`     // evaluations of ∇h (with h)
	HessVec int64 `json:"hess_vec"` // Hessian–vector products
	Eigen   int64 `json:"eigen"`    // eigen-solves
}

// Counts returns the current counts (zero for a nil counter).
func (c *EvalCounter) Counts() EvalCounts {
	if c == nil {
		return EvalCounts{}
	}
	return EvalCounts{H: c.h.Load(), Grad: c.grad.Load(), HessVec: c.hessVec.Load(), Eigen: c.eigen.Load()}
}

// addEval counts one evaluation of h, with ∇h when grad is set.
func (c *EvalCounter) addEval(grad bool) {
	if c == nil {
		return
	}
	if grad {
		c.grad.Add(1)
	} else {
		c.h.Add(1)
	}
}

// addGrads counts k evaluations of ∇h (gradient descent's one-pass
// steps, descend11).
func (c *EvalCounter) addGrads(k int) {
	if c != nil && k > 0 {
		c.grad.Add(int64(k))
	}
}

func (c *EvalCounter) addHessVec(k int) {
	if c != nil {
		c.hessVec.Add(int64(k))
	}
}

func (c *EvalCounter) addEigen() {
	if c != nil {
		c.eigen.Add(1)
	}
}
