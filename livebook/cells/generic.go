package cells

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"sort"
	"strings"
)

// Rewriter inserts the type arguments of generic calls that the
// interpreter cannot infer. Yaegi v0.16.1 fails (an index out of range in
// its inferTypesFromCall) when a generic function's type arguments must be
// inferred from a multi-value call, as in must.M1(sod.AnalyzeCritical(…)),
// the notebooks' main idiom. Such calls are rewritten, in the program the
// interpreter runs and never in the cell the reader sees, to
// must.M1[*sod.CriticalPoint](sod.AnalyzeCritical(…)): the inner call's
// result types are read from the compiled package's symbols (by
// reflection), and each type parameter takes the result at the position of
// the first parameter of that type.
type Rewriter struct {
	// Symbols are the compiled packages' symbols, keyed "path/name" as
	// yaegi's Exports are.
	Symbols map[string]map[string]reflect.Value
	// Generic lists, per import path of a package interpreted from source,
	// its generic functions and, for each type parameter, the index of the
	// first parameter whose type is that parameter (-1 if none).
	Generic map[string]map[string][]int
	// Support is the import path of a compiled package with the
	// functions the rewrites call: Clear(x any), for the builtin clear (Go
	// 1.21) that yaegi v0.16.1 lacks, and Indices(x any) []struct{}, with
	// len(x) elements for a slice, an array or a pointer to one and x for
	// an integer.
	Support string
	// Ranges rewrites every range statement with at most one iteration
	// variable over something other than a composite literal to range
	// over Support's Indices(x), as yaegi v0.16.1 cannot range over an
	// integer (Go 1.22) and only the program's types tell an integer from
	// a slice. Use it for a second attempt, after the program failed to
	// compile.
	Ranges bool
	paths  map[string]string // import path -> Symbols key
}

// GenericSignatures reads the generic functions of a package's Go source
// for Rewriter.Generic.
func GenericSignatures(src string) (map[string][]int, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	out := map[string][]int{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Type.TypeParams == nil {
			continue
		}
		var tps []string
		for _, f := range fd.Type.TypeParams.List {
			for _, n := range f.Names {
				tps = append(tps, n.Name)
			}
		}
		var params []string
		for _, f := range fd.Type.Params.List {
			name := ""
			if id, ok := f.Type.(*ast.Ident); ok {
				name = id.Name
			}
			k := max(len(f.Names), 1)
			for range k {
				params = append(params, name)
			}
		}
		idx := make([]int, len(tps))
		for i, tp := range tps {
			idx[i] = -1
			for j, p := range params {
				if p == tp {
					idx[i] = j
					break
				}
			}
		}
		out[fd.Name.Name] = idx
	}
	return out, nil
}

func (rw *Rewriter) symbols(path string) (map[string]reflect.Value, bool) {
	if rw.paths == nil {
		rw.paths = map[string]string{}
		for k := range rw.Symbols {
			if i := strings.LastIndex(k, "/"); i > 0 {
				rw.paths[k[:i]] = k
			}
		}
	}
	k, ok := rw.paths[path]
	if !ok {
		return nil, false
	}
	return rw.Symbols[k], true
}

// rewriteBody rewrites the statements of a main body.
func (rw *Rewriter) rewriteBody(body string, names map[string]string, ty *typer) (string, []Import, error) {
	const pre = "package main;func main() {"
	out, more, err := rw.rewriteFile(pre+body+"\n}", names, ty)
	if err != nil {
		return "", nil, err
	}
	return out[len(pre) : len(out)-2], more, nil
}

// rewrite rewrites one top-level declaration.
func (rw *Rewriter) rewrite(decl string, names map[string]string, ty *typer) (string, []Import, error) {
	const pre = "package main;"
	out, more, err := rw.rewriteFile(pre+decl, names, ty)
	if err != nil {
		return "", nil, err
	}
	return out[len(pre):], more, nil
}

type insertion struct {
	at   int
	text string
	del  int // bytes replaced
}

func (rw *Rewriter) rewriteFile(src string, names map[string]string, ty *typer) (string, []Import, error) {
	if rw == nil || (len(rw.Generic) == 0 && rw.Support == "") {
		return src, nil, nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return "", nil, err
	}
	var ins []insertion
	var more []Import
	local := func(path string) string { // the file's name for a package, importing it if needed
		for n, p := range names {
			if p == path && n != "_" && n != "." {
				return n
			}
		}
		if _, ok := rw.symbols(path); !ok && path != rw.Support {
			return "" // the interpreter could not import it
		}
		n := "livebook_" + strings.NewReplacer("/", "_", ".", "_", "-", "_").Replace(path)
		names[n] = path
		more = append(more, Import{Name: n, Path: path})
		return n
	}
	ty.vars = nil
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			return true
		}
		ty.statement(n)
		if r, ok := n.(*ast.RangeStmt); ok && rw.Ranges && rw.Support != "" && r.Value == nil {
			lit, isLit := r.X.(*ast.BasicLit)
			if _, composite := r.X.(*ast.CompositeLit); !composite && (!isLit || lit.Kind == token.INT) {
				pkg := local(rw.Support)
				ins = append(ins, insertion{at: fset.Position(r.X.Pos()).Offset, text: pkg + ".Indices("},
					insertion{at: fset.Position(r.X.End()).Offset, text: ")"})
			}
			return true
		}
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return true
		}
		if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "clear" && rw.Support != "" {
			if _, shadowed := ty.funcs["clear"]; !shadowed {
				ins = append(ins, insertion{at: fset.Position(id.Pos()).Offset, text: local(rw.Support) + ".Clear", del: len("clear")})
			}
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		idx, ok := rw.Generic[names[pkg.Name]][sel.Sel.Name]
		if !ok {
			return true
		}
		inner, ok := call.Args[0].(*ast.CallExpr)
		if !ok {
			return true
		}
		results := ty.types(inner)
		var args []string
		for _, j := range idx {
			r := at(results, j)
			if r == nil {
				return true
			}
			s, ok := typeString(r, local)
			if !ok {
				return true
			}
			args = append(args, s)
		}
		ins = append(ins, insertion{at: fset.Position(sel.End()).Offset, text: "[" + strings.Join(args, ", ") + "]"})
		return true
	})
	sort.SliceStable(ins, func(i, j int) bool { return ins[i].at > ins[j].at })
	for _, in := range ins {
		src = src[:in.at] + in.text + src[in.at+in.del:]
	}
	// The parallel assignments are split in a second pass over the
	// rewritten program, so that a statement both split and holding a
	// generic call keeps the type arguments written in above.
	src, err = splitParallel(src)
	return src, more, err
}

