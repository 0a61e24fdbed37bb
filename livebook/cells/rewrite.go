package cells

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Rewriter checks a program with Go's type checker (go/types) and rewrites
// it, in the program the interpreter runs and never in the cell the reader
// sees, around what yaegi v0.16.1 gets wrong or lacks, keeping Go's
// meaning: every rewrite is chosen by the types the checker gives, keeps
// the types of constants, the order of evaluation and the names the user
// declares, and keeps every statement on its lines (so that the
// interpreter's positions are the cell's). What it cannot rewrite
// faithfully and the interpreter cannot run is refused with an error
// naming the construct. The rewrites:
//
//   - a generic call whose type arguments are inferred from a multi-value
//     call (must.M1(sod.AnalyzeCritical(…))): yaegi fails to infer them, so
//     they are written in (must.M1[*sod.CriticalPoint](…));
//   - a parallel assignment (a.X, b[i] = e1, e2, in any statement position
//     and over any number of lines): yaegi drops assignments to the fields
//     of compiled structs, so it becomes one assignment at a time, with
//     Go's two phases (the targets' operands and the values first, into
//     temporaries of the targets' types);
//   - the variables of a loop captured by a closure, a go or defer
//     statement or their address (Go 1.22 gives each iteration its own
//     variables; yaegi shares one);
//   - the arguments of go and defer statements, which Go evaluates at the
//     statement and yaegi later;
//   - range over an integer (Go 1.22), and the builtins clear, min and max
//     (Go 1.21), which yaegi lacks.
//
// Imports the program does not use are dropped, as GoNB's goimports drops
// them before its build (blank and dot imports stay): a cell's import
// block holds the notebook's packages, and a package the interpreter
// compiles from source (slices) would otherwise be compiled by every run.
type Rewriter struct {
	// Symbols are the compiled packages' symbols, keyed "path/name" as
	// yaegi's Exports are.
	Symbols map[string]map[string]reflect.Value
	// Sources are the packages the interpreter reads as Go source, by
	// import path: the text of each of their files.
	Sources map[string][]string
	// Support is the import path of a compiled package with the
	// functions the rewrites call: Clear(x any), Indices(n any)
	// []struct{} (n elements for an integer n) and GoPanic(v any) (a
	// goroutine panicked with v: end the run) and Print(ln bool, a ...any)
	// (the builtins print and println, with the formats of Go's runtime)
	// and Index(i int64, n, line int) int (i if 0 <= i < n, else Go's
	// panic, at that line of the program).
	Support string
	paths   map[string]string // import path -> Symbols key
	imp     *importer
}

func (rw *Rewriter) symbolKey(path string) string {
	if rw.paths == nil {
		rw.paths = map[string]string{}
		for k := range rw.Symbols {
			if i := strings.LastIndex(k, "/"); i > 0 {
				rw.paths[k[:i]] = k
			}
		}
	}
	return rw.paths[path]
}

func (rw *Rewriter) symbols(path string) (map[string]reflect.Value, bool) {
	k := rw.symbolKey(path)
	if k == "" {
		return nil, false
	}
	return rw.Symbols[k], true
}

// An edit replaces src[start:end] with text.
type edit struct {
	start, end int
	text       string
	seq        int // the order of adding
}

// rewriting is the state of one program's rewrite.
type rewriting struct {
	rw      *Rewriter
	src     string
	fset    *token.FileSet
	file    *ast.File
	info    *types.Info
	pkg     *types.Package
	edits   []edit
	imports map[string]string // path -> the file's name for it
	named   map[string]bool   // the paths whose file name a rewrite wrote
	extra   []Import
	simple  map[ast.Stmt]bool // statements in a simple-statement position
	targets map[ast.Expr]bool // the targets of parallel assignments
	err     error
	n       int               // temporaries made
	decl    []*types.TypeName // the program's named types (declared)
}

// Check type-checks the program src (a whole file) and returns it
// rewritten (see Rewriter), with the imports the rewrites need on its
// first line. Errors carry the program's line.
func (rw *Rewriter) Check(src string) (string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "program.go", src, parser.SkipObjectResolution)
	if err != nil {
		if el, ok := err.(scanner.ErrorList); ok && len(el) > 0 {
			return "", &CheckError{Line: el[0].Pos.Line, Col: el[0].Pos.Column, Msg: el[0].Msg}
		}
		return "", err
	}
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Instances:  map[*ast.Ident]types.Instance{},
		Scopes:     map[ast.Node]*types.Scope{},
		Implicits:  map[ast.Node]types.Object{},
	}
	var first error
	conf := types.Config{Importer: rw.importer(), GoVersion: "go1.26", Error: func(err error) {
		if te, ok := err.(types.Error); ok && te.Soft {
			return // unused variables and imports: GoNB's goimports and the interpreter let them be
		}
		if first == nil {
			first = err
			if te, ok := err.(types.Error); ok {
				p := te.Fset.Position(te.Pos)
				first = &CheckError{Line: p.Line, Col: p.Column, Msg: te.Msg}
				for _, pkg := range []string{"slices", "maps", "cmp"} {
					if strings.HasPrefix(te.Msg, "undefined: "+pkg+".") {
						first.(*CheckError).Msg += " (the page's interpreter has Go 1.22's " + pkg + ", without Go 1.23's iterators: this is not available in the browser)"
					}
				}
			}
		}
	}}
	pkg, _ := conf.Check("main", fset, []*ast.File{f}, info)
	if first != nil {
		return "", first
	}
	r := &rewriting{rw: rw, src: src, fset: fset, file: f, info: info, pkg: pkg, imports: map[string]string{}, named: map[string]bool{}, simple: map[ast.Stmt]bool{}, targets: map[ast.Expr]bool{}}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		if im.Name != nil {
			r.imports[p] = im.Name.Name
		} else if pk, ok := rw.importer().pkgs[p]; ok {
			r.imports[p] = pk.Name()
		}
	}
	r.walk()
	r.dropUnusedImports()
	if r.err != nil {
		return "", r.err
	}
	out := r.render(0, len(src))
	if len(r.extra) > 0 {
		var b strings.Builder
		for _, im := range r.extra {
			fmt.Fprintf(&b, "; import %s %s", im.Name, strconv.Quote(im.Path))
		}
		nl := strings.IndexByte(out, '\n')
		out = out[:nl] + b.String() + out[nl:]
	}
	return out, nil
}

