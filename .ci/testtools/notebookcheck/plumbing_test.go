package notebookcheck

import (
	"fmt"
	"go/scanner"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// maxPlumbingPct is the largest share of a notebook's code words that may be plumbing.
const maxPlumbingPct = 10.0

// A word is an identifier or a literal of a code cell, outside its import declarations, `!`
// lines and `%` magics; keywords, operators and punctuation are the grammar and are not
// counted. A word is plumbing when it only gets a value to the reader rather than naming
// what the paper computes:
//
//   - error helpers: must.M, must.M1, … (both words), err, and the nil it is compared with;
//   - display wrappers: widgets.Show, widgets.Display, widgets.DisplayTable,
//     plots.DisplayStatic, plots.AtSize and anything of gonbui (both words);
//   - index lookups of the paper's instances: sod.PaperInstances()[k], and x[k] where
//     x := sod.PaperInstances() (the package, the function or the variable, and k);
//   - file hand-offs: experiments.SaveStudy / LoadStudy, escapebench's journal and instance
//     files (both words), and names ending in File or Path (a path kept for another cell);
//     handOffs fails a notebook in which a cell reads a file another cell wrote. Saving a
//     figure for a paper (os.TempDir, filepath.Join, plots.Save) is output, not plumbing.
//
// A word names the paper's objects when it is a workbench package's exported name or that
// package's name in front of it (sod.RealWorldCase, figures.SuccessRatesChart,
// experiments.RunStudy, …) and is not plumbing; the other words (local names, fields,
// numbers, Go's own packages) are neither.
type plumbing struct {
	Words, Plumbing, Paper int
}

func (p plumbing) PlumbingPct() float64 { return pct(p.Plumbing, p.Words) }
func (p plumbing) PaperPct() float64    { return pct(p.Paper, p.Words) }

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func (p plumbing) String() string {
	return fmt.Sprintf("plumbing %4.1f%% (%3d of %4d words), the paper's objects %4.1f%%", p.PlumbingPct(), p.Plumbing, p.Words, p.PaperPct())
}

var (
	workbenchPkgs = map[string]bool{"sod": true, "figures": true, "experiments": true, "paper": true,
		"escapebench": true, "staticfig": true, "batch": true, "exercises": true, "widgets": true, "plots": true}
	displayNames = map[string]map[string]bool{
		"widgets": {"Show": true, "Display": true, "DisplayTable": true},
		"plots":   {"DisplayStatic": true, "AtSize": true},
	}
	fileNames = map[string]map[string]bool{
		"experiments": {"SaveStudy": true, "LoadStudy": true},
		"escapebench": {"ReadJournal": true, "CreateJournal": true, "OpenJournal": true, "WriteInstancesJSON": true, "ReadInstancesJSON": true},
	}
	pathNameRe = regexp.MustCompile(`[a-z](File|Path)$`)
	// writers and readers of files, for the hand-off check: the first argument names the file.
	writerCalls = map[string]bool{"os.Create": true, "os.WriteFile": true, "os.OpenFile": true, "experiments.SaveStudy": true, "escapebench.CreateJournal": true}
	readerCalls = map[string]bool{"os.Open": true, "os.ReadFile": true, "experiments.LoadStudy": true, "escapebench.ReadJournal": true, "escapebench.OpenJournal": true}
)

type word struct {
	tok token.Token
	lit string
}

// cellWords returns the tokens of a code cell without its `!` and `%` lines and its imports.
func cellWords(src string) []word {
	var lines []string
	for _, l := range strings.Split(src, "\n") {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "!") || strings.HasPrefix(t, "%") {
			l = ""
		}
		lines = append(lines, l)
	}
	text := []byte(strings.Join(lines, "\n"))
	var s scanner.Scanner
	fs := token.NewFileSet()
	s.Init(fs.AddFile("cell", -1, len(text)), text, func(token.Position, string) {}, 0)
	var out []word
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		if tok == token.IMPORT { // skip the declaration: a string, a name and a string, or a ( … ) list
			_, tok, _ = s.Scan()
			if tok == token.LPAREN {
				for tok != token.RPAREN && tok != token.EOF {
					_, tok, _ = s.Scan()
				}
			} else if tok != token.STRING {
				s.Scan()
			}
			continue
		}
		out = append(out, word{tok, lit})
	}
	return out
}

