package sod

import (
	"fmt"
	"math"
)

// The rules of the escapers' settings, in one place. Every built-in
// Escaper has a Validate method, in its own file beside its type, that
// applies the same rules to the same kinds of setting, with the helpers
// below:
//
//   - the lifting order l odd ≥ 3 and ρ, η ∈ (0, 1) (CheckTPGDParams);
//   - simulated step counts t ≥ 0;
//   - step lists (Alphas) finite and > 0, at most MaxCandidates long;
//   - growth factors finite and > 1 (or 0: off);
//   - counts (directions, samples) ≥ 0 and with the candidates they make
//     at most MaxCandidates (a size guard, checked before any work);
//   - enumerations (EscapeKind, AcceptRule) one of their named values.
//
// A zero setting stands for its documented default (the zero value of
// every built-in escaper runs), so the rules apply to the effective value.
//
// RunEscape calls Validate (when the Escaper has one: an Escaper written
// in a notebook need not) and EscapeOptions.Validate before any work, and
// each Propose calls it again, so a direct call to Propose is checked too.

// The defaults the zero values of the SOD escapers (SODLineSearch,
// MultiStepSOD, ExactSubspaceSOD, MultiStepAutoT) stand for: the lifting
// order and step sizes of the paper's case studies and ablation table.
const (
	DefaultLiftingOrder = 5   // l
	DefaultSODRho       = 0.1 // ρ
	DefaultSODEta       = 0.1 // η
)

// MaxCandidates is the largest number of candidates one Propose of a
// built-in escaper may make (directions × step lengths, samples, ...).
const MaxCandidates = 1 << 16

func checkAlphas(who string, alphas []float64, copies int) error {
	if len(alphas) > MaxCandidates || copies*max(len(alphas), 16) > MaxCandidates {
		return fmt.Errorf("%w: %s makes %d directions × %d step lengths, more than MaxCandidates = %d", ErrTooLarge, who, copies, len(alphas), MaxCandidates)
	}
	if alphas != nil && len(alphas) == 0 {
		return fmt.Errorf("%w: %s Alphas is empty (nil: the default grid)", ErrBadParameter, who)
	}
	for i, a := range alphas {
		if !(a > 0) || math.IsInf(a, 0) {
			return fmt.Errorf("%w: %s Alphas[%d] = %v, want finite and > 0", ErrBadParameter, who, i, a)
		}
	}
	return nil
}

func checkKind(who string, k EscapeKind, allowNone bool) error {
	if (k == KindNone && allowNone) || k == KindBeta || k == KindGamma {
		return nil
	}
	return fmt.Errorf("%w: %s escape kind %d, want %v or %v", ErrBadParameter, who, int(k), KindBeta, KindGamma)
}
