package notebookcheck

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sodworkbench.org/workbench/widgets"
	"strconv"
	"strings"
	"sync"
	"time"
)

// notebookDir is the folder of the notebooks, from this package's folder (.ci/testtools/notebookcheck).
const notebookDir = "../../../notebooks"

// LiveOnlyTag marks cells that need a live browser (GoNB widgets such as sliders block under
// nbconvert). The harness removes them before executing a notebook headlessly.
const LiveOnlyTag = "live-only"

// notebook is the part of the nbformat 4 schema the harness reads.
type notebook struct {
	Cells []cell `json:"cells"`
}

type cell struct {
	CellType       string          `json:"cell_type"`
	Source         json.RawMessage `json:"source"` // a string or a list of strings
	Metadata       cellMetadata    `json:"metadata"`
	ExecutionCount *int            `json:"execution_count"`
	Outputs        []output        `json:"outputs"`
}

type cellMetadata struct {
	Tags []string `json:"tags"`
	Sod  struct {
		Exercise string `json:"exercise"` // the exercise id, "07.1", of an exercise's cells
	} `json:"sod"`
}

type output struct {
	OutputType string                     `json:"output_type"`
	Name       string                     `json:"name"`
	Text       json.RawMessage            `json:"text"`
	Data       map[string]json.RawMessage `json:"data"`
	Ename      string                     `json:"ename"`
	Evalue     string                     `json:"evalue"`
}

// joinText turns an nbformat multiline string (a string or a list of strings) into one string.
func joinText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []string
	if json.Unmarshal(raw, &parts) == nil {
		return strings.Join(parts, "")
	}
	return string(raw)
}

func (c cell) source() string { return joinText(c.Source) }

func (c cell) hasTag(tag string) bool { return slices.Contains(c.Metadata.Tags, tag) }

func (c cell) label(i int) string {
	first, _, _ := strings.Cut(strings.TrimSpace(c.source()), "\n")
	if len(first) > 60 {
		first = first[:60] + "…"
	}
	return fmt.Sprintf("cell %d (%q)", i, first)
}

func readNotebook(path string) (*notebook, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var nb notebook
	if err := json.Unmarshal(b, &nb); err != nil {
		return nil, fmt.Errorf("%s: not a notebook: %v", path, err)
	}
	return &nb, nil
}

var goGetRe = regexp.MustCompile(`go\s+get\s+([^\n;&|]*)`)

// liveRe matches the calls that block without a live browser (widgets.Explore waits for its
// controls), so their cells must carry LiveOnlyTag.
var liveRe = regexp.MustCompile(`\bwidgets\.Explore\(`)

// checkSource returns the problems of a notebook as committed: outputs that should have been
// cleared, `go get` of a module without a pinned version (the module proxy here refuses
// version lists, so an unpinned go get fails on a fresh machine), and a widgets.Explore cell
// not tagged LiveOnlyTag.
func checkSource(nb *notebook) []string {
	var probs []string
	for i, c := range nb.Cells {
		if c.CellType != "code" {
			continue
		}
		if len(c.Outputs) > 0 || c.ExecutionCount != nil {
			probs = append(probs, c.label(i)+": committed outputs or execution count (clear them before committing)")
		}
		if liveRe.MatchString(c.source()) && !c.hasTag(LiveOnlyTag) {
			probs = append(probs, c.label(i)+": calls widgets.Explore, which waits for a browser: tag the cell "+LiveOnlyTag+" (headless runs would hang until the timeout)")
		}
		for _, m := range goGetRe.FindAllStringSubmatch(c.source(), -1) {
			for _, arg := range strings.Fields(m[1]) {
				if strings.HasPrefix(arg, "-") {
					continue
				}
				if !strings.Contains(arg, "@") || strings.HasSuffix(arg, "@latest") {
					probs = append(probs, fmt.Sprintf("%s: `go get %s` has no pinned version (write %s@vX.Y.Z)", c.label(i), arg, strings.TrimSuffix(arg, "@latest")))
				}
			}
		}
	}
	return probs
}

var exitStatusRe = regexp.MustCompile(`(?m)^exit status ([0-9]+)\s*$`)

// checkExecuted returns the failures visible in an executed notebook: error outputs (compile
// errors, panics, kernel errors), failed `!` shell lines (nbconvert does not fail on those: GoNB
// only prints "exit status N"), and a notebook that produced no output at all.
func checkExecuted(nb *notebook) []string {
	var probs []string
	nout := 0
	for i, c := range nb.Cells {
		if c.CellType != "code" {
			continue
		}
		nout += len(c.Outputs)
		for _, o := range c.Outputs {
			switch o.OutputType {
			case "error":
				msg := fmt.Sprintf("%s: error: %s: %s", c.label(i), o.Ename, firstLines(o.Evalue, 3))
				if detail := compileErrors(c.Outputs); detail != "" {
					msg += " | " + detail
				}
				probs = append(probs, msg)
			case "stream":
				text := joinText(o.Text)
				if m := exitStatusRe.FindStringSubmatch(text); m != nil && m[1] != "0" {
					probs = append(probs, fmt.Sprintf("%s: a command failed (%s): %s", c.label(i), strings.TrimSpace(m[0]), firstLines(text, 6)))
				}
				for _, l := range strings.Split(text, "\n") {
					if strings.HasPrefix(l, widgets.ShowErrorPrefix) { // a figure that widgets.Show could not show
						probs = append(probs, fmt.Sprintf("%s: %s", c.label(i), l))
					}
				}
			}
		}
	}
	if nout == 0 {
		probs = append(probs, "the notebook produced no output at all")
	}
	return probs
}