// dropUnusedImports removes the imports the program does not use (see
// Rewriter), keeping the lines.
func (r *rewriting) dropUnusedImports() {
	used := map[types.Object]bool{}
	for _, obj := range r.info.Uses {
		if pn, ok := obj.(*types.PkgName); ok {
			used[pn] = true
		}
	}
	for _, d := range r.file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		for _, spec := range gd.Specs {
			im := spec.(*ast.ImportSpec)
			if im.Name != nil && (im.Name.Name == "_" || im.Name.Name == ".") {
				continue
			}
			obj := r.info.Implicits[im]
			if im.Name != nil {
				obj = r.info.Defs[im.Name]
			}
			if path, _ := strconv.Unquote(im.Path.Value); obj == nil || used[obj] || r.named[path] {
				continue
			}
			from, to := im.Pos(), im.End()
			if !gd.Lparen.IsValid() { // import "p": the whole declaration
				from, to = gd.Pos(), gd.End()
			}
			r.add(r.off(from), r.off(to), "")
		}
	}
}

// CheckError is a type error or a refusal, at a line of the program.
type CheckError struct {
	Line, Col int
	Msg       string
}

func (e *CheckError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// refuse records the first construct the page cannot run.
func (r *rewriting) refuse(n ast.Node, format string, a ...any) {
	if r.err == nil {
		p := r.fset.Position(n.Pos())
		r.err = &CheckError{Line: p.Line, Col: p.Column, Msg: fmt.Sprintf(format, a...)}
	}
}

func (r *rewriting) off(p token.Pos) int { return r.fset.Position(p).Offset }

// add records an edit.
// The edits are kept sorted by start, so that render finds those in a
// range by a binary search (the rewrite stays linear in the cell's size).
func (r *rewriting) add(start, end int, text string) {
	e := edit{start, end, text, len(r.edits)}
	i := sort.Search(len(r.edits), func(i int) bool { return r.edits[i].start > start })
	r.edits = append(r.edits, edit{})
	copy(r.edits[i+1:], r.edits[i:])
	r.edits[i] = e
}

// render returns src[start:end] with the edits inside it applied; an
// edit that covers others (added after them, from their rendering) wins.
func (r *rewriting) render(start, end int) string {
	var es []edit
	for i := sort.Search(len(r.edits), func(i int) bool { return r.edits[i].start >= start }); i < len(r.edits) && r.edits[i].start <= end; i++ {
		if e := r.edits[i]; e.end <= end {
			es = append(es, e)
		}
	}
	// By start; at the same start insertions first (the later added
	// first), then the longer edit (an outer one, which wins).
	sort.SliceStable(es, func(a, b int) bool {
		ea, eb := es[a], es[b]
		if ea.start != eb.start {
			return ea.start < eb.start
		}
		za, zb := ea.end == ea.start, eb.end == eb.start
		if za != zb {
			return za
		}
		if ea.end != eb.end {
			return ea.end > eb.end
		}
		return ea.seq > eb.seq // the later added first
	})
	var b strings.Builder
	at := start
	for i := 0; i < len(es); i++ {
		e := es[i]
		if e.start < at || (e.start == e.end && e.start < at) {
			continue
		}
		b.WriteString(r.src[at:e.start])
		b.WriteString(e.text)
		at = e.end
	}
	b.WriteString(r.src[at:end])
	return b.String()
}

// text is a node's source with the edits inside it.
func (r *rewriting) text(n ast.Node) string { return r.render(r.off(n.Pos()), r.off(n.End())) }

// lines pads a replacement with the newlines of the source it replaces
// (less those it keeps), so that later lines keep their numbers.
// The newlines go after the replacement's first parenthesis or brace,
// where Go allows a newline, not after it: a newline after an expression
// ends the statement or, before a comma, breaks an argument list.
func (r *rewriting) lines(n ast.Node, text string) string {
	nl := strings.Repeat("\n", max(0, strings.Count(r.src[r.off(n.Pos()):r.off(n.End())], "\n")-strings.Count(text, "\n")))
	if i := strings.IndexAny(text, "({"); i >= 0 && nl != "" {
		return text[:i+1] + nl + text[i+1:]
	}
	return text + nl
}

func (r *rewriting) temp(what string) string {
	r.n++
	return fmt.Sprintf("livebook_%s%d", what, r.n)
}

// local is the file's name for a package, importing it if needed ("" if
// the interpreter does not have it).
func (r *rewriting) local(p *types.Package) string {
	if p == r.pkg {
		return ""
	}
	if n, ok := r.imports[p.Path()]; ok && n != "_" && n != "." {
		r.named[p.Path()] = true
		return n
	}
	if _, ok := r.rw.symbols(p.Path()); !ok && p.Path() != r.rw.Support {
		if _, src := r.rw.Sources[p.Path()]; !src {
			return ""
		}
	}
	n := "livebook_" + strings.NewReplacer("/", "_", ".", "_", "-", "_").Replace(p.Path())
	r.imports[p.Path()] = n
	r.extra = append(r.extra, Import{Name: n, Path: p.Path()})
	return n
}

func (r *rewriting) support() string {
	return r.local(types.NewPackage(r.rw.Support, "support"))
}

// typeText writes t as Go source valid at pos, or reports false (a type
// of another package that is not exported, or a name shadowed at pos).
func (r *rewriting) typeText(t types.Type, pos token.Pos) (string, bool) {
	ok := true
	var check func(t types.Type, depth int)
	check = func(t types.Type, depth int) {
		if depth > 20 || !ok {
			return
		}
		switch t := t.(type) {
		case *types.Named:
			o := t.Obj()
			switch {
			case o.Pkg() == nil:
			case o.Pkg() == r.pkg:
				if s := r.pkg.Scope().Innermost(pos); s == nil || func() bool { _, found := s.LookupParent(o.Name(), pos); return found != o }() {
					ok = false
				}
			default:
				if !o.Exported() || r.local(o.Pkg()) == "" {
					ok = false
				}
			}
			if ta := t.TypeArgs(); ta != nil {
				for i := range ta.Len() {
					check(ta.At(i), depth+1)
				}
			}
		case *types.Alias:
			check(types.Unalias(t), depth)
		case *types.Basic:
			if t.Info()&types.IsUntyped != 0 || t.Kind() == types.UnsafePointer {
				ok = false
			}
		case *types.Pointer:
			check(t.Elem(), depth+1)
		case *types.Slice:
			check(t.Elem(), depth+1)
		case *types.Array:
			check(t.Elem(), depth+1)
		case *types.Map:
			check(t.Key(), depth+1)
			check(t.Elem(), depth+1)
		case *types.Chan:
			check(t.Elem(), depth+1)
		case *types.Signature:
			for _, tu := range []*types.Tuple{t.Params(), t.Results()} {
				for i := range tu.Len() {
					check(tu.At(i).Type(), depth+1)
				}
			}
		case *types.Struct:
			for i := range t.NumFields() {
				if f := t.Field(i); !f.Exported() && f.Pkg() != r.pkg {
					ok = false
				}
				check(t.Field(i).Type(), depth+1)
			}
		case *types.Interface:
			for i := range t.NumExplicitMethods() {
				if m := t.ExplicitMethod(i); !m.Exported() && m.Pkg() != r.pkg {
					ok = false
				}
			}
		case *types.TypeParam:
			ok = false
		default:
			ok = false
		}
	}
	check(t, 0)
	if !ok {
		return "", false
	}
	return types.TypeString(t, func(p *types.Package) string { return r.local(p) }), true
}

// constant writes the value of a constant expression as Go source of
// the same type and kind.
func (r *rewriting) constant(e ast.Expr) (string, bool) {
	tv, ok := r.info.Types[e]
	if !ok || tv.Value == nil {
		return "", false
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	if !ok {
		return "", false
	}
	v := tv.Value
	var lit string
	switch {
	case b.Info()&types.IsBoolean != 0:
		lit = v.ExactString()
	case b.Info()&types.IsString != 0:
		lit = v.ExactString()
	case b.Kind() == types.UntypedRune:
		n, exact := constant.Int64Val(v)
		if !exact || n < 0 || n > 0x10ffff {
			return "", false
		}
		lit = strconv.QuoteRune(rune(n))
	case b.Info()&types.IsInteger != 0:
		if v.Kind() != constant.Int {
			return "", false
		}
		lit = v.ExactString()
	case b.Kind() == types.Float64 || b.Kind() == types.Float32:
		// Typed: the value rounded once, to the type, as Go does (an
		// untyped float keeps its exact value, so it stays as written).
		f, _ := constant.Float64Val(v)
		bits := 64
		if b.Kind() == types.Float32 {
			f32, _ := constant.Float32Val(v)
			f, bits = float64(f32), 32
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return "", false
		}
		lit = strconv.FormatFloat(f, 'g', -1, bits)
		if !strings.ContainsAny(lit, ".e") {
			lit += ".0"
		}
	default:
		return "", false
	}
	if tv.Type == types.Typ[b.Kind()] && b.Info()&types.IsUntyped != 0 {
		return "(" + lit + ")", true
	}
	t, ok := r.typeText(tv.Type, e.Pos())
	if !ok {
		return "", false
	}
	return t + "(" + lit + ")", true
}

// isConst reports whether e is a constant expression.
func (r *rewriting) isConst(e ast.Expr) bool {
	tv, ok := r.info.Types[e]
	return ok && tv.Value != nil
}

func (r *rewriting) typeOf(e ast.Expr) types.Type { return r.info.TypeOf(e) }

func isUntyped(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Info()&types.IsUntyped != 0
}

// walk finds the rewrites, inner ones before the statements around them.
func (r *rewriting) walk() {
	ast.Inspect(r.file, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.ForStmt:
			r.simple[s.Init], r.simple[s.Post] = true, true
		case *ast.IfStmt:
			r.simple[s.Init] = true
		case *ast.SwitchStmt:
			r.simple[s.Init] = true
		case *ast.TypeSwitchStmt:
			r.simple[s.Init] = true
		case *ast.CommClause:
			r.simple[s.Comm] = true
		case *ast.AssignStmt:
			if s.Tok == token.ASSIGN && len(s.Lhs) > 1 {
				for _, l := range s.Lhs {
					r.targets[ast.Unparen(l)] = true
				}
			}
		}
		return true
	})
	// Constant expressions are written as their values: yaegi computes
	// some of them in the wrong type (an untyped integer division of a
	// compiled package's constant in floating point).
	ast.Inspect(r.file, func(n ast.Node) bool {
		switch e := n.(type) {
		case *ast.GenDecl:
			return e.Tok != token.IMPORT
		case *ast.BinaryExpr, *ast.UnaryExpr:
			if lit, ok := r.constant(e.(ast.Expr)); ok {
				r.add(r.off(e.Pos()), r.off(e.End()), r.lines(e, lit))
				return false
			}
		}
		return true
	})
	post := func(n ast.Node) {
		r.dynamic(n)
		switch n := n.(type) {
		case *ast.IndexExpr:
			r.index(n)
		case *ast.CallExpr:
			r.call(n)
		case *ast.ArrayType:
			r.arraySize(n)
		case *ast.AssignStmt:
			r.parallel(n)
		case *ast.DeferStmt:
			r.deferred(n, n.Call, "defer")
		case *ast.GoStmt:
			r.deferred(n, n.Call, "go")
		case *ast.SwitchStmt:
			r.emptySwitch(n.Init, n.Body)
		case *ast.TypeSwitchStmt:
			if n.Init != nil && len(n.Body.List) == 0 {
				r.refuse(n, "a type switch with an init statement and no cases is not available in the browser (the page's interpreter skips its init statement); put the statement before the switch")
			}
		case *ast.RangeStmt:
			r.rangeLoop(n)
		case *ast.ForStmt:
			r.forLoop(n)
		}
	}
	var stack []ast.Node
	ast.Inspect(r.file, func(n ast.Node) bool {
		if n == nil {
			post(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		return true
	})
}

// index checks a variable index of a slice, an array or a string where
// Go does, so that the panic is Go's (index out of range [5] with length
// 3) at the line of the index: yaegi panics in package reflect without
// the index, the length or the line. Only an operand without effects (a
// variable, a field of one) is checked, since it is read twice.
func (r *rewriting) index(e *ast.IndexExpr) {
	if r.isConst(e.Index) || r.rw.Support == "" || r.targets[e] {
		return // a parallel assignment's target is checked in its second phase
	}
	tv, ok := r.info.Types[e.X]
	if !ok || tv.IsType() {
		return
	}
	switch u := tv.Type.Underlying().(type) {
	case *types.Slice, *types.Array:
	case *types.Basic:
		if u.Info()&types.IsString == 0 {
			return
		}
	case *types.Pointer:
		if _, ok := u.Elem().Underlying().(*types.Array); !ok {
			return
		}
	default:
		return
	}
	if b, ok := r.typeOf(e.Index).Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return
	}
	for x := ast.Expr(e.X); ; {
		switch y := x.(type) {
		case *ast.Ident:
		case *ast.SelectorExpr:
			x = y.X
			continue
		default:
			return
		}
		break
	}
	line := r.fset.Position(e.Index.Pos()).Line
	r.add(r.off(e.Index.Pos()), r.off(e.Index.End()), fmt.Sprintf("%s.Index(int64(%s), len(%s), %d)", r.support(), r.text(e.Index), r.text(e.X), line))
}

// arraySize refuses array types larger than the interpreter can hold.
func (r *rewriting) arraySize(n *ast.ArrayType) {
	if n.Len == nil {
		return
	}
	t, ok := r.typeOf(n).(*types.Array)
	if !ok {
		return
	}
	const limit = 1 << 32 // WebAssembly's memory
	size := types.SizesFor("gc", "amd64").Sizeof(t.Elem())
	if t.Len() < 0 || (size > 0 && t.Len() > limit/size) || t.Len() > limit {
		r.refuse(n, "the array type %s is larger than the page's interpreter can hold (4 GB)", t)
	}
}

// call rewrites the builtins yaegi lacks and writes the type arguments of
// generic calls on a multi-value call.
func (r *rewriting) call(c *ast.CallExpr) {
	fun := ast.Unparen(c.Fun)
	if id, ok := fun.(*ast.Ident); ok {
		if b, ok := r.info.Uses[id].(*types.Builtin); ok {
			switch b.Name() {
			case "clear":
				if s := r.support(); s != "" {
					r.add(r.off(id.Pos()), r.off(id.End()), s+".Clear")
				}
			case "min", "max":
				r.minMax(c, b.Name())
			case "print", "println":
				// yaegi prints with fmt's formats; Go's runtime has its own.
				if s := r.support(); s != "" {
					ln := "false"
					if b.Name() == "println" {
						ln = "true"
					}
					if len(c.Args) == 0 {
						r.add(r.off(c.Fun.Pos()), r.off(c.Rparen)+1, s+".Print("+ln+")")
					} else {
						r.add(r.off(c.Fun.Pos()), r.off(c.Lparen)+1, s+".Print("+ln+", ")
					}
				}
			}
			return
		}
	}
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return
	}
	inst, ok := r.info.Instances[id]
	if !ok || len(c.Args) != 1 {
		return
	}
	if tv, ok := r.info.Types[c.Args[0]]; !ok || func() bool { _, tuple := tv.Type.(*types.Tuple); return !tuple }() {
		return
	}
	var args []string
	for i := range inst.TypeArgs.Len() {
		s, ok := r.typeText(inst.TypeArgs.At(i), c.Pos())
		if !ok {
			return // left to the interpreter
		}
		args = append(args, s)
	}
	r.add(r.off(fun.End()), r.off(fun.End()), "["+strings.Join(args, ", ")+"]")
}

