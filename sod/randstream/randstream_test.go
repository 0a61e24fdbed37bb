package randstream

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// root is the module root, seen from this package's directory.
const root = "../.."

// constNames returns the names and values of the constants of type typ
// declared in randstream.go, in order (iota counted for implicit values).
func constNames(t *testing.T, typ string) ([]string, []constant.Value) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "randstream.go", nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var vals []constant.Value
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		inBlock := false
		for i, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); ok {
				inBlock = id.Name == typ
			}
			if !inBlock {
				continue
			}
			var v constant.Value
			switch {
			case len(vs.Values) == 1:
				if lit, ok := vs.Values[0].(*ast.BasicLit); ok {
					v = constant.MakeFromLiteral(lit.Value, lit.Kind, 0)
				} else { // iota + 1
					v = constant.MakeInt64(int64(i) + 1)
				}
			default: // implicit repetition of iota + 1
				v = constant.MakeInt64(int64(i) + 1)
			}
			for _, n := range vs.Names {
				names = append(names, n.Name)
				vals = append(vals, v)
			}
		}
	}
	if len(names) < 2 {
		t.Fatalf("found %d constants of type %s in randstream.go", len(names), typ)
	}
	return names, vals
}

// TestStreamWordsDistinct checks that no two streams share a word (they
// would draw the same numbers from the same seed) and that every stream
// has a name of its own.
func TestStreamWordsDistinct(t *testing.T) {
	names, vals := constNames(t, "Stream")
	byWord := map[uint64]string{}
	byName := map[string]string{}
	for i, n := range names {
		w, ok := constant.Uint64Val(vals[i])
		if !ok {
			t.Fatalf("%s: word %v is not a uint64", n, vals[i])
		}
		if prev, dup := byWord[w]; dup {
			t.Errorf("streams %s and %s share the word %#x", prev, n, w)
		}
		byWord[w] = n
		s := Stream(w).String()
		if strings.HasPrefix(s, "Stream(") {
			t.Errorf("stream %s (%#x) has no name in Stream.String", n, w)
		}
		if prev, dup := byName[s]; dup {
			t.Errorf("streams %s and %s share the name %q", prev, n, s)
		}
		byName[s] = n
	}
	t.Logf("%d streams, all words and names distinct", len(names))
	if got := Stream(1).String(); got != "Stream(0x1)" {
		t.Errorf("Stream(1).String() = %q, want Stream(0x1)", got)
	}
}

// TestIndexedNamesDistinct checks that every indexed family has a name of
// its own.
func TestIndexedNamesDistinct(t *testing.T) {
	names, vals := constNames(t, "Indexed")
	seen := map[string]string{}
	for i, n := range names {
		k, _ := constant.Int64Val(vals[i])
		s := Indexed(k).String()
		if strings.HasPrefix(s, "Indexed(") {
			t.Errorf("family %s (%d) has no name in Indexed.String", n, k)
		}
		if prev, dup := seen[s]; dup {
			t.Errorf("families %s and %s share the name %q", prev, n, s)
		}
		seen[s] = n
	}
	if got := Indexed(0).String(); got != "Indexed(0)" {
		t.Errorf("Indexed(0).String() = %q", got)
	}
}

// TestSameDrawsAsPCG checks New and NewIndexed against math/rand/v2's PCG
// built by hand: the words are the ones the recorded results were drawn
// with.
func TestSameDrawsAsPCG(t *testing.T) {
	for _, c := range []struct {
		s    Stream
		word uint64
	}{
		{GaussianEnsemble, 0x50d6a055}, {PZSamples, 0x9a1e7}, {RIPSamples, 0x71b}, {RIPStarts, 0x0b7},
		{Perturbations, 0x9e3779b97f4a7c15}, {RandomDirections, 0xda3e39cb94b95bdb}, {Minibatches, 0x5d0b},
		{QNNStarts, 0x911}, {CaseStudyStarts, 0x5eed}, {BasicExampleStarts, 0xba51c}, {SquareInputs, 0x992},
		{FeatureCheckWeights, 0}, {GallerySamples, 0x50d},
	} {
		a, b := New(42, c.s), rand.New(rand.NewPCG(42, c.word))
		for range 4 {
			if x, y := a.Uint64(), b.Uint64(); x != y {
				t.Fatalf("%v: New(42) drew %#x, PCG(42, %#x) %#x", c.s, x, c.word, y)
			}
		}
	}
	a, b := NewIndexed(7, RestartRounds, 3), rand.New(rand.NewPCG(7, 3))
	if x, y := a.Uint64(), b.Uint64(); x != y {
		t.Fatalf("NewIndexed(7, RestartRounds, 3) drew %#x, PCG(7, 3) %#x", x, y)
	}
}

// generators are the math/rand and math/rand/v2 functions that make a
// seeded generator or source.
var generators = map[string]bool{"New": true, "NewPCG": true, "NewChaCha8": true, "NewSource": true, "NewZipf": true}

// TestOneSourceOfRandomness parses every non-test Go file of the module
// (nested modules, testdata and this package excluded) and fails on a call
// that makes a seeded generator (rand.New, rand.NewPCG, …) anywhere but
// here: a new use of randomness gets a stream of its own in randstream.go.
// The package-level functions of math/rand/v2 (a fresh, unrecorded seed,
// as exercises.Verify draws) stay allowed.
func TestOneSourceOfRandomness(t *testing.T) {
	found := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if p != root && (strings.HasPrefix(name, ".") && name != ".ci" || strings.HasPrefix(name, "_") || name == "testdata") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil && p != root {
				return filepath.SkipDir // a module of its own
			}
			if filepath.ToSlash(p) == root+"/sod/randstream" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		randName := ""
		for _, im := range f.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			if path == "math/rand/v2" || path == "math/rand" {
				randName = "rand"
				if im.Name != nil {
					randName = im.Name.Name
				}
			}
		}
		if randName == "" {
			return nil
		}
		found++
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == randName && generators[sel.Sel.Name] {
				t.Errorf("%s: %s.%s makes a generator of its own; use randstream.New with a named stream", p, randName, sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d non-test files outside randstream import math/rand", found)
}
