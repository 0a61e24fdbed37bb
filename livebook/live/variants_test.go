package live_test

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// A variant is a generated edit of a notebook cell: the kind of edit and
// the cell's new source.
type variant struct {
	kind string
	src  string
}

// shadowed are the built-ins the generated edits shadow, one per cell in
// turn.
var shadowed = []string{"clear", "min", "max", "len", "new", "print", "copy"}

// variants returns the generated edits of cell (the seq-th code cell of
// the book), deterministically: every numeric literal changed (5 → 6,
// 0.08 → 0.09), every statement split after each comma and binary
// operator, each plain assignment of the body made a parallel one in each
// statement position (itself, an if's and a switch's init, a for's post),
// and a variable of the body renamed to a built-in's name and a function
// of that name declared. An edit that does not apply is left out.
func variants(cell string, seq int) []variant {
	toks := cellTokens(cell)
	var out []variant
	add := func(kind string, edits []textEdit) {
		if len(edits) > 0 {
			out = append(out, variant{kind, applyEdits(cell, edits)})
		}
	}
	// Numeric literals.
	var lits []textEdit
	for _, tk := range toks {
		switch tk.tok {
		case token.INT:
			if n, err := strconv.ParseInt(tk.lit, 10, 64); err == nil && (tk.lit == "0" || tk.lit[0] != '0') {
				lits = append(lits, textEdit{tk.off, tk.off + len(tk.lit), strconv.FormatInt(n+1, 10)})
			}
		case token.FLOAT:
			if s, ok := nextFloat(tk.lit); ok {
				lits = append(lits, textEdit{tk.off, tk.off + len(tk.lit), s})
			}
		}
	}
	add("numeric literals changed", lits)
	// Lines split after commas and binary operators.
	var splits []textEdit
	for i, tk := range toks {
		if i == 0 || i+1 >= len(toks) || toks[i+1].line != tk.line {
			continue // already the end of a line
		}
		binary := tk.tok.Precedence() > 0 && tk.tok != token.ARROW && operandEnd(toks[i-1].tok)
		if tk.tok == token.COMMA || binary {
			end := tk.off + len(tk.tok.String())
			splits = append(splits, textEdit{end, end, "\n\t"})
		}
	}
	add("statements split over lines", splits)
	// The body's statements.
	bodyAt := strings.Index(cell, "%%\n")
	if bodyAt < 0 || (bodyAt > 0 && cell[bodyAt-1] != '\n') {
		return out
	}
	bodyAt += 3
	body := cell[bodyAt:]
	const head = "package p\nfunc _() {\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", head+body+"\n}", 0)
	if err != nil {
		return out
	}
	off := func(p token.Pos) int { return bodyAt + fset.Position(p).Offset - len(head) }
	var plain []*ast.AssignStmt
	var define *ast.Ident
	ast.Inspect(f, func(n ast.Node) bool {
		var list []ast.Stmt
		switch n := n.(type) {
		case *ast.BlockStmt:
			list = n.List
		case *ast.CaseClause:
			list = n.Body
		case *ast.CommClause:
			list = n.Body
		case *ast.FuncLit:
			return false // its own variables
		}
		for _, s := range list {
			if a, ok := s.(*ast.AssignStmt); ok && len(a.Lhs) == 1 && len(a.Rhs) == 1 {
				if a.Tok == token.ASSIGN {
					plain = append(plain, a)
				}
				if id, ok := a.Lhs[0].(*ast.Ident); ok && a.Tok == token.DEFINE && id.Name != "_" && define == nil {
					define = id
				}
			}
		}
		return true
	})
	forms := []struct{ kind, pre, post string }{
		{"parallel assignment", "", ""},
		{"parallel assignment as an if init", "if ", "; true {\n}"},
		{"parallel assignment as a switch init", "switch ", "; {\n}"},
		{"parallel assignment as a for post", "for livebookGenOnce := true; livebookGenOnce; ", " {\n\tlivebookGenOnce = false\n}"},
	}
	for _, fm := range forms {
		var es []textEdit
		for _, a := range plain {
			l, r := cell[off(a.Lhs[0].Pos()):off(a.Lhs[0].End())], cell[off(a.Rhs[0].Pos()):off(a.Rhs[0].End())]
			es = append(es, textEdit{off(a.Pos()), off(a.End()), fm.pre + l + ", _ = " + r + ", 0" + fm.post})
		}
		add(fm.kind, es)
	}
	// A variable renamed to a built-in's name, from its declaration on.
	name := shadowed[seq%len(shadowed)]
	if define != nil {
		var es []textEdit
		start := off(define.Pos())
		for i, tk := range toks {
			if tk.tok == token.IDENT && tk.lit == define.Name && tk.off >= start && (i == 0 || toks[i-1].tok != token.PERIOD) {
				es = append(es, textEdit{tk.off, tk.off + len(tk.lit), name})
			}
		}
		add("a variable named "+name, es)
	}
	// A function of the body named as another built-in.
	fn := shadowed[(seq+3)%len(shadowed)]
	add("a function named "+fn, []textEdit{{bodyAt, bodyAt, fn + " := func(a ...any) int { return 0 }\n_ = " + fn + "\n"}})
	return out
}