// minMax rewrites min and max (Go 1.21) to a function of the call's type
// with Go's rules (a NaN wins, -0 is less than +0).
func (r *rewriting) minMax(c *ast.CallExpr, name string) {
	tv := r.info.Types[c]
	if tv.Value != nil {
		// A constant: the argument it equals, converted to the call's type.
		for _, a := range c.Args {
			if v := r.info.Types[a].Value; v != nil && constant.Compare(v, token.EQL, tv.Value) {
				if isUntyped(tv.Type) {
					r.add(r.off(c.Pos()), r.off(c.End()), r.lines(c, "("+r.text(a)+")"))
					return
				}
				if s, ok := r.typeText(tv.Type, c.Pos()); ok {
					r.add(r.off(c.Pos()), r.off(c.End()), r.lines(c, s+"("+r.text(a)+")"))
					return
				}
			}
		}
		r.refuse(c, "%s of these constants is not available in the page's interpreter (Go 1.21's %s builtin); write the value", name, name)
		return
	}
	t, ok := r.typeText(tv.Type, c.Pos())
	if !ok {
		r.refuse(c, "%s of %s values is not available in the page's interpreter (Go 1.21's %s builtin)", name, tv.Type, name)
		return
	}
	less := "x < m"
	if name == "max" {
		less = "x > m"
	}
	body := "m := a; for _, x := range b { if " + less + " { m = x } }; return m"
	if b, ok := tv.Type.Underlying().(*types.Basic); ok && b.Info()&types.IsFloat != 0 {
		zero := "1/x < 0" // -0 is the smaller zero
		if name == "max" {
			zero = "1/m < 0"
		}
		body = "m := a; for _, x := range b { if m != m { break }; if x != x || " + less + " || (x == 0 && m == 0 && " + zero + ") { m = x } }; return m"
	}
	var args []string
	for _, a := range c.Args {
		args = append(args, r.text(a))
	}
	fn := fmt.Sprintf("func(a %s, b ...%s) %s { %s }(%s)", t, t, t, body, strings.Join(args, ", "))
	r.add(r.off(c.Pos()), r.off(c.End()), r.lines(c, fn))
}

