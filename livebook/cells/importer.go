package cells

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"strings"
)

// importer gives the type checker the packages the interpreter has: the
// compiled ones from their symbols (by reflection: functions, variables,
// constants, and the types with their exported methods and fields) and
// the ones it reads as Go source (Rewriter.Sources) by checking that
// source. The packages are made once and kept (the symbols do not change).
type importer struct {
	rw      *Rewriter
	pkgs    map[string]*types.Package
	named   map[reflect.Type]*types.Named
	loading map[string]bool
}

func (rw *Rewriter) importer() *importer {
	if rw.imp == nil {
		rw.imp = &importer{rw: rw, pkgs: map[string]*types.Package{}, named: map[reflect.Type]*types.Named{}, loading: map[string]bool{}}
	}
	return rw.imp
}

// Import implements types.Importer.
func (im *importer) Import(path string) (*types.Package, error) {
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	if p, ok := im.pkgs[path]; ok && p.Complete() {
		return p, nil
	}
	if files, ok := im.rw.Sources[path]; ok {
		return im.source(path, files)
	}
	syms, ok := im.rw.symbols(path)
	if !ok {
		return nil, fmt.Errorf("package %s is not built into the page's interpreter", path)
	}
	p := im.pkg(path, pkgName(im.rw.symbolKey(path)))
	scope := p.Scope()
	for name, v := range syms {
		if strings.HasPrefix(name, "_") || !v.IsValid() || scope.Lookup(name) != nil {
			continue
		}
		switch {
		case v.Type().Implements(reflect.TypeFor[constant.Value]()):
			c := v.Interface().(constant.Value)
			scope.Insert(types.NewConst(token.NoPos, p, name, untyped(c), c))
		case v.Kind() == reflect.Func:
			scope.Insert(types.NewFunc(token.NoPos, p, name, im.typ(v.Type()).(*types.Signature)))
		case v.Kind() == reflect.Pointer && v.IsNil() && !v.CanAddr():
			t := im.typ(v.Type().Elem())
			if n, ok := t.(*types.Named); ok && n.Obj().Name() == name && n.Obj().Pkg() == p {
				scope.Insert(n.Obj())
			} else {
				scope.Insert(types.NewTypeName(token.NoPos, p, name, t)) // an alias
			}
		case v.CanAddr():
			scope.Insert(types.NewVar(token.NoPos, p, name, im.typ(v.Type())))
		default: // a typed constant
			if c := constantOf(v); c != nil {
				scope.Insert(types.NewConst(token.NoPos, p, name, im.typ(v.Type()), c))
			}
		}
	}
	p.MarkComplete()
	return p, nil
}

