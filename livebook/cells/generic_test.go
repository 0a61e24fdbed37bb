package cells_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"sodworkbench.org/workbench/livebook/cells"
)

type Point struct{}

const mustSrc = `package must
func M1[T1 any](value1 T1, err error) T1 { return value1 }
func M2[T1 any, T2 any](value1 T1, value2 T2, err error) (T1, T2) { return value1, value2 }
`

func TestRewriter(t *testing.T) {
	sigs, err := cells.GenericSignatures(mustSrc)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(sigs["M2"], []int{0, 1}) {
		t.Fatalf("GenericSignatures: %v", sigs)
	}
	path := reflect.TypeOf(Point{}).PkgPath()
	rw := &cells.Rewriter{
		Symbols: map[string]map[string]reflect.Value{
			path + "/cells_test": {
				"One":   reflect.ValueOf(func() (*Point, error) { return nil, errors.New("x") }),
				"Two":   reflect.ValueOf(func(int) ([]float64, map[string]Point, error) { return nil, nil, nil }),
				"Three": reflect.ValueOf(func() ([]float64, error) { return nil, nil }),
			},
		},
		Generic: map[string]map[string][]int{"github.com/janpfeifer/must": sigs},
	}
	tests := []struct{ body, want string }{
		{"p := must.M1(pkg.One())", "must.M1[*pkg.Point](pkg.One())"},
		{"a, b := must.M2(pkg.Two(3))", "must.M2[[]float64, map[string]pkg.Point](pkg.Two(3))"},
		{"p := must.M1[*pkg.Point](pkg.One())", "must.M1[*pkg.Point](pkg.One())"},
		{"p := must.M1(local())", "must.M1(local())"},
		{"var q struct{ A, B int }\nq.A, q.B = 1, 2", "{ livebook_t"},
		// Split and typed both: the type argument survives the split.
		{"var q struct {\nA int\nB []float64\n}\nq.A, q.B = 1, must.M1(pkg.Three())", ":= must.M1[[]float64](pkg.Three()); q.A = livebook_t"},
	}
	for _, tt := range tests {
		var s cells.Session
		c, err := cells.Parse("cell", "import (\n\"github.com/janpfeifer/must\"\npkg \""+path+"\"\n)\n%%\n"+tt.body)
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.Program("cell", c, rw)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(p.Src, tt.want) {
			t.Errorf("%s: want %s in\n%s", tt.body, tt.want, p.Src)
		}
	}
}