// parallel rewrites a parallel assignment to one assignment at a time,
// keeping Go's two phases: first the operands of the targets' index
// expressions and pointer indirections and the values, in order, then the
// assignments, left to right.
func (r *rewriting) parallel(a *ast.AssignStmt) {
	if a.Tok != token.ASSIGN || len(a.Lhs) < 2 || r.simple[a] && isReceive(a) {
		return
	}
	plain := true
	for _, l := range a.Lhs {
		if _, id := ast.Unparen(l).(*ast.Ident); !id {
			plain = false
		}
	}
	if plain {
		return // yaegi assigns variables in parallel correctly
	}
	var first, second []string
	targets := make([]string, len(a.Lhs))
	for i, l := range a.Lhs {
		t, ok := r.target(ast.Unparen(l), &first)
		if !ok {
			return
		}
		targets[i] = t
	}
	if len(a.Rhs) == 1 { // a multi-value expression
		vars := make([]string, len(a.Lhs))
		var decls []string
		for i, l := range a.Lhs {
			vars[i] = r.temp("v")
			if targets[i] == "_" {
				vars[i] = "_"
				continue
			}
			t, ok := r.typeText(r.typeOf(l), a.Pos())
			if !ok {
				r.refuse(a, "this parallel assignment to a %s is not available in the page's interpreter; assign through a variable of that type", r.typeOf(l))
				return
			}
			decls = append(decls, "var "+vars[i]+" "+t)
		}
		first = append(first, decls...)
		first = append(first, strings.Join(vars, ", ")+" = "+r.text(a.Rhs[0]))
		for i := range a.Lhs {
			if vars[i] != "_" {
				second = append(second, targets[i]+" = "+vars[i])
			}
		}
	} else {
		for i, rhs := range a.Rhs {
			switch {
			case targets[i] == "_":
				first = append(first, "_ = "+r.text(rhs))
			case r.isConst(rhs):
				second = append(second, targets[i]+" = "+r.text(rhs)) // no effects: assigned in place, typed by its target
			default:
				v := r.temp("v")
				if t, ok := r.typeText(r.typeOf(a.Lhs[i]), a.Pos()); ok {
					first = append(first, "var "+v+" "+t+" = "+r.text(rhs))
				} else if !isUntyped(r.typeOf(rhs)) {
					first = append(first, v+" := "+r.text(rhs))
				} else {
					r.refuse(rhs, "this parallel assignment of an untyped value to a %s is not available in the page's interpreter; assign one at a time", r.typeOf(a.Lhs[i]))
					return
				}
				second = append(second, targets[i]+" = "+v)
			}
		}
	}
	stmts := strings.Join(append(first, second...), "; ")
	text := "{ " + stmts + " }"
	if r.simple[a] {
		text = "func() { " + stmts + " }()"
	}
	r.add(r.off(a.Pos()), r.off(a.End()), r.lines(a, text))
}

