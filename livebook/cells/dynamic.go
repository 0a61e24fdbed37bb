package cells

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
)

// The interpreter keeps the values of the types a program declares in
// wrappers of its own: a value of a declared type with methods held in an
// interface, a value of a type parameter, and the name of any declared
// type at run time (reflect sees an unnamed type). Go's answers that
// depend on these are not available in the page's interpreter, and the
// rewriting refuses them, by the types the checker gives:
//
//   - == and != (and a switch's cases) between an interface value that
//     may hold a value of a declared type with methods and another
//     operand that may hold one too, or between an interface and a type
//     parameter (yaegi answers false for equal values);
//   - a type assertion or a type switch's case whose type is made of a
//     type parameter, unless it is the type parameter alone and every type
//     argument of the program is a basic type (yaegi matches the wrong
//     case for a declared type or an interface);
//   - == and != between an interface without methods that may hold a
//     declared type without methods and a value of another type with the
//     same underlying type, and a type assertion or case to such another
//     type from such an interface (yaegi gives the declared type's values
//     its reflect type of the underlying type: a Q(3) is an int 3);
//   - fmt's %T and %#v of a value whose type the program declares (yaegi
//     prints the type's structure, struct { A int }, for main.P).

// declared returns the program's named types (at package level and in
// functions), once.
func (r *rewriting) declared() []*types.TypeName {
	if r.decl == nil {
		r.decl = []*types.TypeName{}
		for _, o := range r.info.Defs {
			if tn, ok := o.(*types.TypeName); ok && !tn.IsAlias() {
				if _, ok := tn.Type().(*types.Named); ok {
					r.decl = append(r.decl, tn)
				}
			}
		}
	}
	return r.decl
}

// withMethods reports whether t (or *t) has methods.
func withMethods(t types.Type) bool {
	return types.NewMethodSet(t).Len() > 0 || types.NewMethodSet(types.NewPointer(t)).Len() > 0
}

// mayHoldWrapped reports whether a value of type t may hold, or be, a
// value of a declared type with methods or of a type parameter.
func (r *rewriting) mayHoldWrapped(t types.Type) bool {
	switch u := t.(type) {
	case *types.TypeParam:
		return true
	case *types.Pointer:
		return r.isDeclaredWithMethods(u.Elem())
	}
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return r.isDeclaredWithMethods(t)
	}
	for _, tn := range r.declared() {
		n := tn.Type().(*types.Named)
		if !withMethods(n) {
			continue
		}
		if n.TypeParams().Len() > 0 || types.Implements(n, iface) || types.Implements(types.NewPointer(n), iface) {
			return true
		}
	}
	return false
}

func (r *rewriting) isDeclaredWithMethods(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() == r.pkg && withMethods(n)
}

func isInterface(t types.Type) bool {
	if _, tp := t.(*types.TypeParam); tp {
		return false
	}
	_, ok := t.Underlying().(*types.Interface)
	return ok
}

// compare refuses a comparison of x and y that the interpreter may
// answer wrongly (see above).
func (r *rewriting) compare(at ast.Node, x, y ast.Expr) {
	tx, ty := r.info.Types[x], r.info.Types[y]
	if tx.Type == nil || ty.Type == nil || tx.IsNil() || ty.IsNil() {
		return
	}
	ix, iy := isInterface(tx.Type), isInterface(ty.Type)
	if !ix && !iy {
		return
	}
	_, px := tx.Type.(*types.TypeParam)
	_, py := ty.Type.(*types.TypeParam)
	switch {
	case r.confusable(tx.Type, ty.Type) || r.confusable(ty.Type, tx.Type):
		r.refuse(at, "comparing an interface value that may hold a value of a type this program declares without methods (%s) with a value that may be of its underlying type is not available in the browser (the page's interpreter does not tell the two types apart)", r.confusedWith(tx.Type, ty.Type))
	case px || py:
		r.refuse(at, "comparing an interface value with a value of a type parameter is not available in the browser (the page's interpreter may answer false for equal values)")
	case r.mayHoldWrapped(tx.Type) && r.mayHoldWrapped(ty.Type):
		r.refuse(at, "comparing interface values that may hold a value of a type with methods this program declares is not available in the browser (the page's interpreter may answer false for equal values); compare the values before they are put in the interface")
	}
}

