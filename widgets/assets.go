package widgets

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// AssetsEnv is the environment variable that, when set, names the directory
// holding the npm-installed ECharts assets. It may point either at
// widgets/assets (the directory with package.json) or directly at its
// node_modules directory.
const AssetsEnv = "SOD_WIDGETS_ASSETS"

// Paths of the two libraries inside node_modules. They are pinned by
// widgets/assets/package-lock.json (ECharts 5.6.0, ECharts-GL 2.1.0).
const (
	echartsRelPath   = "echarts/dist/echarts.min.js"
	echartsGLRelPath = "echarts-gl/dist/echarts-gl.min.js"
)

// installHint is appended to every "assets missing" error.
const installHint = "install them from the repository root with `scripts/install.sh --user` " +
	"or `npm ci --prefix widgets/assets`, or set " + AssetsEnv +
	" to the directory that holds node_modules/echarts"

// ErrAssetsMissing is wrapped by the error returned when the ECharts
// JavaScript files cannot be found. Test for it with errors.Is.
var ErrAssetsMissing = errors.New("widgets: ECharts assets not found")

// AssetsDir returns the node_modules directory that holds ECharts, found in
// this order:
//
//  1. the directory named by $SOD_WIDGETS_ASSETS (an error if it is set but
//     does not contain ECharts: a wrong setting is never silently ignored);
//  2. assets/node_modules next to this package's source file (found with
//     runtime.Caller; it works because notebooks use the module through a
//     local replace directive);
//  3. widgets/assets/node_modules or assets/node_modules in the working
//     directory or any of its parents.
//
// The error wraps ErrAssetsMissing and says how to install the assets. In
// the live book (GOOS=js GOARCH=wasm) the page has the libraries and
// AssetsDir names its copy.
func AssetsDir() (string, error) {
	if d, ok := pageAssets(); ok {
		return d, nil
	}
	if env := os.Getenv(AssetsEnv); env != "" {
		for _, d := range []string{filepath.Join(env, "node_modules"), env} {
			if hasEcharts(d) {
				return d, nil
			}
		}
		return "", fmt.Errorf("%w: $%s=%q contains neither node_modules/%s nor %s; %s",
			ErrAssetsMissing, AssetsEnv, env, echartsRelPath, echartsRelPath, installHint)
	}
	var tried []string
	if _, file, _, ok := runtime.Caller(0); ok {
		d := filepath.Join(filepath.Dir(file), "assets", "node_modules")
		if hasEcharts(d) {
			return d, nil
		}
		tried = append(tried, d)
	}
	if wd, err := os.Getwd(); err == nil {
		for dir := wd; ; dir = filepath.Dir(dir) {
			for _, d := range []string{
				filepath.Join(dir, "widgets", "assets", "node_modules"),
				filepath.Join(dir, "assets", "node_modules"),
			} {
				if hasEcharts(d) {
					return d, nil
				}
			}
			tried = append(tried, filepath.Join(dir, "{widgets/assets,assets}", "node_modules"))
			if parent := filepath.Dir(dir); parent == dir {
				break
			}
		}
	}
	return "", fmt.Errorf("%w (looked in %s); %s", ErrAssetsMissing, strings.Join(tried, ", "), installHint)
}

func hasEcharts(nodeModules string) bool {
	st, err := os.Stat(filepath.Join(nodeModules, echartsRelPath))
	return err == nil && st.Mode().IsRegular() && st.Size() > 0
}

// library identifies one of the JavaScript libraries the charts need.
type library int

const (
	libECharts library = iota
	libEChartsGL
	numLibraries
)

func (l library) relPath() string {
	if l == libEChartsGL {
		return echartsGLRelPath
	}
	return echartsRelPath
}

// libCache holds the library sources read from disk, and their
// gzip+base64 form, once per process.
var libCache struct {
	sync.Mutex
	src    [numLibraries]string
	packed [numLibraries]string
}

// librarySource returns the minified source of l, read from AssetsDir.
func librarySource(l library) (string, error) {
	libCache.Lock()
	defer libCache.Unlock()
	if s := libCache.src[l]; s != "" {
		return s, nil
	}
	dir, err := AssetsDir()
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(filepath.Join(dir, l.relPath()))
	if err != nil {
		return "", fmt.Errorf("%w: %v; %s", ErrAssetsMissing, err, installHint)
	}
	if len(b) == 0 {
		return "", fmt.Errorf("%w: %s is empty; %s", ErrAssetsMissing, filepath.Join(dir, l.relPath()), installHint)
	}
	// A literal "</script" would end the inline <script> element early.
	s := strings.ReplaceAll(string(b), "</script", `<\/script`)
	libCache.src[l] = s
	return s, nil
}

// libraryCompressed returns the source of l gzip-compressed (best
// compression, no timestamp: the output is deterministic) and
// base64-encoded.
func libraryCompressed(l library) (string, error) {
	src, err := librarySource(l)
	if err != nil {
		return "", err
	}
	libCache.Lock()
	defer libCache.Unlock()
	if p := libCache.packed[l]; p != "" {
		return p, nil
	}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return "", err
	}
	if _, err := zw.Write([]byte(src)); err != nil {
		return "", err
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	p := base64.StdEncoding.EncodeToString(buf.Bytes())
	libCache.packed[l] = p
	return p, nil
}

// resetLibraryCache forgets the cached sources (tests only).
func resetLibraryCache() {
	libCache.Lock()
	libCache.src = [numLibraries]string{}
	libCache.packed = [numLibraries]string{}
	libCache.Unlock()
}
