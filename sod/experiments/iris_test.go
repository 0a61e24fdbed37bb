package experiments

import (
	"errors"
	"math"
	"testing"
)

// TestIrisFacts checks the embedded data against the published facts about
// Fisher's Iris data: 150 rows, 50 per species, column means 5.843, 3.057,
// 3.758, 1.199 (the corrected data; the UCI file's two errors give 3.054).
func TestIrisFacts(t *testing.T) {
	ir, err := LoadIris()
	if err != nil {
		t.Fatal(err)
	}
	if len(ir.Features) != 150 {
		t.Fatalf("%d rows, want 150", len(ir.Features))
	}
	count := map[string]int{}
	var sum [4]float64
	for i, f := range ir.Features {
		count[ir.Species[i]]++
		for j := range 4 {
			sum[j] += f[j]
		}
	}
	for _, sp := range []string{"setosa", "versicolor", "virginica"} {
		if count[sp] != 50 {
			t.Errorf("%s: %d rows, want 50", sp, count[sp])
		}
	}
	want := [4]float64{5.843, 3.057, 3.758, 1.199}
	for j := range 4 {
		if got := sum[j] / 150; math.Abs(got-want[j]) > 0.0005 {
			t.Errorf("mean of column %d = %.4f, want %.3f", j, got, want[j])
		}
	}
}

func TestIrisChecksum(t *testing.T) {
	bad := append([]byte{}, irisCSV...)
	bad[len(bad)-2] ^= 1
	tests := []struct {
		name string
		data []byte
		ok   bool
	}{{"embedded", irisCSV, true}, {"one bit flipped", bad, false}}
	for _, tc := range tests {
		_, err := parseIris(tc.data, IrisSHA256)
		if (err == nil) != tc.ok || (!tc.ok && !errors.Is(err, ErrChecksum)) {
			t.Errorf("%s: err = %v", tc.name, err)
		}
	}
}

func TestIrisBinaryTask(t *testing.T) {
	ir, _ := LoadIris()
	tests := []struct {
		pos, neg string
		n        int
		ok       bool
	}{{"versicolor", "virginica", 100, true}, {"setosa", "setosa", 0, false}, {"rose", "tulip", 0, false}}
	for _, tc := range tests {
		x, y, err := ir.BinaryTask(tc.pos, tc.neg)
		if (err == nil) != tc.ok || len(x) != tc.n || len(y) != tc.n {
			t.Errorf("%s/%s: %d rows, err %v", tc.pos, tc.neg, len(x), err)
		}
		if tc.ok && (y[0] != 1 || y[tc.n-1] != -1) {
			t.Errorf("labels %v … %v", y[0], y[tc.n-1])
		}
	}
}
