package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"regexp"
	"slices"
	"strings"
)

// The cell tags and metadata of the exercise cell convention (README, "Exercises"): each
// exercise is an answer cell, a check cell and a solution cell, all three with metadata
// {"sod": {"exercise": "NN.k"}}.
const (
	tagAnswer   = "exercise-answer"
	tagCheck    = "exercise-check"
	tagSolution = "solution"
	tagLiveOnly = "live-only"
)

// notebook is an nbformat 4 notebook kept as generic JSON, so that reading and writing it
// loses nothing the grader does not know about.
type notebook struct {
	doc   map[string]any
	cells []map[string]any
}

func readNotebook(path string) (*notebook, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseNotebook(b)
}

// maxNesting is the deepest nesting of JSON arrays and objects the grader accepts in a
// notebook: a notebook's own structure is about 8 deep (widget state in metadata a few more);
// nbconvert (Python's json and nbformat's validation) fails with a traceback on much deeper
// documents, so the grader refuses them first, saying why.
const maxNesting = 64

// cellIDRe is nbformat 4.5's form of a cell id.
var cellIDRe = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// parseNotebook reads an nbformat 4 notebook, refusing with a message that says what is wrong
// (never nbconvert's traceback later) whatever the grader or nbconvert could not run: invalid
// JSON, nesting deeper than maxNesting, another nbformat, cells that are not cells of one of
// the three kinds with a source and metadata, cell ids that are malformed or repeated. A
// student's copy must also pass studentCells.
func parseNotebook(b []byte) (*notebook, error) {
	if d := jsonDepth(b); d > maxNesting {
		return nil, fmt.Errorf("not a notebook the grader can run: its JSON is nested %d deep, more than any notebook (at most %d levels)", d, maxNesting)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("not a notebook (invalid JSON: %v)", err)
	}
	raw, ok := doc["cells"].([]any)
	if !ok {
		return nil, fmt.Errorf("not a notebook (no cells list)")
	}
	if v, ok := doc["nbformat"].(float64); !ok || v != 4 {
		return nil, fmt.Errorf("not a notebook the grader can run: nbformat %v, want 4 (save it with Jupyter 4 or later)", doc["nbformat"])
	}
	nb := &notebook{doc: doc}
	ids := map[string]bool{}
	for i, c := range raw {
		m, ok := c.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("not a notebook (cell %d is not an object)", i)
		}
		switch t := cellType(m); t {
		case "code", "markdown", "raw":
		default:
			return nil, fmt.Errorf("not a notebook the grader can run: cell %d has cell_type %q (want code, markdown or raw)", i, t)
		}
		if !isText(m["source"]) {
			return nil, fmt.Errorf("not a notebook the grader can run: cell %d has no source text (a string or a list of strings)", i)
		}
		if _, ok := m["metadata"].(map[string]any); !ok && m["metadata"] != nil {
			return nil, fmt.Errorf("not a notebook the grader can run: cell %d's metadata is not an object", i)
		}
		if id, present := m["id"]; present {
			s, _ := id.(string)
			switch {
			case !cellIDRe.MatchString(s):
				return nil, fmt.Errorf("not a notebook the grader can run: cell %d's id %q is not 1 to 64 letters, digits, - or _", i, shorten(fmt.Sprint(id), 80))
			case ids[s]:
				return nil, fmt.Errorf("not a notebook the grader can run: cell %d's id %q is used by an earlier cell", i, s)
			}
			ids[s] = true
		}
		nb.cells = append(nb.cells, m)
	}
	return nb, nil
}

// studentCells refuses a student's copy that has a cell with an id of the form the grader gives
// the cells it inserts (gradedCellID), which would make two cells of the graded copy one.
func studentCells(nb *notebook) error {
	for i, c := range nb.cells {
		if id, _ := c["id"].(string); strings.HasPrefix(id, "sodgrade-") {
			return fmt.Errorf("not a notebook the grader can run: cell %d's id %q is of the form the grader gives its own cells (sodgrade-…)", i, id)
		}
	}
	return nil
}

// isText says whether v is a notebook text: a string or a list of strings.
func isText(v any) bool {
	switch v := v.(type) {
	case string:
		return true
	case []any:
		for _, e := range v {
			if _, ok := e.(string); !ok {
				return false
			}
		}
		return true
	}
	return false
}