// plainDeclared returns the program's declared types without methods
// (not generic, not interfaces): yaegi gives their values its reflect
// type of the underlying type, so that at run time a Q(3) is an int 3.
func (r *rewriting) plainDeclared() []*types.Named {
	var out []*types.Named
	for _, tn := range r.declared() {
		n := tn.Type().(*types.Named)
		if _, iface := n.Underlying().(*types.Interface); iface || n.TypeParams().Len() > 0 || withMethods(n) {
			continue
		}
		out = append(out, n)
	}
	return out
}

func emptyInterface(t types.Type) bool {
	if !isInterface(t) {
		return false
	}
	return t.Underlying().(*types.Interface).NumMethods() == 0
}

// confusable reports whether e, an interface without methods, may hold a
// declared type without methods and o may hold another type of the same
// underlying type (o an interface without methods, or such a type).
func (r *rewriting) confusable(e, o types.Type) bool {
	return r.confusedWith(e, o) != ""
}

// confusedWith names the declared type confusable names ("" if none).
func (r *rewriting) confusedWith(e, o types.Type) string {
	for _, pair := range [][2]types.Type{{e, o}, {o, e}} {
		e, o := pair[0], pair[1]
		if !emptyInterface(e) {
			continue
		}
		for _, d := range r.plainDeclared() {
			switch {
			case isInterface(o):
				// Two interfaces: left to the interpreter (it answers
				// false for a Q(3) and an int 3 only if the program puts
				// both in interfaces; the corpus's programs that compare
				// interfaces holding declared types it runs as Go does).
			case !types.Identical(d, o) && types.Identical(d.Underlying(), o.Underlying()):
				return d.Obj().Name()
			}
		}
	}
	return ""
}

// assertPlain refuses a type assertion or case to type c of a value of
// interface type x that may hold a declared type without methods, other
// than c, of the same underlying type as c (yaegi matches a Q(3) with a
// case int). An assertion to the declared type itself is left to the
// interpreter, which gets it right for a value of that type.
func (r *rewriting) assertPlain(e ast.Expr, x types.Type) {
	c := r.typeOf(e)
	if c == nil || isInterface(c) || !emptyInterface(x) {
		return
	}
	for _, d := range r.plainDeclared() {
		if !types.Identical(d, c) && types.Identical(d.Underlying(), c.Underlying()) {
			r.refuse(e, "a type assertion or type switch case to %s of a value that may hold %s, a type this program declares without methods, or its underlying type is not available in the browser (the page's interpreter does not tell the two types apart)", c, d.Obj().Name())
			return
		}
	}
}

// typeParamCase refuses a type assertion or a type switch's case to a
// type made of a type parameter.
// A case of a type parameter alone (or a pointer, slice, array, map or
// channel of them) is left to the interpreter when every type argument of
// the program is made of the language's basic types, which it matches
// rightly; a declared type, an interface or a type parameter as a type
// argument, or a case of another type made of a type parameter, is
// refused.
func (r *rewriting) typeParamCase(e ast.Expr) {
	t := r.typeOf(e)
	if t == nil || !hasTypeParam(t, 0) {
		return
	}
	if onlyTypeParams(t, 0) && r.basicTypeArgs() {
		return
	}
	r.refuse(e, "a type assertion or type switch case to %s, a type made of a type parameter, is not available in the browser (the page's interpreter may choose the wrong case)", t)
}

