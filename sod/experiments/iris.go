package experiments

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

//go:embed data/iris.csv
var irisCSV []byte

// IrisSHA256 is the SHA-256 of the embedded data/iris.csv (see
// data/PROVENANCE.md: Fisher 1936, via the UCI repository and
// scikit-learn's corrected copy). LoadIris refuses data with another hash.
const IrisSHA256 = "9cc1c345c71bcc9b486b74cbf6063fa66f4bb5e0f603a4b3c3471ec2e5e8e355"

// ErrChecksum reports embedded data whose SHA-256 does not match.
var ErrChecksum = errors.New("experiments: data checksum mismatch")

// Iris is Fisher's Iris data: 150 flowers, four measurements in cm
// (sepal length, sepal width, petal length, petal width) and the species.
type Iris struct {
	Features [][4]float64
	Species  []string // "setosa", "versicolor" or "virginica"
}

// LoadIris parses the embedded Iris CSV after checking its SHA-256 against
// IrisSHA256.
func LoadIris() (*Iris, error) {
	return parseIris(irisCSV, IrisSHA256)
}

func parseIris(data []byte, wantHash string) (*Iris, error) {
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != wantHash {
		return nil, fmt.Errorf("%w: iris.csv has SHA-256 %s, want %s", ErrChecksum, got, wantHash)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("experiments: iris.csv: %w", err)
	}
	if len(recs) < 2 {
		return nil, fmt.Errorf("%w: iris.csv: no rows", ErrBadExperiment)
	}
	ir := &Iris{}
	for k, rec := range recs[1:] {
		if len(rec) != 5 {
			return nil, fmt.Errorf("%w: iris.csv row %d: %d fields, want 5", ErrBadExperiment, k+2, len(rec))
		}
		var f [4]float64
		for j := range 4 {
			if f[j], err = strconv.ParseFloat(rec[j], 64); err != nil {
				return nil, fmt.Errorf("experiments: iris.csv row %d: %w", k+2, err)
			}
		}
		ir.Features = append(ir.Features, f)
		ir.Species = append(ir.Species, rec[4])
	}
	return ir, nil
}

// BinaryTask returns the feature rows of species pos and neg (in file order:
// every pos row, then every neg row) with labels +1 for pos and −1 for neg.
// The paper's quadratic-network experiment uses pos = "versicolor",
// neg = "virginica" (section 6.3). pos and neg must be two different
// species of the data (setosa, versicolor, virginica); a misspelt or
// repeated name is an error wrapping ErrBadExperiment that lists them.
func (ir *Iris) BinaryTask(pos, neg string) (x [][4]float64, y []float64, err error) {
	if ir == nil {
		return nil, nil, fmt.Errorf("%w: Iris.BinaryTask on a nil *Iris (use LoadIris)", ErrBadExperiment)
	}
	var known []string
	for _, s := range ir.Species {
		if !slices.Contains(known, s) {
			known = append(known, s)
		}
	}
	for _, sp := range []string{pos, neg} {
		if !slices.Contains(known, sp) {
			return nil, nil, fmt.Errorf("%w: Iris has no species %q; want two of %s", ErrBadExperiment, sp, strings.Join(known, ", "))
		}
	}
	if pos == neg {
		return nil, nil, fmt.Errorf("%w: Iris task %q vs %q: want two different species", ErrBadExperiment, pos, neg)
	}
	for _, sp := range []string{pos, neg} {
		lab := 1.0
		if sp == neg {
			lab = -1
		}
		for i, s := range ir.Species {
			if s == sp {
				x = append(x, ir.Features[i])
				y = append(y, lab)
			}
		}
	}
	if len(y) == 0 || pos == neg {
		return nil, nil, fmt.Errorf("%w: Iris task %q vs %q: no rows or identical species", ErrBadExperiment, pos, neg)
	}
	return x, y, nil
}
