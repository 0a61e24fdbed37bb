package resultcache

import (
	"errors"
	"testing"
)

type plain struct {
	N    []int
	Eps  float64
	Name string
	F    func(int) int
	P    *int
}

type hidden struct{ n int }

func double(n int) int { return 2 * n }

func TestKey(t *testing.T) {
	x := 1
	closure := func(n int) int { return n + x }
	base, ok := Key("k", plain{N: []int{1, 2}, Eps: 0.1, F: double})
	if !ok {
		t.Fatal("a plain configuration with a package-level function has no key")
	}
	for _, tc := range []struct {
		name     string
		kind     string
		cfg      any
		ok, same bool
	}{
		{"equal", "k", plain{N: []int{1, 2}, Eps: 0.1, F: double}, true, true},
		{"other kind", "k2", plain{N: []int{1, 2}, Eps: 0.1, F: double}, true, false},
		{"other slice", "k", plain{N: []int{1, 3}, Eps: 0.1, F: double}, true, false},
		{"nil vs empty slice", "k", plain{N: []int{}, Eps: 0.1, F: double}, true, false},
		{"other float", "k", plain{N: []int{1, 2}, Eps: 0.1000001, F: double}, true, false},
		{"nil function", "k", plain{N: []int{1, 2}, Eps: 0.1}, true, false},
		{"closure", "k", plain{N: []int{1, 2}, Eps: 0.1, F: closure}, false, false},
		{"non-nil pointer", "k", plain{P: &x}, false, false},
		{"unexported field", "k", hidden{1}, false, false},
		{"map", "k", map[string]int{"a": 1}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, ok := Key(tc.kind, tc.cfg)
			if ok != tc.ok || ok && (k == base) != tc.same {
				t.Errorf("Key = %q, %v; want ok %v, same as base %v", k, ok, tc.ok, tc.same)
			}
		})
	}
}

func TestDo(t *testing.T) {
	t.Setenv("SOD_RESULT_CACHE", t.TempDir())
	runs := 0
	run := func() ([]float64, error) { runs++; return []float64{1, 2, 3}, nil }
	for range 3 {
		r, err := Do("k", plain{Eps: 1}, run)
		if err != nil || len(r) != 3 || r[2] != 3 {
			t.Fatalf("Do = %v, %v", r, err)
		}
	}
	if runs != 1 {
		t.Errorf("run ran %d times for three equal configurations, want 1", runs)
	}
	if _, _ = Do("k", plain{Eps: 2}, run); runs != 2 {
		t.Errorf("a different configuration did not run (%d runs)", runs)
	}
	if _, _ = Do("k", hidden{}, run); runs != 3 {
		t.Errorf("a configuration without a key did not run (%d runs)", runs)
	}
	boom := errors.New("boom")
	fails := 0
	for range 2 {
		if _, err := Do("k", plain{Eps: 3}, func() ([]float64, error) { fails++; return nil, boom }); err != boom {
			t.Errorf("err = %v, want boom", err)
		}
	}
	if fails != 2 {
		t.Errorf("a failed run was remembered (%d runs, want 2)", fails)
	}
	t.Setenv("SOD_RESULT_CACHE", "off")
	if _, _ = Do("k", plain{Eps: 1}, run); runs != 4 {
		t.Errorf("SOD_RESULT_CACHE=off still remembered (%d runs)", runs)
	}
}