func isWord(w word) bool {
	switch w.tok {
	case token.IDENT, token.INT, token.FLOAT, token.IMAG, token.CHAR, token.STRING:
		return true
	}
	return false
}

// measurePlumbing counts the words of a notebook's code cells (see plumbing).
func measurePlumbing(nb *notebook) plumbing {
	var p plumbing
	instLists := map[string]bool{} // variables holding sod.PaperInstances()
	for _, c := range nb.Cells {
		if c.CellType != "code" {
			continue
		}
		ws := cellWords(c.source())
		at := func(i int) word {
			if i < 0 || i >= len(ws) {
				return word{}
			}
			return ws[i]
		}
		sel := func(i int) (pkg, name string, ok bool) { // ws[i] . ws[i+2]
			if at(i).tok == token.IDENT && at(i+1).tok == token.PERIOD && at(i+2).tok == token.IDENT {
				return at(i).lit, at(i + 2).lit, true
			}
			return "", "", false
		}
		plumb := make([]bool, len(ws))
		paperW := make([]bool, len(ws))
		for i, w := range ws {
			if w.tok != token.IDENT {
				continue
			}
			if pkg, name, ok := sel(i); ok && (i == 0 || at(i-1).tok != token.PERIOD) {
				switch {
				case pkg == "must", pkg == "gonbui", displayNames[pkg][name], fileNames[pkg][name]:
					plumb[i], plumb[i+2] = true, true
				case pkg == "sod" && name == "PaperInstances" && at(i+3).tok == token.LPAREN && at(i+4).tok == token.RPAREN && at(i+5).tok == token.LBRACK:
					plumb[i], plumb[i+2], plumb[i+6] = true, true, true
				case pkg == "sod" && name == "PaperInstances" && (at(i-1).tok == token.DEFINE || at(i-1).tok == token.ASSIGN):
					instLists[at(i-2).lit] = true // indexed below
				}
				if !plumb[i] && workbenchPkgs[pkg] && token.IsExported(name) {
					paperW[i], paperW[i+2] = true, true
				}
				continue
			}
			switch {
			case w.lit == "err":
				plumb[i] = true
				if op := at(i + 1).tok; (op == token.NEQ || op == token.EQL) && at(i+2).lit == "nil" {
					plumb[i+2] = true
				}
			case instLists[w.lit] && at(i+1).tok == token.LBRACK && at(i+3).tok == token.RBRACK:
				plumb[i], plumb[i+2] = true, true
			case pathNameRe.MatchString(w.lit) && at(i-1).tok != token.PERIOD:
				plumb[i] = true
			}
		}
		for i, w := range ws {
			if !isWord(w) {
				continue
			}
			p.Words++
			if plumb[i] {
				p.Plumbing++
			} else if paperW[i] {
				p.Paper++
			}
		}
	}
	return p
}

// handOffs returns the files a notebook writes in one cell and reads in another: data handed
// to a later cell through a file, which the library's cache makes unnecessary (experiments
// remember their results across cells).
func handOffs(nb *notebook) []string {
	written, read := map[string][]int{}, map[string][]int{}
	for i, c := range nb.Cells {
		if c.CellType != "code" {
			continue
		}
		ws := cellWords(c.source())
		for k := 0; k+4 < len(ws); k++ {
			if ws[k].tok != token.IDENT || ws[k+1].tok != token.PERIOD || ws[k+3].tok != token.LPAREN || ws[k+4].tok != token.IDENT {
				continue
			}
			call, arg := ws[k].lit+"."+ws[k+2].lit, ws[k+4].lit
			if writerCalls[call] {
				written[arg] = append(written[arg], i)
			}
			if readerCalls[call] {
				read[arg] = append(read[arg], i)
			}
		}
	}
	var probs []string
	for f, ws := range written {
		for _, r := range read[f] {
			if !slices.Contains(ws, r) {
				probs = append(probs, fmt.Sprintf("cell %d reads %s, which cell %d writes: a file handed to another cell (let the library remember the result instead)", r, f, ws[0]))
				break
			}
		}
	}
	slices.Sort(probs)
	return probs
}