// isReceive reports an assignment of a receive (a select case's must
// stay one).
func isReceive(a *ast.AssignStmt) bool {
	_, recv := ast.Unparen(a.Rhs[0]).(*ast.UnaryExpr)
	return recv && len(a.Rhs) == 1
}

// target writes the first phase of a target (its operands into
// temporaries) and returns the target for the second.
func (r *rewriting) target(l ast.Expr, first *[]string) (string, bool) {
	switch l := l.(type) {
	case *ast.Ident:
		return l.Name, true
	case *ast.IndexExpr:
		x := r.typeOf(l.X)
		obj := r.temp("o")
		switch x.Underlying().(type) {
		case *types.Map, *types.Slice:
			*first = append(*first, obj+" := "+r.text(l.X))
		case *types.Pointer:
			*first = append(*first, obj+" := "+r.text(l.X))
		case *types.Array:
			*first = append(*first, obj+" := &"+r.text(l.X))
		default:
			r.refuse(l, "this parallel assignment to an element of a %s is not available in the page's interpreter; assign one at a time", x)
			return "", false
		}
		idx := r.text(l.Index)
		if !r.isConst(l.Index) {
			k := r.temp("k")
			if m, ok := x.Underlying().(*types.Map); ok {
				t, ok := r.typeText(m.Key(), l.Pos())
				if !ok {
					if isUntyped(r.typeOf(l.Index)) {
						r.refuse(l, "this parallel assignment to a map of %s keys is not available in the page's interpreter; assign one at a time", m.Key())
						return "", false
					}
					*first = append(*first, k+" := "+idx)
				} else {
					*first = append(*first, "var "+k+" "+t+" = "+idx)
				}
			} else if isUntyped(r.typeOf(l.Index)) {
				*first = append(*first, "var "+k+" int = "+idx)
			} else {
				*first = append(*first, k+" := "+idx)
			}
			idx = k
			if _, isMap := x.Underlying().(*types.Map); !isMap && r.rw.Support != "" {
				idx = fmt.Sprintf("%s.Index(int64(%s), len(%s), %d)", r.support(), k, obj, r.fset.Position(l.Index.Pos()).Line)
			}
		}
		return obj + "[" + idx + "]", true
	case *ast.SelectorExpr:
		if _, ok := r.info.Selections[l]; !ok { // a package's variable
			return r.text(l), true
		}
		obj := r.temp("o")
		if _, ptr := r.typeOf(l.X).Underlying().(*types.Pointer); ptr {
			*first = append(*first, obj+" := "+r.text(l.X))
		} else {
			*first = append(*first, obj+" := &"+r.text(l.X))
		}
		return obj + "." + l.Sel.Name, true
	case *ast.StarExpr:
		obj := r.temp("o")
		*first = append(*first, obj+" := "+r.text(l.X))
		return "*" + obj, true
	}
	r.refuse(l, "this parallel assignment is not available in the page's interpreter; assign one at a time")
	return "", false
}