var (
	styleRe    = regexp.MustCompile(`(?s)<style>.*?</style>`)
	tagRe      = regexp.MustCompile(`<[^>]+>`)
	cellLineRe = regexp.MustCompile(`(?m)^\s*Cell\[\d+\]: Line \d+ .*$`)
)

// compileErrors extracts GoNB's compiler messages ("Cell[2]: Line 2 ./main.go:11:13: undefined: x")
// from the HTML error report that accompanies an error output.
func compileErrors(outs []output) string {
	var lines []string
	for _, o := range outs {
		h, ok := o.Data["text/html"]
		if !ok {
			continue
		}
		text := html.UnescapeString(tagRe.ReplaceAllString(styleRe.ReplaceAllString(joinText(h), ""), ""))
		for _, l := range cellLineRe.FindAllString(text, 5) {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	return strings.Join(lines, " | ")
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return strings.Join(lines, " | ")
}

// toolchain reports whether Jupyter with the gonb kernel can run here, and why not.
func toolchain() error {
	if _, err := exec.LookPath("jupyter"); err != nil {
		return errors.New("jupyter not found")
	}
	out, err := exec.Command("jupyter", "kernelspec", "list").CombinedOutput()
	if err != nil {
		return fmt.Errorf("jupyter kernelspec list: %v: %s", err, out)
	}
	if !regexp.MustCompile(`(?m)^\s*gonb\s`).Match(out) {
		return errors.New("the gonb Jupyter kernel is not installed")
	}
	if _, err := exec.LookPath("goimports"); err != nil {
		return errors.New("goimports not found on PATH")
	}
	return nil
}

func init() {
	// Where scripts/install.sh puts gonb and goimports (SOD_BIN, ~/.local/bin or /usr/local/bin).
	home, _ := os.UserHomeDir()
	dirs := []string{filepath.Join(home, ".local/bin"), "/usr/local/bin", "/usr/local/go/bin", os.Getenv("PATH")}
	if bin := os.Getenv("SOD_BIN"); bin != "" {
		dirs = append([]string{bin}, dirs...)
	}
	os.Setenv("PATH", strings.Join(dirs, string(os.PathListSeparator)))
	os.Setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1")
}

// result is what executing one notebook gave.
type result struct {
	Name     string
	Duration time.Duration
	Problems []string
}

func (r result) failed() bool { return len(r.Problems) > 0 }

// execute runs one notebook with nbconvert and the gonb kernel, with a time limit, keeps the
// executed copy in outDir and returns its problems.
func execute(ctx context.Context, path, outDir string, timeout time.Duration) result {
	name := filepath.Base(path)
	res := result{Name: name}
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, timeout+30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "jupyter", "nbconvert",
		"--to", "notebook", "--execute", "--allow-errors",
		"--ExecutePreprocessor.kernel_name=gonb",
		"--ExecutePreprocessor.timeout="+strconv.Itoa(int(timeout.Seconds())),
		"--TagRemovePreprocessor.enabled=True",
		"--TagRemovePreprocessor.remove_cell_tags="+LiveOnlyTag,
		"--output-dir", outDir, "--output", strings.TrimSuffix(name, ".ipynb"),
		name)
	cmd.Dir = filepath.Dir(path) // the kernel starts in the notebook's folder, as in Jupyter
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	cmd.WaitDelay = 10 * time.Second
	err := cmd.Run()
	res.Duration = time.Since(start)
	if ctx.Err() != nil {
		res.Problems = append(res.Problems, fmt.Sprintf("timed out after %v", timeout))
		return res
	}
	if err != nil {
		res.Problems = append(res.Problems, fmt.Sprintf("nbconvert failed: %v\n%s", err, tail(stderr.String(), 20)))
		return res
	}
	nb, err := readNotebook(filepath.Join(outDir, name))
	if err != nil {
		res.Problems = append(res.Problems, err.Error())
		return res
	}
	res.Problems = append(res.Problems, checkExecuted(nb)...)
	res.Problems = append(res.Problems, checkExercisesRan(nb)...)
	return res
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// runAll executes the notebooks with at most jobs at once, in the given order.
func runAll(ctx context.Context, paths []string, outDir string, timeout time.Duration, jobs int, done func(result)) []result {
	results := make([]result, len(paths))
	sem := make(chan struct{}, max(1, jobs))
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i, p := range paths {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			r := execute(ctx, p, outDir, timeout)
			results[i] = r
			mu.Lock()
			done(r)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return results
}

// defaultJobs is how many notebooks run at once when SOD_NOTEBOOK_JOBS is unset: two, or one on a
// single core. On the 2-core CI machine two at a time took 125 s cold and 81 s warm for the 11
// notebooks, against 155 s and 136 s one at a time. More than two was not measured.
func defaultJobs() int { return min(2, runtime.NumCPU()) }

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}
