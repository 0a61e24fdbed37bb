package cells

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
)

// typer finds the types of the expressions that generic calls take, from
// the compiled packages' symbols (by reflection) and the program's own
// declarations: enough of Go's typing for the notebooks' idioms
// (must.M1(in.Critical(…)) with in := sod.RealWorldCase(), a method of
// a result, a field, an element, a variable of an earlier cell). What it
// cannot type stays as written.
type typer struct {
	rw    *Rewriter
	names map[string]string // the file's package names -> import paths
	// The program's package-level functions (their result types) and
	// variables (their type or initial value), across the cells.
	funcs   map[string]*ast.FuncType
	globals map[string]valueSpec
	vars    map[string]reflect.Type // variables of the function being read
	busy    map[string]bool         // globals being typed (cycles)
}

type valueSpec struct {
	typ   ast.Expr
	value ast.Expr // the value, or the one multi-value call
	index int      // the variable's position in that call's results
}

func newTyper(rw *Rewriter, names map[string]string, decls []string) *typer {
	t := &typer{rw: rw, names: names, funcs: map[string]*ast.FuncType{}, globals: map[string]valueSpec{}, busy: map[string]bool{}}
	for _, d := range decls {
		f, err := parser.ParseFile(token.NewFileSet(), "", "package main;"+d, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					t.funcs[d.Name.Name] = d.Type
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if vs, ok := s.(*ast.ValueSpec); ok {
						for i, n := range vs.Names {
							spec := valueSpec{typ: vs.Type}
							switch {
							case len(vs.Values) == len(vs.Names):
								spec.value = vs.Values[i]
							case len(vs.Values) == 1:
								spec.value, spec.index = vs.Values[0], i
							}
							t.globals[n.Name] = spec
						}
					}
				}
			}
		}
	}
	return t
}

// enterFunc starts reading a function: its parameters are its first
// variables.
func (t *typer) enterFunc(ft *ast.FuncType, recv *ast.FieldList) {
	t.vars = map[string]reflect.Type{}
	for _, fl := range []*ast.FieldList{recv, ft.Params} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			typ := t.typeExpr(f.Type)
			for _, n := range f.Names {
				t.define(n.Name, typ)
			}
		}
	}
}

func (t *typer) define(name string, typ reflect.Type) {
	if name == "_" {
		return
	}
	if t.vars == nil {
		t.vars = map[string]reflect.Type{}
	}
	t.vars[name] = typ // nil: known not to be a package name, type unknown
}

// statement records the variables a statement defines.
func (t *typer) statement(n ast.Node) {
	switch s := n.(type) {
	case *ast.FuncDecl:
		t.enterFunc(s.Type, s.Recv)
	case *ast.FuncLit:
		saved := t.vars
		t.enterFunc(s.Type, nil)
		for k, v := range saved {
			if _, ok := t.vars[k]; !ok {
				t.vars[k] = v
			}
		}
	case *ast.AssignStmt:
		if s.Tok != token.DEFINE {
			return
		}
		if len(s.Rhs) == 1 && len(s.Lhs) > 1 {
			res := t.types(s.Rhs[0])
			for i, l := range s.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					t.define(id.Name, at(res, i))
				}
			}
			return
		}
		for i, l := range s.Lhs {
			if id, ok := l.(*ast.Ident); ok && i < len(s.Rhs) {
				t.define(id.Name, at(t.types(s.Rhs[i]), 0))
			}
		}
	case *ast.RangeStmt:
		if s.Tok != token.DEFINE {
			return
		}
		var k, v reflect.Type
		if x := at(t.types(s.X), 0); x != nil {
			if x.Kind() == reflect.Pointer && x.Elem().Kind() == reflect.Array {
				x = x.Elem()
			}
			switch x.Kind() {
			case reflect.Slice, reflect.Array:
				k, v = reflect.TypeFor[int](), x.Elem()
			case reflect.Map:
				k, v = x.Key(), x.Elem()
			case reflect.String:
				k, v = reflect.TypeFor[int](), reflect.TypeFor[rune]()
			case reflect.Int, reflect.Int64, reflect.Int32:
				k = x
			}
		}
		if id, ok := s.Key.(*ast.Ident); ok {
			t.define(id.Name, k)
		}
		if id, ok := s.Value.(*ast.Ident); ok {
			t.define(id.Name, v)
		}
	case *ast.ValueSpec:
		for i, n := range s.Names {
			var typ reflect.Type
			switch {
			case s.Type != nil:
				typ = t.typeExpr(s.Type)
			case len(s.Values) == len(s.Names):
				typ = at(t.types(s.Values[i]), 0)
			case len(s.Values) == 1:
				typ = at(t.types(s.Values[0]), i)
			}
			t.define(n.Name, typ)
		}
	}
}