func (im *importer) source(path string, files []string) (*types.Package, error) {
	if im.loading[path] {
		return nil, fmt.Errorf("import cycle through %s", path)
	}
	im.loading[path] = true
	defer delete(im.loading, path)
	fset := token.NewFileSet()
	var fs []*ast.File
	for i, src := range files {
		f, err := parser.ParseFile(fset, fmt.Sprintf("%s/%d.go", path, i), src, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		fs = append(fs, f)
	}
	// The importer needs the package's declarations, not its functions'
	// bodies (the interpreter compiles those).
	conf := types.Config{Importer: im, Error: func(error) {}, IgnoreFuncBodies: true}
	p, err := conf.Check(path, fset, fs, nil)
	if err != nil {
		return nil, fmt.Errorf("checking the source of %s: %v", path, err)
	}
	im.pkgs[path] = p
	return p, nil
}

func (im *importer) pkg(path, name string) *types.Package {
	if p, ok := im.pkgs[path]; ok {
		return p
	}
	if name == "" {
		name = pkgName(path)
	}
	p := types.NewPackage(path, name)
	im.pkgs[path] = p
	return p
}

func pkgName(key string) string { return key[strings.LastIndex(key, "/")+1:] }

func untyped(c constant.Value) types.Type {
	switch c.Kind() {
	case constant.Bool:
		return types.Typ[types.UntypedBool]
	case constant.String:
		return types.Typ[types.UntypedString]
	case constant.Int:
		return types.Typ[types.UntypedInt]
	case constant.Float:
		return types.Typ[types.UntypedFloat]
	case constant.Complex:
		return types.Typ[types.UntypedComplex]
	}
	return types.Typ[types.Invalid]
}

func constantOf(v reflect.Value) constant.Value {
	switch v.Kind() {
	case reflect.Bool:
		return constant.MakeBool(v.Bool())
	case reflect.String:
		return constant.MakeString(v.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return constant.MakeInt64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return constant.MakeUint64(v.Uint())
	case reflect.Float32, reflect.Float64:
		return constant.MakeFloat64(v.Float())
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		return constant.BinaryOp(constant.MakeFloat64(real(c)), token.ADD, constant.MakeImag(constant.MakeFloat64(imag(c))))
	}
	return nil
}

var basics = map[reflect.Kind]types.BasicKind{
	reflect.Bool: types.Bool, reflect.Int: types.Int, reflect.Int8: types.Int8, reflect.Int16: types.Int16,
	reflect.Int32: types.Int32, reflect.Int64: types.Int64, reflect.Uint: types.Uint, reflect.Uint8: types.Uint8,
	reflect.Uint16: types.Uint16, reflect.Uint32: types.Uint32, reflect.Uint64: types.Uint64, reflect.Uintptr: types.Uintptr,
	reflect.Float32: types.Float32, reflect.Float64: types.Float64, reflect.Complex64: types.Complex64,
	reflect.Complex128: types.Complex128, reflect.String: types.String, reflect.UnsafePointer: types.UnsafePointer,
}

// typ converts a compiled type to the type checker's.
func (im *importer) typ(t reflect.Type) types.Type {
	if t.Name() != "" {
		if t.PkgPath() == "" {
			if o := types.Universe.Lookup(t.Name()); o != nil {
				if tn, ok := o.(*types.TypeName); ok {
					return tn.Type()
				}
			}
		} else {
			return im.namedType(t)
		}
	}
	return im.structure(t)
}

func (im *importer) namedType(t reflect.Type) types.Type {
	if n, ok := im.named[t]; ok {
		return n
	}
	p := im.pkg(t.PkgPath(), "")
	obj := types.NewTypeName(token.NoPos, p, t.Name(), nil)
	n := types.NewNamed(obj, nil, nil)
	im.named[t] = n
	n.SetUnderlying(im.structure(t).Underlying())
	if t.Kind() == reflect.Interface {
		return n
	}
	seen := map[string]bool{}
	for i := range t.NumMethod() {
		m := t.Method(i)
		seen[m.Name] = true
		n.AddMethod(im.method(p, m, types.NewVar(token.NoPos, p, "", n)))
	}
	pt := reflect.PointerTo(t)
	for i := range pt.NumMethod() {
		if m := pt.Method(i); !seen[m.Name] {
			n.AddMethod(im.method(p, m, types.NewVar(token.NoPos, p, "", types.NewPointer(n))))
		}
	}
	return n
}

func (im *importer) method(p *types.Package, m reflect.Method, recv *types.Var) *types.Func {
	in := make([]reflect.Type, 0, m.Type.NumIn())
	for i := 1; i < m.Type.NumIn(); i++ {
		in = append(in, m.Type.In(i))
	}
	out := make([]reflect.Type, m.Type.NumOut())
	for i := range out {
		out[i] = m.Type.Out(i)
	}
	sig := im.signature(recv, in, out, m.Type.IsVariadic())
	return types.NewFunc(token.NoPos, p, m.Name, sig)
}

func (im *importer) signature(recv *types.Var, in, out []reflect.Type, variadic bool) *types.Signature {
	vars := func(ts []reflect.Type) *types.Tuple {
		vs := make([]*types.Var, len(ts))
		for i, t := range ts {
			vs[i] = types.NewParam(token.NoPos, nil, "", im.typ(t))
		}
		return types.NewTuple(vs...)
	}
	return types.NewSignatureType(recv, nil, nil, vars(in), vars(out), variadic)
}

func (im *importer) structure(t reflect.Type) types.Type {
	if k, ok := basics[t.Kind()]; ok {
		return types.Typ[k]
	}
	switch t.Kind() {
	case reflect.Pointer:
		return types.NewPointer(im.typ(t.Elem()))
	case reflect.Slice:
		return types.NewSlice(im.typ(t.Elem()))
	case reflect.Array:
		return types.NewArray(im.typ(t.Elem()), int64(t.Len()))
	case reflect.Map:
		return types.NewMap(im.typ(t.Key()), im.typ(t.Elem()))
	case reflect.Chan:
		dir := types.SendRecv
		switch t.ChanDir() {
		case reflect.SendDir:
			dir = types.SendOnly
		case reflect.RecvDir:
			dir = types.RecvOnly
		}
		return types.NewChan(dir, im.typ(t.Elem()))
	case reflect.Func:
		in := make([]reflect.Type, t.NumIn())
		for i := range in {
			in[i] = t.In(i)
		}
		out := make([]reflect.Type, t.NumOut())
		for i := range out {
			out[i] = t.Out(i)
		}
		return im.signature(nil, in, out, t.IsVariadic())
	case reflect.Struct:
		fields := make([]*types.Var, t.NumField())
		tags := make([]string, t.NumField())
		for i := range fields {
			f := t.Field(i)
			var p *types.Package
			if f.PkgPath != "" {
				p = im.pkg(f.PkgPath, "")
			}
			fields[i] = types.NewField(token.NoPos, p, f.Name, im.typ(f.Type), f.Anonymous)
			tags[i] = string(f.Tag)
		}
		return types.NewStruct(fields, tags)
	case reflect.Interface:
		var ms []*types.Func
		for i := range t.NumMethod() {
			m := t.Method(i)
			var p *types.Package
			if m.PkgPath != "" {
				p = im.pkg(m.PkgPath, "")
			}
			in := make([]reflect.Type, m.Type.NumIn())
			for j := range in {
				in[j] = m.Type.In(j)
			}
			out := make([]reflect.Type, m.Type.NumOut())
			for j := range out {
				out[j] = m.Type.Out(j)
			}
			ms = append(ms, types.NewFunc(token.NoPos, p, m.Name, im.signature(nil, in, out, m.Type.IsVariadic())))
		}
		it := types.NewInterfaceType(ms, nil)
		it.Complete()
		return it
	}
	return types.Typ[types.Invalid]
}