// onlyTypeParams reports whether t is made of type parameters and basic
// types by pointers, slices, arrays, maps and channels.
func onlyTypeParams(t types.Type, depth int) bool {
	if depth > 10 {
		return false
	}
	switch t := t.(type) {
	case *types.TypeParam, *types.Basic:
		return true
	case *types.Pointer:
		return onlyTypeParams(t.Elem(), depth+1)
	case *types.Slice:
		return onlyTypeParams(t.Elem(), depth+1)
	case *types.Array:
		return onlyTypeParams(t.Elem(), depth+1)
	case *types.Chan:
		return onlyTypeParams(t.Elem(), depth+1)
	case *types.Map:
		return onlyTypeParams(t.Key(), depth+1) && onlyTypeParams(t.Elem(), depth+1)
	}
	return false
}

// basicTypeArgs reports whether every type argument of the program's
// instances is made of basic types (by pointers, slices, arrays, maps and
// channels).
func (r *rewriting) basicTypeArgs() bool {
	var basic func(t types.Type, depth int) bool
	basic = func(t types.Type, depth int) bool {
		if depth > 10 {
			return false
		}
		switch t := t.(type) {
		case *types.Basic:
			return true
		case *types.Pointer:
			return basic(t.Elem(), depth+1)
		case *types.Slice:
			return basic(t.Elem(), depth+1)
		case *types.Array:
			return basic(t.Elem(), depth+1)
		case *types.Chan:
			return basic(t.Elem(), depth+1)
		case *types.Map:
			return basic(t.Key(), depth+1) && basic(t.Elem(), depth+1)
		}
		return false
	}
	for _, in := range r.info.Instances {
		for i := range in.TypeArgs.Len() {
			if !basic(in.TypeArgs.At(i), 0) {
				return false
			}
		}
	}
	return true
}