// TestNotebookPlumbing reports, per notebook, the share of code words that are plumbing and
// the share that name the paper's objects, and fails above maxPlumbingPct plumbing or when a
// notebook hands a file from one cell to another.
func TestNotebookPlumbing(t *testing.T) {
	var report strings.Builder
	for _, path := range notebookPaths(t) {
		nb, err := readNotebook(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		p := measurePlumbing(nb)
		fmt.Fprintf(&report, "%-42s %s\n", name, p)
		if p.PlumbingPct() > maxPlumbingPct {
			t.Errorf("%s: plumbing is %.1f%% of the code words, more than %.0f%%: show figures with widgets.Show(figures.X(…)), name instances (sod.RealWorldCase()), let the library remember results", name, p.PlumbingPct(), maxPlumbingPct)
		}
		for _, prob := range handOffs(nb) {
			t.Errorf("%s: %s", name, prob)
		}
	}
	t.Logf("code words that are plumbing / that name the paper's objects:\n%s", report.String())
}

func TestMeasurePlumbing(t *testing.T) {
	code := func(s string) cell { return cell{CellType: "code", Source: raw(s)} }
	for _, tc := range []struct {
		name                   string
		src                    []string
		words, plumbing, paper int
		handOff                string
	}{
		{"show", []string{"%%\nwidgets.Show(figures.SuccessRatesChart(res, 0.15, \"(a)\"))"}, 7, 2, 2, ""},
		{"must", []string{"%%\nmust.M(widgets.Display(must.M1(figures.SuccessRatesChart(res))))"}, 9, 6, 2, ""},
		{"imports and shell", []string{"!*go mod edit -x\n", "import (\n\t\"fmt\"\n\t\"sodworkbench.org/workbench/sod\"\n)\n\n%%\nfmt.Println(1)"}, 3, 0, 0, ""},
		{"index", []string{"%%\nin := sod.PaperInstances()[2]\nx := in.XHat"}, 7, 3, 0, ""},
		{"named", []string{"%%\nin := sod.RealWorldCase()\nx := in.XHat"}, 6, 0, 2, ""},
		{"list then index", []string{"%%\ninsts := sod.PaperInstances()\na := insts[0]"}, 6, 2, 2, ""},
		{"err", []string{"%%\nx, err := f()\nif err != nil {\n\treturn\n}"}, 5, 3, 0, ""},
		{"hand-off", []string{"var studyFile = filepath.Join(os.TempDir(), \"s.gob\")", "%%\nmust.M(experiments.SaveStudy(studyFile, res))", "%%\nres := must.M1(experiments.LoadStudy(studyFile))"}, 18, 11, 0, "cell 2 reads studyFile, which cell 1 writes"},
		{"same cell", []string{"%%\nf := must.M1(os.Create(p))\ng := must.M1(os.Open(p))"}, 12, 4, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nb := &notebook{}
			for _, s := range tc.src {
				nb.Cells = append(nb.Cells, code(s))
			}
			p := measurePlumbing(nb)
			if p.Words != tc.words || p.Plumbing != tc.plumbing || p.Paper != tc.paper {
				t.Errorf("words, plumbing, paper = %d, %d, %d; want %d, %d, %d", p.Words, p.Plumbing, p.Paper, tc.words, tc.plumbing, tc.paper)
			}
			got := strings.Join(handOffs(nb), "\n")
			if tc.handOff == "" && got != "" || tc.handOff != "" && !strings.Contains(got, tc.handOff) {
				t.Errorf("handOffs = %q, want %q", got, tc.handOff)
			}
		})
	}
}
