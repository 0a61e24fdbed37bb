package widgets

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/render"
)

// fakeAssets creates a node_modules tree whose "libraries" are tiny marker
// scripts, and points $SOD_WIDGETS_ASSETS at it for the test.
func fakeAssets(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for rel, src := range map[string]string{
		echartsRelPath:   "/*FAKE-ECHARTS*/ window.echarts = {};",
		echartsGLRelPath: "/*FAKE-GL*/ window['echarts-gl'] = {};",
	} {
		p := filepath.Join(dir, "node_modules", filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(AssetsEnv, dir)
	resetLibraryCache()
	t.Cleanup(resetLibraryCache)
	return dir
}

// recSink records what Display sends to the notebook.
type recSink struct {
	outputs []string
	syncs   int
}

func (s *recSink) active() bool            { return true }
func (s *recSink) displayHTML(html string) { s.outputs = append(s.outputs, html) }
func (s *recSink) displaySVG(svg string)   { s.outputs = append(s.outputs, svg) }
func (s *recSink) sync()                   { s.syncs++ }

func resetEmitted() {
	emitted.Lock()
	emitted.lib = [numLibraries]bool{}
	emitted.Unlock()
}

func demoLine(t *testing.T) Chart {
	t.Helper()
	c, err := Curves{Title: "demo", X: []float64{1, 2, 3}, Series: []Series{{"loss", []float64{1, 0.1, 0.01}}}, LogY: true}.Chart()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var idRE = regexp.MustCompile(`id="(sodw_[a-z0-9]+)"`)

func TestAssetsDir(t *testing.T) {
	fake := fakeAssets(t)
	empty := t.TempDir()
	tests := []struct {
		name    string
		env     string
		want    string // expected directory, "" for an error
		wantMsg []string
	}{
		{"assets dir", fake, filepath.Join(fake, "node_modules"), nil},
		{"node_modules dir", filepath.Join(fake, "node_modules"), filepath.Join(fake, "node_modules"), nil},
		{"wrong dir", empty, "", []string{AssetsEnv, "scripts/install.sh --user", "npm ci --prefix widgets/assets"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(AssetsEnv, tc.env)
			got, err := AssetsDir()
			if tc.want != "" {
				if err != nil || got != tc.want {
					t.Fatalf("AssetsDir() = %q, %v; want %q", got, err, tc.want)
				}
				return
			}
			if !errors.Is(err, ErrAssetsMissing) {
				t.Fatalf("AssetsDir() error = %v; want ErrAssetsMissing", err)
			}
			for _, m := range tc.wantMsg {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("error %q does not mention %q", err, m)
				}
			}
		})
	}
}

func TestAssetsDirFromSource(t *testing.T) {
	// Without the environment variable the package finds widgets/assets
	// next to its source, when npm ci has been run there.
	t.Setenv(AssetsEnv, "")
	_, file, _, _ := runtime.Caller(0)
	if !hasEcharts(filepath.Join(filepath.Dir(file), "assets", "node_modules")) {
		t.Skip("widgets/assets/node_modules not installed (npm ci --prefix widgets/assets)")
	}
	got, err := AssetsDir()
	if err != nil || got != filepath.Join(filepath.Dir(file), "assets", "node_modules") {
		t.Fatalf("AssetsDir() = %q, %v", got, err)
	}
}

func TestDisplayPlumbing(t *testing.T) {
	for _, compressed := range []bool{true, false} {
		t.Run(fmt.Sprintf("compressed=%v", compressed), func(t *testing.T) {
			defer func(c bool) { CompressLibrary = c }(CompressLibrary)
			CompressLibrary = compressed
			fakeAssets(t)
			resetEmitted()
			t.Cleanup(resetEmitted)
			s := &recSink{}
			line := demoLine(t)
			for i := 0; i < 2; i++ {
				if err := displayTo(s, line); err != nil {
					t.Fatal(err)
				}
			}
			if len(s.outputs) != 2 || s.syncs != 2 {
				t.Fatalf("got %d outputs and %d syncs; want 2 and 2", len(s.outputs), s.syncs)
			}
			// The library travels with the first chart of the process only,
			// shielded from AMD loaders.
			lib := [2]string{inlinedLibrary(t, s.outputs[0], compressed), inlinedLibrary(t, s.outputs[1], compressed)}
			if !strings.Contains(lib[0], "FAKE-ECHARTS") || strings.Contains(lib[1], "FAKE-ECHARTS") {
				t.Errorf("library should be in the first output only")
			}
			shield := "(function (define, exports, module, require) {"
			if compressed {
				shield = `new Function("define", "exports", "module", "require", src)`
			}
			if !strings.Contains(s.outputs[0], shield) {
				t.Errorf("library is not shielded from require.js")
			}
			if strings.Contains(lib[0], "FAKE-GL") {
				t.Errorf("ECharts-GL inlined for a 2-D chart")
			}
			if strings.Contains(strings.Join(s.outputs, ""), "http") {
				t.Errorf("output references a remote URL")
			}
			// Each display gets a fresh DOM id.
			var ids []string
			for _, o := range s.outputs {
				m := idRE.FindStringSubmatch(o)
				if m == nil {
					t.Fatalf("no chart id in output")
				}
				ids = append(ids, m[1])
				if !strings.Contains(o, "goecharts_"+m[1]+".setOption") {
					t.Errorf("chart script does not use id %s", m[1])
				}
			}
			if ids[0] == ids[1] {
				t.Errorf("two displays share the id %s", ids[0])
			}
		})
	}
}

var b64RE = regexp.MustCompile(`var b64 = "([A-Za-z0-9+/=]*)"`)

// inlinedLibrary returns the library sources inlined in an output: as
// they are, or unpacked from every base64 gzip blob.
func inlinedLibrary(t *testing.T, out string, compressed bool) string {
	t.Helper()
	if !compressed {
		return out
	}
	var all strings.Builder
	for _, m := range b64RE.FindAllStringSubmatch(out, -1) {
		raw, err := base64.StdEncoding.DecodeString(m[1])
		if err != nil {
			t.Fatalf("bad base64: %v", err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("bad gzip: %v", err)
		}
		b, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("bad gzip: %v", err)
		}
		all.Write(b)
	}
	return all.String()
}

func TestDisplayErrors(t *testing.T) {
	t.Run("assets missing", func(t *testing.T) {
		t.Setenv(AssetsEnv, t.TempDir())
		resetLibraryCache()
		resetEmitted()
		t.Cleanup(resetEmitted)
		err := displayTo(&recSink{}, demoLine(t))
		if !errors.Is(err, ErrAssetsMissing) || !strings.Contains(err.Error(), "npm ci --prefix widgets/assets") {
			t.Fatalf("err = %v; want ErrAssetsMissing with install instructions", err)
		}
	})
	t.Run("nil chart", func(t *testing.T) {
		var c Chart
		if err := Display(c); err == nil {
			t.Fatal("Display(nil) returned no error")
		}
	})
	t.Run("not a go-echarts chart", func(t *testing.T) {
		if err := Display(fakeChart{}); err == nil {
			t.Fatal("Display(fakeChart{}) returned no error")
		}
	})
}

type fakeChart struct{}

func (fakeChart) RenderSnippet() render.ChartSnippet { return render.ChartSnippet{} }

// go-echarts drops the whole option when its data holds a NaN; Display must
// report that rather than show an empty chart.
func TestDisplayRejectsNaNOption(t *testing.T) {
	fakeAssets(t)
	line := charts.NewLine()
	line.SetXAxis([]string{"a", "b"}).AddSeries("s", []opts.LineData{{Value: 1.0}, {Value: math.NaN()}})
	_, err := HTML(line)
	if err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Fatalf("HTML(chart with NaN) error = %v; want one about NaN", err)
	}
}

// go-echarts strips newlines from embedded functions and JSON-escapes them:
// the JavaScript must not use double quotes or // comments.
func TestEmbeddedJavaScript(t *testing.T) {
	for name, js := range map[string]string{
		"heatmapRenderItem": heatmapRenderItem, "windowRenderItem": windowRenderItem, "zoneRenderItem": zoneRenderItem,
		"logLabelJS": logLabelJS,
	} {
		if strings.Contains(js, `"`) || strings.Contains(js, "//") {
			t.Errorf("%s uses a double quote or a // comment", name)
		}
	}
}
