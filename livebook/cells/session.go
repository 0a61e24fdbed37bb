package cells

import (
	"fmt"
	"go/parser"
	"go/token"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Session is the state GoNB keeps between the cells of a notebook: the
// declarations and imports of every cell run so far. Each run is one whole
// program: the declarations accumulated (a later declaration of a name
// replaces the earlier one, as when a cell is edited and run again), the
// cell's own declarations and the cell's main body. As under GoNB,
// package-level variable initialisers run again before every cell.
type Session struct {
	decls   []Decl
	imports []Import
}

// Reset forgets every declaration and import.
func (s *Session) Reset() { s.decls, s.imports = nil, nil }

// Declarations returns how many declarations the session holds.
func (s *Session) Declarations() int { return len(s.decls) }

// Commit adds the cell's declarations and imports to the session,
// replacing earlier declarations of the same names and imports of the
// same local name. Call it once the cell's program compiled.
func (s *Session) Commit(name string, c *Cell) {
	s.decls, s.imports = merge(s.decls, s.imports, name, c)
}

func merge(decls []Decl, imports []Import, name string, c *Cell) ([]Decl, []Import) {
	nd := append([]Decl(nil), decls...)
	ni := append([]Import(nil), imports...)
	for _, d := range c.Decls {
		d.Cell = name
		keys := map[string]bool{}
		for _, k := range d.Keys {
			keys[k] = true
		}
		kept := nd[:0]
		for _, old := range nd {
			clash := false
			for _, k := range old.Keys {
				clash = clash || keys[k]
			}
			if !clash {
				kept = append(kept, old)
			}
		}
		nd = append(kept, d)
	}
	for _, im := range c.Imports {
		kept := ni[:0]
		for _, old := range ni {
			if old.local() != im.local() || im.local() == "_" {
				kept = append(kept, old)
			}
		}
		ni = append(kept, im)
	}
	return nd, ni
}

// Program is the Go source of one run, with a map from its lines back to
// the cells.
type Program struct {
	Src     string
	Imports []string // the import paths
	chunks  []chunk
}

type chunk struct {
	line     int // first program line (1-based)
	cell     string
	cellLine int
}

// Program returns the program that runs cell c (named name) after the
// session's declarations, type-checked and rewritten for the interpreter
// by rw (see Rewriter; nil: as written). The session is not changed.
func (s *Session) Program(name string, c *Cell, rw *Rewriter) (*Program, error) {
	decls, imports := merge(s.decls, s.imports, name, c)
	var b strings.Builder
	p := &Program{}
	line := 1
	add := func(text, cell string, cellLine int) {
		p.chunks = append(p.chunks, chunk{line: line, cell: cell, cellLine: cellLine})
		b.WriteString(text)
		b.WriteString("\n")
		line += strings.Count(text, "\n") + 1
	}
	add("package main", "", 0)
	sort.SliceStable(imports, func(i, j int) bool { return imports[i].Path < imports[j].Path })
	for _, im := range imports {
		p.Imports = append(p.Imports, im.Path)
		if im.Name != "" {
			add(fmt.Sprintf("import %s %s", im.Name, strconv.Quote(im.Path)), "", 0)
		} else {
			add("import "+strconv.Quote(im.Path), "", 0)
		}
	}
	for _, d := range decls {
		add(d.Src, d.Cell, d.Line)
	}
	add("func main() {", name, 0) // the main function: the cell, no line
	if c.HasMain {
		add(c.Body, name, c.BodyLine)
	}
	add("}", "", 0)
	p.Src = b.String()
	if rw == nil {
		return p, nil
	}
	src, err := rw.Check(p.Src)
	if err != nil {
		if ce, ok := err.(*CheckError); ok {
			cell, l := p.Where(ce.Line)
			if cell == "" {
				cell = name
			}
			return nil, &Error{Cell: cell, Line: l, Msg: ce.Msg}
		}
		return nil, &Error{Cell: name, Msg: err.Error()}
	}
	p.Src = src
	p.Imports = nil
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly)
	if err != nil {
		return nil, &Error{Cell: name, Msg: "rewriting the program: " + err.Error()}
	}
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		p.Imports = append(p.Imports, path)
	}
	return p, nil
}

// Where maps a line of the program to a cell and its line (0 for the
// line of the main function, and "" for lines of no cell).
func (p *Program) Where(line int) (cell string, cellLine int) {
	for i := len(p.chunks) - 1; i >= 0; i-- {
		if ch := p.chunks[i]; line >= ch.line {
			if ch.cellLine == 0 {
				return ch.cell, 0
			}
			return ch.cell, ch.cellLine + line - ch.line
		}
	}
	return "", 0
}

// positionRE finds the interpreter's positions in the program ("12:5: ...");
// positions in a source package carry its file name and are left alone.
var positionRE = regexp.MustCompile(`(^|[\s(])(\d+):(\d+)(:?)`)

// Explain rewrites the positions in a message of the interpreter about
// the program into cell positions ("cell 3, line 4").
func (p *Program) Explain(msg string) string {
	return positionRE.ReplaceAllStringFunc(msg, func(m string) string {
		sub := positionRE.FindStringSubmatch(m)
		n, _ := strconv.Atoi(sub[2])
		cell, line := p.Where(n)
		switch {
		case cell == "":
			return m
		case line == 0:
			return sub[1] + cell + sub[4]
		}
		return fmt.Sprintf("%s%s, line %d%s", sub[1], cell, line, sub[4])
	})
}