// deferred evaluates the function and arguments of a go or defer
// statement where Go does, at the statement.
func (r *rewriting) deferred(s ast.Stmt, c *ast.CallExpr, kw string) {
	var first []string
	fun := r.text(c.Fun)
	// The function itself is left where it is: yaegi hangs on a deferred
	// call of a closure held in a variable. A deferred function literal
	// is made when the call runs, so it would see the last iteration's
	// variables of the loops around it.
	if lit, ok := ast.Unparen(c.Fun).(*ast.FuncLit); ok && kw == "defer" {
		if v := r.loopLocal(s, lit); v != "" {
			r.refuse(s, "a deferred function literal using %s, a variable of the loop around it, is not available in the page's interpreter (it would see the last iteration's %s); pass it as an argument: defer func(%s …) {…}(%s)", v, v, v, v)
			return
		}
	}
	var pre []string // arguments put first
	if b, ok := r.info.Uses[identOf(c.Fun)].(*types.Builtin); ok && (b.Name() == "print" || b.Name() == "println") {
		if sup := r.support(); sup != "" {
			fun, pre = sup+".Print", []string{strconv.FormatBool(b.Name() == "println")}
		}
	}
	var sig *types.Signature
	if s, ok := r.typeOf(c.Fun).Underlying().(*types.Signature); ok {
		sig = s
	}
	_, builtin := r.info.Uses[identOf(c.Fun)].(*types.Builtin)
	var args []string
	for i, a := range c.Args {
		if r.isConst(a) {
			args = append(args, r.text(a))
			continue
		}
		if tv := r.info.Types[a]; tv.IsType() || tv.IsNil() {
			args = append(args, r.text(a))
			continue
		}
		v := r.temp("a")
		if t := r.typeOf(a); isUntyped(t) {
			pt := types.Type(types.Typ[types.Bool])
			if sig != nil && !builtin && sig.Params().Len() > 0 {
				j := min(i, sig.Params().Len()-1)
				pt = sig.Params().At(j).Type()
				if sig.Variadic() && j == sig.Params().Len()-1 && !c.Ellipsis.IsValid() {
					pt = pt.(*types.Slice).Elem()
				}
			}
			ts, ok := r.typeText(pt, s.Pos())
			if !ok {
				r.refuse(a, "this untyped argument of a %s statement is not available in the page's interpreter; pass a typed value", kw)
				return
			}
			first = append(first, "var "+v+" "+ts+" = "+r.text(a))
		} else {
			first = append(first, v+" := "+r.text(a))
		}
		args = append(args, v)
	}
	if len(first) == 0 && len(pre) == 0 && kw == "defer" {
		return
	}
	ell := ""
	if c.Ellipsis.IsValid() {
		ell = "..."
	}
	call := fun + "(" + strings.Join(append(pre, args...), ", ") + ell + ")"
	if kw == "go" {
		// A goroutine's panic ends the program with its value, as in Go,
		// instead of the interpreter (Support's GoPanic ends the run).
		if sup := r.support(); sup != "" {
			call = "func() { defer func() { if livebook_r := recover(); livebook_r != nil { " + sup + ".GoPanic(livebook_r) } }(); " + call + " }()"
		}
	}
	text := "{ " + strings.Join(append(first, kw+" "+call), "; ") + " }"
	r.add(r.off(s.Pos()), r.off(s.End()), r.lines(s, text))
}