// shorten cuts s to at most n bytes, marking the cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// jsonDepth is the deepest nesting of arrays and objects in the JSON text b (brackets inside
// strings not counted), without decoding it.
func jsonDepth(b []byte) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}

func (nb *notebook) marshal() ([]byte, error) {
	cells := make([]any, len(nb.cells))
	for i, c := range nb.cells {
		cells[i] = c
	}
	doc := make(map[string]any, len(nb.doc))
	for k, v := range nb.doc {
		doc[k] = v
	}
	doc["cells"] = cells
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (nb *notebook) write(path string) error {
	b, err := nb.marshal()
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

func cellType(c map[string]any) string { s, _ := c["cell_type"].(string); return s }

// joinText turns an nbformat multiline string (a string or a list of strings) into one string.
func joinText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case []any:
		var sb strings.Builder
		for _, p := range t {
			s, _ := p.(string)
			sb.WriteString(s)
		}
		return sb.String()
	}
	return ""
}

func source(c map[string]any) string { return joinText(c["source"]) }

func metadata(c map[string]any) map[string]any {
	m, ok := c["metadata"].(map[string]any)
	if !ok {
		m = map[string]any{}
		c["metadata"] = m
	}
	return m
}

func tags(c map[string]any) []string {
	var ts []string
	raw, _ := metadata(c)["tags"].([]any)
	for _, t := range raw {
		if s, ok := t.(string); ok {
			ts = append(ts, s)
		}
	}
	return ts
}

func hasTag(c map[string]any, tag string) bool { return slices.Contains(tags(c), tag) }

// exerciseID is the cell's metadata sod.exercise, or "".
func exerciseID(c map[string]any) string {
	sod, _ := metadata(c)["sod"].(map[string]any)
	id, _ := sod["exercise"].(string)
	return id
}

// codeCell makes a code cell without outputs.
func codeCell(id, src string, meta map[string]any) map[string]any {
	if meta == nil {
		meta = map[string]any{}
	}
	return map[string]any{
		"cell_type":       "code",
		"id":              id,
		"metadata":        meta,
		"source":          src,
		"execution_count": nil,
		"outputs":         []any{},
	}
}

// outputText is the text a code cell printed: its stream outputs, and the text/plain of its
// display and error outputs, in order.
func outputText(c map[string]any) string {
	var sb strings.Builder
	outs, _ := c["outputs"].([]any)
	for _, o := range outs {
		m, _ := o.(map[string]any)
		switch m["output_type"] {
		case "stream":
			sb.WriteString(joinText(m["text"]))
		case "display_data", "execute_result":
			data, _ := m["data"].(map[string]any)
			sb.WriteString(joinText(data["text/plain"]))
		}
		if s := sb.String(); s != "" && !strings.HasSuffix(s, "\n") {
			sb.WriteString("\n")
		}
	}
	return sb.String()
}

// cellError returns the first error output of a code cell as "ename: evalue", or "".
func cellError(c map[string]any) string {
	outs, _ := c["outputs"].([]any)
	for _, o := range outs {
		m, _ := o.(map[string]any)
		if m["output_type"] == "error" {
			ename, _ := m["ename"].(string)
			evalue, _ := m["evalue"].(string)
			return strings.TrimSpace(ename + ": " + firstLine(evalue))
		}
	}
	return ""
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// gonbErrRe matches one compiler message in GoNB's HTML error report: the location span, then
// the message, then the hidden source context.
var gonbErrRe = regexp.MustCompile(`gonb-err-location">[^<]*</span></span>([^<]+)<div class="gonb-err-context">`)

// compileErrors extracts GoNB's compiler messages ("undefined: answer071") from the HTML report
// that comes with a cell's error output, without repeats.
func compileErrors(c map[string]any) string {
	var msgs []string
	outs, _ := c["outputs"].([]any)
	for _, o := range outs {
		m, _ := o.(map[string]any)
		data, _ := m["data"].(map[string]any)
		for _, sm := range gonbErrRe.FindAllStringSubmatch(joinText(data["text/html"]), -1) {
			msg := strings.TrimSpace(html.UnescapeString(sm[1]))
			if !slices.Contains(msgs, msg) && len(msgs) < 3 {
				msgs = append(msgs, msg)
			}
		}
	}
	return strings.Join(msgs, "; ")
}