func hasTypeParam(t types.Type, depth int) bool {
	if depth > 10 {
		return false
	}
	switch t := t.(type) {
	case *types.TypeParam:
		return true
	case *types.Named:
		if ta := t.TypeArgs(); ta != nil {
			for i := range ta.Len() {
				if hasTypeParam(ta.At(i), depth+1) {
					return true
				}
			}
		}
		return false
	case *types.Alias:
		return hasTypeParam(types.Unalias(t), depth)
	case *types.Pointer:
		return hasTypeParam(t.Elem(), depth+1)
	case *types.Slice:
		return hasTypeParam(t.Elem(), depth+1)
	case *types.Array:
		return hasTypeParam(t.Elem(), depth+1)
	case *types.Chan:
		return hasTypeParam(t.Elem(), depth+1)
	case *types.Map:
		return hasTypeParam(t.Key(), depth+1) || hasTypeParam(t.Elem(), depth+1)
	case *types.Signature:
		for _, tu := range []*types.Tuple{t.Params(), t.Results()} {
			for i := range tu.Len() {
				if hasTypeParam(tu.At(i).Type(), depth+1) {
					return true
				}
			}
		}
	case *types.Struct:
		for i := range t.NumFields() {
			if hasTypeParam(t.Field(i).Type(), depth+1) {
				return true
			}
		}
	case *types.Interface:
		for i := range t.NumMethods() {
			if hasTypeParam(t.Method(i).Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// fmtFormats are fmt's functions with a format, by the index of the
// format argument.
var fmtFormats = map[string]int{"Printf": 0, "Sprintf": 0, "Errorf": 0, "Fprintf": 1, "Appendf": 1}

// typeNames refuses fmt's %T and %#v of a value whose type the program
// declares.
func (r *rewriting) typeNames(c *ast.CallExpr) {
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	f, ok := r.info.Uses[sel.Sel].(*types.Func)
	if !ok || f.Pkg() == nil || f.Pkg().Path() != "fmt" {
		return
	}
	fi, ok := fmtFormats[f.Name()]
	if !ok || len(c.Args) <= fi || c.Ellipsis.IsValid() {
		return
	}
	tv := r.info.Types[c.Args[fi]]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return
	}
	format := constant.StringVal(tv.Value)
	arg := fi + 1
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		sharp := false
		for ; i < len(format) && strings.IndexByte("+-# 0123456789.*[]", format[i]) >= 0; i++ {
			switch format[i] {
			case '#':
				sharp = true
			case '[':
				return // explicit argument indexes: left alone
			case '*':
				arg++
			}
		}
		if i >= len(format) || format[i] == '%' {
			continue
		}
		if arg < len(c.Args) && (format[i] == 'T' || format[i] == 'v' && sharp) && r.namesDeclared(r.typeOf(c.Args[arg]), 0) {
			r.refuse(c.Args[arg], "%%%s of a value of a type this program declares is not available in the browser (the page's interpreter prints the type's structure instead of its name)", map[bool]string{true: "#v", false: "T"}[format[i] == 'v'])
			return
		}
		arg++
	}
}

// namesDeclared reports whether t is, contains or (an interface) may hold
// a type the program declares.
func (r *rewriting) namesDeclared(t types.Type, depth int) bool {
	if t == nil || depth > 10 {
		return false
	}
	switch u := t.(type) {
	case *types.TypeParam:
		return true
	case *types.Alias:
		return r.namesDeclared(types.Unalias(u), depth)
	case *types.Named:
		if u.Obj().Pkg() == r.pkg {
			return true
		}
		if ta := u.TypeArgs(); ta != nil {
			for i := range ta.Len() {
				if r.namesDeclared(ta.At(i), depth+1) {
					return true
				}
			}
		}
		if iface, ok := u.Underlying().(*types.Interface); ok {
			return r.implementedByDeclared(iface)
		}
		return false
	case *types.Interface:
		return r.implementedByDeclared(u)
	case *types.Pointer:
		return r.namesDeclared(u.Elem(), depth+1)
	case *types.Slice:
		return r.namesDeclared(u.Elem(), depth+1)
	case *types.Array:
		return r.namesDeclared(u.Elem(), depth+1)
	case *types.Chan:
		return r.namesDeclared(u.Elem(), depth+1)
	case *types.Map:
		return r.namesDeclared(u.Key(), depth+1) || r.namesDeclared(u.Elem(), depth+1)
	case *types.Struct:
		for i := range u.NumFields() {
			if r.namesDeclared(u.Field(i).Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

func (r *rewriting) implementedByDeclared(iface *types.Interface) bool {
	for _, tn := range r.declared() {
		n := tn.Type().(*types.Named)
		if n.TypeParams().Len() > 0 || types.Implements(n, iface) || types.Implements(types.NewPointer(n), iface) {
			return true
		}
	}
	return false
}

// The checks above, from walk.
func (r *rewriting) dynamic(n ast.Node) {
	switch n := n.(type) {
	case *ast.BinaryExpr:
		if n.Op == token.EQL || n.Op == token.NEQ {
			r.compare(n, n.X, n.Y)
		}
	case *ast.SwitchStmt:
		if n.Tag == nil {
			return
		}
		for _, s := range n.Body.List {
			for _, e := range s.(*ast.CaseClause).List {
				r.compare(e, n.Tag, e)
			}
		}
	case *ast.TypeAssertExpr:
		if n.Type != nil {
			r.typeParamCase(n.Type)
			r.assertPlain(n.Type, r.typeOf(n.X))
		}
	case *ast.TypeSwitchStmt:
		var x ast.Expr
		switch a := n.Assign.(type) {
		case *ast.AssignStmt:
			x = a.Rhs[0].(*ast.TypeAssertExpr).X
		case *ast.ExprStmt:
			x = a.X.(*ast.TypeAssertExpr).X
		}
		for _, s := range n.Body.List {
			for _, e := range s.(*ast.CaseClause).List {
				if tv := r.info.Types[e]; !tv.IsNil() {
					r.typeParamCase(e)
					if x != nil {
						r.assertPlain(e, r.typeOf(x))
					}
				}
			}
		}
	case *ast.CallExpr:
		r.typeNames(n)
	}
}