// loopLocal names a variable that lit uses and that is declared in the
// body or the header of a loop around s ("" if none).
func (r *rewriting) loopLocal(s ast.Stmt, lit *ast.FuncLit) string {
	var loops []ast.Node
	var path []ast.Node
	ast.Inspect(r.file, func(n ast.Node) bool {
		if loops != nil {
			return false
		}
		if n == nil {
			path = path[:len(path)-1]
			return true
		}
		path = append(path, n)
		if n == s {
			for _, p := range path {
				switch p.(type) {
				case *ast.ForStmt, *ast.RangeStmt:
					loops = append(loops, p)
				case *ast.FuncLit, *ast.FuncDecl:
					loops = nil
				}
			}
			if loops == nil {
				loops = []ast.Node{}
			}
			return false
		}
		return true
	})
	name := ""
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || name != "" {
			return name == ""
		}
		v, ok := r.info.Uses[id].(*types.Var)
		if !ok {
			return true
		}
		for _, l := range loops {
			if v.Pos() >= l.Pos() && v.Pos() < l.End() && !(v.Pos() >= lit.Pos() && v.Pos() < lit.End()) {
				name = id.Name
			}
		}
		return true
	})
	return name
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// captured reports the variables of vars that body captures: uses in a
// function literal, a go or defer statement, or under &, or as the
// receiver of a pointer method.
func (r *rewriting) captured(body ast.Node, vars []*types.Var) map[*types.Var]bool {
	out := map[*types.Var]bool{}
	if len(vars) == 0 {
		return out
	}
	is := func(id *ast.Ident) *types.Var {
		for _, v := range vars {
			if r.info.Uses[id] == v {
				return v
			}
		}
		return nil
	}
	mark := func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v := is(id); v != nil {
					out[v] = true
				}
			}
			return true
		})
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			mark(n)
			return false
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				mark(n.X)
			}
		case *ast.SelectorExpr:
			if sel, ok := r.info.Selections[n]; ok && sel.Kind() != types.FieldVal {
				if _, ptr := sel.Obj().Type().(*types.Signature).Recv().Type().(*types.Pointer); ptr {
					mark(n.X)
				}
			}
		}
		return true
	})
	return out
}