// splitParallel rewrites the parallel assignments to fields or elements
// of src one by one (see rewriteFile).
func splitParallel(src string) (string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return "", err
	}
	var ins []insertion
	ast.Inspect(f, func(n ast.Node) bool {
		if a, ok := n.(*ast.AssignStmt); ok && a.Tok == token.ASSIGN && len(a.Lhs) > 1 && len(a.Lhs) == len(a.Rhs) && fieldTarget(a.Lhs) {
			// yaegi v0.16.1 drops parallel assignments to the fields of
			// a compiled struct (cfg.QNN, cfg.Starts = q, 5 left Starts
			// alone): assign one by one through temporaries, on the
			// same line.
			// Its parallel definitions are wrong too (a, b := p.X, p.Y
			// gave a != p.X), so each temporary is defined alone.
			text := func(e ast.Expr) string { return src[fset.Position(e.Pos()).Offset:fset.Position(e.End()).Offset] }
			var stmts []string
			for i, r := range a.Rhs {
				stmts = append(stmts, fmt.Sprintf("livebook_t%d_%d := %s", fset.Position(a.Pos()).Offset, i, text(r)))
			}
			for i, l := range a.Lhs {
				stmts = append(stmts, fmt.Sprintf("%s = livebook_t%d_%d", text(l), fset.Position(a.Pos()).Offset, i))
			}
			start, end := fset.Position(a.Pos()).Offset, fset.Position(a.End()).Offset
			if !strings.Contains(src[start:end], "\n") {
				ins = append(ins, insertion{at: start, del: end - start, text: "{ " + strings.Join(stmts, "; ") + " }"})
			}
		}
		return true
	})
	sort.SliceStable(ins, func(i, j int) bool { return ins[i].at > ins[j].at })
	for _, in := range ins {
		src = src[:in.at] + in.text + src[in.at+in.del:]
	}
	return src, nil
}

// fieldTarget reports whether an assignment sets a field or an element.
func fieldTarget(lhs []ast.Expr) bool {
	for _, l := range lhs {
		switch l.(type) {
		case *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
			return true
		}
	}
	return false
}

// typeString writes t as Go source, naming packages through local. It
// reports false for types it cannot write (unnamed structs, instantiated
// generic types, unexported names).
func typeString(t reflect.Type, local func(path string) string) (string, bool) {
	if t.Name() != "" {
		if t.PkgPath() == "" {
			return t.Name(), true // predeclared: int, error, ...
		}
		if strings.ContainsAny(t.Name(), "[]") || !ast.IsExported(t.Name()) {
			return "", false
		}
		pkg := local(t.PkgPath())
		return pkg + "." + t.Name(), pkg != ""
	}
	elem := func(prefix string, e reflect.Type) (string, bool) {
		s, ok := typeString(e, local)
		return prefix + s, ok
	}
	switch t.Kind() {
	case reflect.Pointer:
		return elem("*", t.Elem())
	case reflect.Slice:
		return elem("[]", t.Elem())
	case reflect.Array:
		return elem(fmt.Sprintf("[%d]", t.Len()), t.Elem())
	case reflect.Map:
		k, ok := typeString(t.Key(), local)
		if !ok {
			return "", false
		}
		return elem("map["+k+"]", t.Elem())
	case reflect.Chan:
		switch t.ChanDir() {
		case reflect.RecvDir:
			return elem("<-chan ", t.Elem())
		case reflect.SendDir:
			return elem("chan<- ", t.Elem())
		}
		return elem("chan ", t.Elem())
	case reflect.Interface:
		if t.NumMethod() == 0 {
			return "any", true
		}
	case reflect.Func:
		var in, out []string
		for i := range t.NumIn() {
			s, ok := typeString(t.In(i), local)
			if !ok {
				return "", false
			}
			if t.IsVariadic() && i == t.NumIn()-1 {
				s = "..." + strings.TrimPrefix(s, "[]")
			}
			in = append(in, s)
		}
		for i := range t.NumOut() {
			s, ok := typeString(t.Out(i), local)
			if !ok {
				return "", false
			}
			out = append(out, s)
		}
		return "func(" + strings.Join(in, ", ") + ") (" + strings.Join(out, ", ") + ")", true
	}
	return "", false
}
