package escapebench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"

	"sodworkbench.org/workbench/sod"
)

// Suite is a benchmark: families × methods × trials.
type Suite struct {
	Families []Family
	Methods  []Method
	// PerCell is the number of points each family generates per cell
	// (k of Family.Generate; default 1).
	PerCell int
	Trials  int    // runs per (instance, seeded method), default 1
	Seed    uint64 // master seed: instances and every run derive from it
	Certify CertifyOptions
	// TrialOptions configure every run (DefaultTrialOptions).
	TrialOptions TrialOptions
}

// MaxTrials bounds Suite.Trials.
const MaxTrials = 100_000

// Validate checks s: at least one family and method, no nil family, no
// method without a constructor, no name twice, sizes within their limits.
func (s Suite) Validate() error {
	if len(s.Families) == 0 || len(s.Methods) == 0 {
		return fmt.Errorf("%w: a suite needs at least one family and one method, got %d and %d", ErrBadBench, len(s.Families), len(s.Methods))
	}
	seen := map[string]bool{}
	for i, f := range s.Families {
		if f == nil {
			return fmt.Errorf("%w: family %d is nil", ErrBadBench, i)
		}
		if err := checkFamily(f); err != nil {
			return err
		}
		if seen[f.Name()] {
			return fmt.Errorf("%w: family %q listed twice", ErrBadBench, f.Name())
		}
		seen[f.Name()] = true
	}
	seen = map[string]bool{}
	for i, m := range s.Methods {
		if m.Name == "" || m.New == nil {
			return fmt.Errorf("%w: method %d (%q) has no name or no constructor", ErrBadBench, i, m.Name)
		}
		if err := sod.CheckIdentifier("method name", m.Name); err != nil {
			return err
		}
		if seen[m.Name] {
			return fmt.Errorf("%w: method %q listed twice", ErrBadBench, m.Name)
		}
		if !(m.Weight >= 0) || math.IsInf(m.Weight, 0) {
			return fmt.Errorf("%w: method %q: Weight = %v, want a finite value ≥ 0", ErrBadBench, m.Name, m.Weight)
		}
		if m.MaxN < 0 {
			return fmt.Errorf("%w: method %q: MaxN = %d, want ≥ 0 (0: any n)", ErrBadBench, m.Name, m.MaxN)
		}
		seen[m.Name] = true
	}
	if s.PerCell < 0 || s.PerCell > MaxInstancesPerFamily || s.Trials < 0 || s.Trials > MaxTrials {
		return fmt.Errorf("%w: PerCell = %d (want 0…%d), Trials = %d (want 0…%d)", ErrBadBench, s.PerCell, MaxInstancesPerFamily, s.Trials, MaxTrials)
	}
	if _, err := s.Certify.withDefaults(); err != nil {
		return err
	}
	return s.TrialOptions.Validate()
}

// SuiteRun is what RunSuite returns: the runs of the shard, in canonical
// order (Canonical), and the suite's certified instances and dropped
// points (all of them, whatever the shard). It is what every writer takes
// (WriteResultsJSON, WriteSummaryPage, …): the runs are put in canonical
// order once, by RunSuite or MergeJournals.
type SuiteRun struct {
	Runs      []*TrialResult
	Instances []InstanceInfo
	Dropped   []Dropped
}

// Canonical sorts runs by (family, instance, method, trial), the order
// of every output, and refuses a run listed twice with different content
// (the same run twice, as when shards overlap, is kept once).
func Canonical(rs []*TrialResult) ([]*TrialResult, error) {
	byKey := map[string]*TrialResult{}
	var out []*TrialResult
	for i, r := range rs {
		if r == nil {
			return nil, fmt.Errorf("%w: Canonical: run %d is nil", ErrBadBench, i)
		}
		if old, ok := byKey[r.Key()]; ok {
			a, _ := json.Marshal(old)
			b, _ := json.Marshal(r)
			if !bytes.Equal(a, b) {
				return nil, fmt.Errorf("%w: run %s / %s / %s / trial %d appears twice with different results", ErrBadBench, r.Family, r.Instance, r.Method, r.Trial)
			}
			continue
		}
		byKey[r.Key()] = r
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return canonicalLess(out[i], out[j]) })
	return out, nil
}

// canonicalLess orders runs by (family, instance, method, trial).
func canonicalLess(a, b *TrialResult) bool {
	if a.Family != b.Family {
		return a.Family < b.Family
	}
	if a.Instance != b.Instance {
		return a.Instance < b.Instance
	}
	if a.Method != b.Method {
		return a.Method < b.Method
	}
	return a.Trial < b.Trial
}