func at(ts []reflect.Type, i int) reflect.Type {
	if i < len(ts) {
		return ts[i]
	}
	return nil
}

// pkg returns the import path of a package name that no variable shadows.
func (t *typer) pkg(name string) (string, bool) {
	if _, ok := t.vars[name]; ok {
		return "", false
	}
	if _, ok := t.globals[name]; ok {
		return "", false
	}
	p, ok := t.names[name]
	return p, ok
}

func (t *typer) symbol(pkgName, name string) (reflect.Value, bool) {
	path, ok := t.pkg(pkgName)
	if !ok {
		return reflect.Value{}, false
	}
	syms, ok := t.rw.symbols(path)
	if !ok {
		return reflect.Value{}, false
	}
	v, ok := syms[name]
	return v, ok && v.IsValid()
}

var predeclared = map[string]reflect.Type{
	"bool": reflect.TypeFor[bool](), "int": reflect.TypeFor[int](), "int64": reflect.TypeFor[int64](),
	"int32": reflect.TypeFor[int32](), "uint": reflect.TypeFor[uint](), "uint64": reflect.TypeFor[uint64](),
	"float64": reflect.TypeFor[float64](), "float32": reflect.TypeFor[float32](), "string": reflect.TypeFor[string](),
	"byte": reflect.TypeFor[byte](), "rune": reflect.TypeFor[rune](), "error": reflect.TypeFor[error](),
	"any": reflect.TypeFor[any](), "complex128": reflect.TypeFor[complex128](),
}

// typeExpr resolves a type written in the program (nil if unknown, e.g. a
// type the cells declare).
func (t *typer) typeExpr(e ast.Expr) reflect.Type {
	switch e := e.(type) {
	case *ast.Ident:
		return predeclared[e.Name]
	case *ast.ParenExpr:
		return t.typeExpr(e.X)
	case *ast.SelectorExpr:
		if id, ok := e.X.(*ast.Ident); ok {
			if v, ok := t.symbol(id.Name, e.Sel.Name); ok && v.Kind() == reflect.Pointer && v.IsNil() {
				return v.Type().Elem() // types are given as (*T)(nil)
			}
		}
	case *ast.StarExpr:
		if x := t.typeExpr(e.X); x != nil {
			return reflect.PointerTo(x)
		}
	case *ast.ArrayType:
		x := t.typeExpr(e.Elt)
		if x == nil {
			return nil
		}
		if e.Len == nil {
			return reflect.SliceOf(x)
		}
		if l, ok := e.Len.(*ast.BasicLit); ok && l.Kind == token.INT {
			n := 0
			for _, c := range l.Value {
				if c < '0' || c > '9' {
					return nil
				}
				n = 10*n + int(c-'0')
			}
			return reflect.ArrayOf(n, x)
		}
	case *ast.MapType:
		k, v := t.typeExpr(e.Key), t.typeExpr(e.Value)
		if k != nil && v != nil {
			return reflect.MapOf(k, v)
		}
	}
	return nil
}

// types returns the type of an expression, or the result types of a call
// (nil where unknown).
func (t *typer) types(e ast.Expr) []reflect.Type {
	one := func(x reflect.Type) []reflect.Type {
		if x == nil {
			return nil
		}
		return []reflect.Type{x}
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return t.types(e.X)
	case *ast.BasicLit:
		switch e.Kind {
		case token.INT:
			return one(predeclared["int"])
		case token.FLOAT:
			return one(predeclared["float64"])
		case token.STRING:
			return one(predeclared["string"])
		}
	case *ast.Ident:
		if x, ok := t.vars[e.Name]; ok {
			return one(x)
		}
		if g, ok := t.globals[e.Name]; ok && !t.busy[e.Name] {
			t.busy[e.Name] = true
			defer delete(t.busy, e.Name)
			if g.typ != nil {
				return one(t.typeExpr(g.typ))
			}
			if g.value != nil {
				return one(at(t.types(g.value), g.index))
			}
		}
	case *ast.CompositeLit:
		return one(t.typeExpr(e.Type))
	case *ast.UnaryExpr:
		x := at(t.types(e.X), 0)
		if e.Op == token.AND && x != nil {
			return one(reflect.PointerTo(x))
		}
		if e.Op == token.SUB || e.Op == token.ADD {
			return one(x)
		}
	case *ast.StarExpr:
		if x := at(t.types(e.X), 0); x != nil && x.Kind() == reflect.Pointer {
			return one(x.Elem())
		}
	case *ast.IndexExpr:
		x := at(t.types(e.X), 0)
		if x != nil && x.Kind() == reflect.Pointer && x.Elem().Kind() == reflect.Array {
			x = x.Elem()
		}
		if x != nil {
			switch x.Kind() {
			case reflect.Slice, reflect.Array, reflect.Map:
				return one(x.Elem())
			}
		}
	case *ast.SliceExpr:
		return t.types(e.X)
	case *ast.SelectorExpr:
		if id, ok := e.X.(*ast.Ident); ok {
			if _, isPkg := t.pkg(id.Name); isPkg {
				v, ok := t.symbol(id.Name, e.Sel.Name)
				if !ok {
					return nil
				}
				if v.Kind() == reflect.Func {
					return one(v.Type())
				}
				if v.Kind() == reflect.Pointer && !v.IsNil() {
					return one(v.Type().Elem()) // a variable, given as &V
				}
				return nil
			}
		}
		x := at(t.types(e.X), 0)
		if x == nil {
			return nil
		}
		if m, ok := method(x, e.Sel.Name); ok {
			return one(m)
		}
		s := x
		if s.Kind() == reflect.Pointer {
			s = s.Elem()
		}
		if s.Kind() == reflect.Struct {
			if f, ok := s.FieldByName(e.Sel.Name); ok {
				return one(f.Type)
			}
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ, token.LAND, token.LOR:
			return one(predeclared["bool"])
		}
		if _, lit := e.X.(*ast.BasicLit); lit {
			return t.types(e.Y)
		}
		return t.types(e.X)
	case *ast.CallExpr:
		return t.call(e)
	}
	return nil
}