// rangeLoop rewrites range over an integer and range over a function,
// and gives captured iteration variables one copy per iteration.
func (r *rewriting) rangeLoop(s *ast.RangeStmt) {
	var vars []*types.Var
	var ids []*ast.Ident
	if s.Tok == token.DEFINE {
		for _, e := range []ast.Expr{s.Key, s.Value} {
			if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
				if v, ok := r.info.Defs[id].(*types.Var); ok {
					vars = append(vars, v)
					ids = append(ids, id)
				}
			}
		}
	}
	body := r.off(s.Body.Lbrace) + 1
	xt := r.typeOf(s.X)
	switch u := xt.Underlying().(type) {
	case *types.Signature:
		r.refuse(s, "range over a function (Go 1.23's iterators) is not available in the page's interpreter")
		return
	case *types.Basic:
		if u.Info()&types.IsInteger == 0 {
			break
		}
		sup := r.support()
		if sup == "" {
			return
		}
		r.add(r.off(s.X.Pos()), r.off(s.X.Pos()), sup+".Indices(")
		r.add(r.off(s.X.End()), r.off(s.X.End()), ")")
		t := r.typeOf(s.X)
		if isUntyped(t) {
			t = types.Typ[types.Int]
		}
		if s.Key == nil || types.Identical(t, types.Typ[types.Int]) {
			break
		}
		// The key has the integer's type: range over the indices
		// under another name and convert.
		id, ok := s.Key.(*ast.Ident)
		if !ok || s.Tok != token.DEFINE {
			r.refuse(s, "range over a %s assigning to an existing variable is not available in the page's interpreter; use a 3-clause for loop", t)
			return
		}
		ts, ok := r.typeText(t, s.Pos())
		if !ok {
			r.refuse(s, "range over a %s is not available in the page's interpreter", t)
			return
		}
		if id.Name == "_" {
			break
		}
		tmp := r.temp("i")
		r.add(r.off(id.Pos()), r.off(id.End()), tmp)
		r.add(body, body, " "+id.Name+" := "+ts+"("+tmp+");")
		return // a fresh variable per iteration already
	}
	capt := r.captured(s.Body, vars)
	for i, v := range vars {
		if capt[v] {
			r.add(body, body, " "+ids[i].Name+" := "+ids[i].Name+";")
		}
	}
}

// forLoop gives the captured variables of a 3-clause loop one copy per
// iteration, as Go 1.22 does: the loop runs on a hidden variable; each
// iteration starts with a fresh copy of it and copies back before the
// post statement (at the end of the body and at each continue).
func (r *rewriting) forLoop(s *ast.ForStmt) {
	init, ok := s.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE {
		return
	}
	var vars []*types.Var
	for _, l := range init.Lhs {
		if id, ok := l.(*ast.Ident); ok {
			if v, ok := r.info.Defs[id].(*types.Var); ok {
				vars = append(vars, v)
			}
		}
	}
	capt := r.captured(s.Body, vars)
	if len(capt) == 0 {
		return
	}
	for _, n := range []ast.Node{s.Cond, s.Post} {
		if n != nil && len(r.captured(n, vars)) > 0 {
			r.refuse(n, "a loop variable captured in a loop's condition or post statement is not available in the page's interpreter")
			return
		}
	}
	hidden := map[*types.Var]string{}
	var copyIn, copyBack []string
	for _, l := range init.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			continue
		}
		v, ok := r.info.Defs[id].(*types.Var)
		if !ok || !capt[v] {
			continue
		}
		h := r.temp("loop_" + id.Name + "_")
		hidden[v] = h
		r.add(r.off(id.Pos()), r.off(id.End()), h)
		copyIn = append(copyIn, id.Name+" := "+h)
		copyBack = append(copyBack, h+" = "+id.Name)
	}
	for _, n := range []ast.Node{s.Cond, s.Post} {
		if n == nil {
			continue
		}
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if v, ok := r.info.Uses[id].(*types.Var); ok && hidden[v] != "" {
					r.add(r.off(id.Pos()), r.off(id.End()), hidden[v])
				}
			}
			return true
		})
	}
	back := strings.Join(copyBack, "; ")
	body := r.off(s.Body.Lbrace) + 1
	r.add(body, body, " "+strings.Join(copyIn, "; ")+";")
	end := r.off(s.Body.Rbrace)
	r.add(end, end, "; "+back+" ")
	// The continue statements of this loop.
	var label *ast.Ident
	if ls, ok := r.parentLabel(s); ok {
		label = ls
	}
	var visit func(n ast.Node, depth int) bool
	visit = func(n ast.Node, inner int) bool {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt:
				if m != s {
					visit(m.Body, inner+1)
					return false
				}
			case *ast.RangeStmt:
				visit(m.Body, inner+1)
				return false
			case *ast.BranchStmt:
				if m.Tok == token.CONTINUE && ((m.Label == nil && inner == 0) || (m.Label != nil && label != nil && m.Label.Name == label.Name)) {
					r.add(r.off(m.Pos()), r.off(m.End()), "{ "+back+"; "+r.src[r.off(m.Pos()):r.off(m.End())]+" }")
				}
			}
			return true
		})
		return true
	}
	visit(s.Body, 0)
}

// parentLabel returns the label of a labeled statement s.
func (r *rewriting) parentLabel(s ast.Stmt) (*ast.Ident, bool) {
	var out *ast.Ident
	ast.Inspect(r.file, func(n ast.Node) bool {
		if l, ok := n.(*ast.LabeledStmt); ok && l.Stmt == s {
			out = l.Label
			return false
		}
		return out == nil
	})
	return out, out != nil
}

// emptySwitch gives a switch with an init statement and no clauses an
// empty default clause: yaegi skips such a switch's init statement (a
// type switch of that form, which yaegi cannot compile with a default
// clause, is refused).
func (r *rewriting) emptySwitch(init ast.Stmt, body *ast.BlockStmt) {
	if init != nil && len(body.List) == 0 {
		at := r.off(body.Lbrace) + 1
		r.add(at, at, " default:")
	}
}