// nextFloat changes the last digit of a decimal floating-point literal's
// mantissa (0.08 → 0.09, 2.5e-3 → 2.6e-3; 0.09 → 0.091).
func nextFloat(lit string) (string, bool) {
	if strings.ContainsAny(lit, "xX_") {
		return "", false
	}
	m, exp := lit, ""
	if i := strings.IndexAny(lit, "eE"); i >= 0 {
		m, exp = lit[:i], lit[i:]
	}
	j := len(m) - 1
	for j >= 0 && m[j] == '.' {
		j--
	}
	if j < 0 {
		return "", false
	}
	if m[j] < '9' {
		return m[:j] + string(m[j]+1) + m[j+1:] + exp, true
	}
	if !strings.Contains(m, ".") {
		return "", false
	}
	return m + "1" + exp, true
}

func operandEnd(t token.Token) bool {
	switch t {
	case token.IDENT, token.INT, token.FLOAT, token.IMAG, token.CHAR, token.STRING, token.RPAREN, token.RBRACK, token.RBRACE:
		return true
	}
	return false
}

type cellToken struct {
	tok  token.Token
	lit  string
	off  int
	line int
}

// cellTokens scans the Go text of a cell: its "!" and "%" lines (GoNB's)
// and its imports are left out.
func cellTokens(cell string) []cellToken {
	lines := strings.SplitAfter(cell, "\n")
	var b strings.Builder
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "!") || strings.HasPrefix(t, "%") {
			b.WriteString(strings.Repeat(" ", len(l)-1) + l[len(l)-1:])
			if !strings.HasSuffix(l, "\n") {
				b.WriteString(" ")
			}
			continue
		}
		b.WriteString(l)
	}
	src := []byte(b.String()[:len(cell)])
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, 0)
	var out []cellToken
	inImport := false
	depth := 0
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		if tok == token.IMPORT {
			inImport = true
		}
		if inImport {
			switch tok {
			case token.LPAREN:
				depth++
			case token.RPAREN:
				depth--
			case token.SEMICOLON:
			}
			if depth == 0 && (tok == token.STRING || tok == token.RPAREN) {
				inImport = false
			}
			continue
		}
		if lit == "" {
			lit = tok.String()
		}
		p := file.Position(pos)
		out = append(out, cellToken{tok, lit, p.Offset, p.Line})
	}
	return out
}

type textEdit struct {
	start, end int
	text       string
}

func applyEdits(src string, es []textEdit) string {
	sort.SliceStable(es, func(i, j int) bool { return es[i].start < es[j].start })
	var b strings.Builder
	at := 0
	for _, e := range es {
		if e.start < at {
			continue // inside an earlier edit
		}
		b.WriteString(src[at:e.start])
		b.WriteString(e.text)
		at = e.end
	}
	b.WriteString(src[at:])
	return b.String()
}

// TestVariants checks the generated edits of a small cell.
func TestVariants(t *testing.T) {
	cell := "import \"fmt\"\n\nconst n = 5\n%%\ncfg := struct{ Seed uint64; Step float64 }{}\ncfg.Seed = 11\ncfg.Step = 0.08 + 0.09\nfmt.Println(cfg, n, 0x10)\n"
	want := map[string]string{
		"numeric literals changed":             "const n = 6\n%%\ncfg := struct{ Seed uint64; Step float64 }{}\ncfg.Seed = 12\ncfg.Step = 0.09 + 0.091\nfmt.Println(cfg, n, 0x10)",
		"statements split over lines":          "cfg.Step = 0.08 +\n\t 0.09\nfmt.Println(cfg,\n\t n,\n\t 0x10)",
		"parallel assignment":                  "cfg.Seed, _ = 11, 0\ncfg.Step, _ = 0.08 + 0.09, 0\n",
		"parallel assignment as an if init":    "if cfg.Seed, _ = 11, 0; true {\n}\n",
		"parallel assignment as a switch init": "switch cfg.Step, _ = 0.08 + 0.09, 0; {\n}\n",
		"parallel assignment as a for post":    "for livebookGenOnce := true; livebookGenOnce; cfg.Seed, _ = 11, 0 {\n\tlivebookGenOnce = false\n}\n",
		"a variable named min":                 "min := struct{ Seed uint64; Step float64 }{}\nmin.Seed = 11\nmin.Step = 0.08 + 0.09\nfmt.Println(min, n, 0x10)",
		"a function named new":                 "%%\nnew := func(a ...any) int { return 0 }\n_ = new\ncfg :=",
	}
	got := map[string]string{}
	for _, v := range variants(cell, 1) {
		got[v.kind] = v.src
	}
	for kind, w := range want {
		if !strings.Contains(got[kind], w) {
			t.Errorf("%s: want %q in\n%s", kind, w, got[kind])
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d kinds of edit, want %d: %v", len(got), len(want), got)
	}
}
