package experiments

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"sodworkbench.org/workbench/sod/batch"
)

// TestStudyShardsMerge: the study run as N shards (each through a JSON
// round trip, as between machines) and merged in any order is the unsharded
// study, value for value and byte for byte in JSON.
func TestStudyShardsMerge(t *testing.T) {
	cfg := smallStudy()
	cfg.Trials = 7 // not a multiple of N: shards of unequal size
	whole, err := RunStudy(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := json.Marshal(whole)
	if err != nil {
		t.Fatal(err)
	}
	escapes := 0
	for _, c := range whole.Cells {
		escapes += c.Escapes
	}
	if escapes == 0 {
		t.Fatal("no escapes: the test does not cover the escape records")
	}
	for _, n := range []int{1, 3, 4, 40} {
		var shards []*StudyShard
		for k := n - 1; k >= 0; k-- { // reverse order
			sh, err := RunStudyShard(context.Background(), cfg, k, n, nil)
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(sh)
			if err != nil {
				t.Fatal(err)
			}
			var back StudyShard
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			shards = append(shards, &back)
		}
		merged, err := MergeStudy(shards)
		if err != nil {
			t.Fatalf("N = %d: %v", n, err)
		}
		if !reflect.DeepEqual(merged.Cells, whole.Cells) {
			t.Errorf("N = %d: merged cells differ from the unsharded study", n)
		}
		got, err := json.Marshal(merged)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("N = %d: merged JSON differs from the unsharded study's", n)
		}
	}
}

func TestMergeStudyErrors(t *testing.T) {
	cfg := smallStudy()
	cfg.Sizes, cfg.Trials, cfg.MaxEscapes = []int{10}, 4, 0
	run := func(c StudyConfig, k, n int) *StudyShard {
		sh, err := RunStudyShard(context.Background(), c, k, n, nil)
		if err != nil {
			t.Fatal(err)
		}
		return sh
	}
	s0, s1, s2 := run(cfg, 0, 3), run(cfg, 1, 3), run(cfg, 2, 3)
	other := cfg
	other.Seed++
	foreign := run(other, 2, 3)
	half := run(cfg, 1, 2)
	stolen := *s2
	stolen.Cells = append([]StudyCell(nil), s2.Cells...)
	stolen.Cells[0].Trials = s1.Cells[0].Trials
	for _, tc := range []struct {
		name   string
		shards []*StudyShard
		want   string
	}{
		{"none", nil, "no shards"},
		{"missing", []*StudyShard{s0, s2}, "shards [1] of 3 missing"},
		{"twice", []*StudyShard{s0, s1, s1, s2}, "shard 1/3 given twice"},
		{"other split", []*StudyShard{s0, s1, half}, "not the same split"},
		{"other study", []*StudyShard{s0, s1, foreign}, "not the same study"},
		{"other trials", []*StudyShard{s0, s1, &stolen}, "not its own"},
		{"nil", []*StudyShard{s0, nil, s2}, "nil shard"},
	} {
		_, err := MergeStudy(tc.shards)
		if !errors.Is(err, ErrBadExperiment) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want ErrBadExperiment mentioning %q", tc.name, err, tc.want)
		}
	}
	for _, kn := range [][2]int{{-1, 2}, {2, 2}, {0, 0}, {0, batch.MaxShards + 1}} {
		if _, err := RunStudyShard(context.Background(), cfg, kn[0], kn[1], nil); !errors.Is(err, ErrBadExperiment) {
			t.Errorf("shard %d/%d: error %v, want ErrBadExperiment", kn[0], kn[1], err)
		}
	}
}
