package cells

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"strings"
)

// Cell is one code cell of a notebook split the way GoNB reads it.
type Cell struct {
	// Shell holds the cell's "!" and "!*" lines (GoNB runs them in a shell;
	// the page cannot and need not: see ShellNote).
	Shell []string
	// Magic holds the "%" lines other than "%%" (GoNB's special commands).
	Magic []string
	// Decls are the top-level declarations: imports, types, functions,
	// constants and variables.
	Decls []Decl
	// Imports are the cell's import specifications.
	Imports []Import
	// Body is the statements after "%%" (the program's main body), or the
	// body of a func main the cell declares; HasMain reports either.
	Body    string
	HasMain bool
	// BodyLine is the cell line (1-based) of Body's first line.
	BodyLine int
	// HasGo reports a line that is neither blank nor one of GoNB's
	// special lines ("!", "%", "%%"), a comment included: GoNB runs no
	// program for a cell without one (its dispatcher's IsEmptyLines).
	HasGo bool
}

// Decl is one top-level declaration of a cell.
type Decl struct {
	Keys []string // the names it declares ("f", "T", "T.Method" for a method)
	Src  string   // its source text, as written
	Line int      // the cell line (1-based) where it starts
	Cell string   // the cell it came from (set by Session)
}

// Import is one import specification.
type Import struct {
	Name string // the explicit name ("", ".", "_" or an alias)
	Path string
}

// local returns the name the import binds in the file.
func (im Import) local() string {
	if im.Name != "" {
		return im.Name
	}
	p := im.Path
	if i := strings.LastIndex(p, "/"); i >= 0 {
		p = p[i+1:]
	}
	// gopkg.in/yaml.v3, math/rand/v2 and the like.
	if len(p) > 1 && p[0] == 'v' && strings.Trim(p[1:], "0123456789") == "" {
		q := strings.TrimSuffix(im.Path, "/"+p)
		if i := strings.LastIndex(q, "/"); i >= 0 {
			q = q[i+1:]
		}
		p = q
	}
	return p
}

// Error is a compile error in a cell, with its position in the cell.
type Error struct {
	Cell string
	Line int // 1-based, 0 if unknown
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s: line %d: %s", e.Cell, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Cell, e.Msg)
}

// Parse splits the source of a code cell into shell lines, GoNB magics,
// declarations and the main body, as GoNB does: the line "%%" starts the
// body of main, which runs to the end of the cell.
func Parse(name, src string) (*Cell, error) {
	c := &Cell{}
	lines := strings.Split(src, "\n")
	var top []string // declaration lines, blanked where not Go
	body := -1
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case t == "%%" || strings.HasPrefix(t, "%% "):
			body = i + 1
		case strings.HasPrefix(t, "!"):
			c.Shell = append(c.Shell, t)
			l = ""
		case strings.HasPrefix(t, "%"):
			c.Magic = append(c.Magic, t)
			l = ""
		case t != "":
			c.HasGo = true
		}
		if body >= 0 {
			break
		}
		top = append(top, l)
	}
	if body >= 0 {
		c.HasMain = true
		c.BodyLine = body + 1
		var b []string
		for _, l := range lines[body:] {
			if t := strings.TrimSpace(l); strings.HasPrefix(t, "!") {
				c.Shell = append(c.Shell, t)
				l = ""
			} else if t != "" {
				c.HasGo = true
			}
			b = append(b, l)
		}
		c.Body = strings.Join(b, "\n")
		// Check the body parses, with its lines counted from the cell.
		wrapped := "package main\nfunc main() {\n" + c.Body + "\n}\n"
		if _, err := parser.ParseFile(token.NewFileSet(), "", wrapped, parser.SkipObjectResolution); err != nil {
			return nil, cellError(name, err, c.BodyLine-3)
		}
	}
	// The declarations: "package main" is prepended on the same line as the
	// cell's first line, so that positions are the cell's.
	declSrc := strings.Join(top, "\n")
	file := "package main;" + declSrc
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", file, parser.SkipObjectResolution|parser.ParseComments)
	if err != nil {
		return nil, cellError(name, err, 0)
	}
	off := len("package main;")
	for _, d := range f.Decls {
		start, end := fset.Position(d.Pos()).Offset, fset.Position(d.End()).Offset
		// Keep a doc comment with its declaration.
		if doc := declDoc(d); doc != nil {
			start = fset.Position(doc.Pos()).Offset
		}
		line := fset.Position(d.Pos()).Line
		text := file[start:end]
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			for _, s := range gd.Specs {
				is := s.(*ast.ImportSpec)
				im := Import{Path: strings.Trim(is.Path.Value, "`\"")}
				if is.Name != nil {
					im.Name = is.Name.Name
				}
				c.Imports = append(c.Imports, im)
			}
			continue
		}
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "main" {
			if c.HasMain {
				return nil, &Error{Cell: name, Line: line, Msg: "func main and %% in the same cell"}
			}
			c.HasMain = true
			bs, be := fset.Position(fd.Body.Lbrace).Offset+1, fset.Position(fd.Body.Rbrace).Offset
			c.Body = file[bs:be]
			c.BodyLine = fset.Position(fd.Body.Lbrace).Line
			continue
		}
		_ = off
		c.Decls = append(c.Decls, Decl{Keys: declKeys(d), Src: text, Line: line})
	}
	return c, nil
}

func declDoc(d ast.Decl) *ast.CommentGroup {
	switch d := d.(type) {
	case *ast.FuncDecl:
		return d.Doc
	case *ast.GenDecl:
		return d.Doc
	}
	return nil
}

// declKeys names what a declaration declares.
func declKeys(d ast.Decl) []string {
	var keys []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil && len(d.Recv.List) > 0 {
			return []string{recvName(d.Recv.List[0].Type) + "." + d.Name.Name}
		}
		if d.Name.Name == "init" {
			return nil // every init is kept
		}
		return []string{d.Name.Name}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				keys = append(keys, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if n.Name != "_" {
						keys = append(keys, n.Name)
					}
				}
			}
		}
	}
	return keys
}

func recvName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return "?"
		}
	}
}

// cellError turns a parser error into an Error with the cell's line,
// shifting parser lines by delta.
func cellError(name string, err error, delta int) error {
	if el, ok := err.(scanner.ErrorList); ok && len(el) > 0 {
		e := el[0]
		return &Error{Cell: name, Line: e.Pos.Line + delta, Msg: e.Msg}
	}
	return &Error{Cell: name, Msg: err.Error()}
}

// SourcePackages are the packages the interpreter reads as Go source
// instead of as compiled symbols: their functions are generic, and
// generic functions cannot be compiled ahead for an interpreter.
var SourcePackages = []string{"github.com/janpfeifer/must"}