// method returns the type of x's method name as a function without the
// receiver.
func method(x reflect.Type, name string) (reflect.Type, bool) {
	for _, r := range []reflect.Type{x, reflect.PointerTo(x)} {
		m, ok := r.MethodByName(name)
		if !ok {
			continue
		}
		if r.Kind() == reflect.Interface {
			return m.Type, true
		}
		in := make([]reflect.Type, 0, m.Type.NumIn()-1)
		for i := 1; i < m.Type.NumIn(); i++ {
			in = append(in, m.Type.In(i))
		}
		out := make([]reflect.Type, m.Type.NumOut())
		for i := range out {
			out[i] = m.Type.Out(i)
		}
		return reflect.FuncOf(in, out, m.Type.IsVariadic()), true
	}
	return nil, false
}

func results(f reflect.Type) []reflect.Type {
	out := make([]reflect.Type, f.NumOut())
	for i := range out {
		out[i] = f.Out(i)
	}
	return out
}

func (t *typer) call(c *ast.CallExpr) []reflect.Type {
	switch f := c.Fun.(type) {
	case *ast.Ident:
		switch f.Name {
		case "len", "cap", "copy":
			return []reflect.Type{predeclared["int"]}
		case "new":
			if len(c.Args) == 1 {
				if x := t.typeExpr(c.Args[0]); x != nil {
					return []reflect.Type{reflect.PointerTo(x)}
				}
			}
			return nil
		case "make":
			if len(c.Args) > 0 {
				if x := t.typeExpr(c.Args[0]); x != nil {
					return []reflect.Type{x}
				}
			}
			return nil
		case "append":
			if len(c.Args) > 0 {
				return t.types(c.Args[0])
			}
		}
		if x, ok := predeclared[f.Name]; ok { // a conversion
			return []reflect.Type{x}
		}
		if _, shadowed := t.vars[f.Name]; !shadowed {
			if ft, ok := t.funcs[f.Name]; ok && ft.Results != nil {
				var out []reflect.Type
				for _, r := range ft.Results.List {
					x := t.typeExpr(r.Type)
					for range max(len(r.Names), 1) {
						out = append(out, x)
					}
				}
				return out
			}
		}
	case *ast.SelectorExpr:
		if id, ok := f.X.(*ast.Ident); ok {
			if path, isPkg := t.pkg(id.Name); isPkg {
				if idx, generic := t.rw.Generic[path][f.Sel.Name]; generic && len(c.Args) == 1 {
					inner := t.types(c.Args[0])
					out := make([]reflect.Type, len(idx))
					for i, j := range idx {
						out[i] = at(inner, j)
					}
					return out
				}
				if v, ok := t.symbol(id.Name, f.Sel.Name); ok {
					if v.Kind() == reflect.Func {
						return results(v.Type())
					}
					if v.Kind() == reflect.Pointer && v.IsNil() { // a conversion pkg.T(x)
						return []reflect.Type{v.Type().Elem()}
					}
				}
				return nil
			}
		}
	}
	if ft := at(t.types(c.Fun), 0); ft != nil && ft.Kind() == reflect.Func {
		return results(ft)
	}
	return nil
}
