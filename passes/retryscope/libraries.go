package retryscope

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/names"
)

// entries returns the names of the functions and methods of the library
// at path that call may take as entry points (or, for go-retryablehttp,
// as clients): call looks no further for any other name; the table
// (table.go) is the one list of them.
func entries(path string) []string {
	if l := registry[path]; l != nil {
		return l.Entries
	}
	return nil
}

// libraryCalls returns a test of the names by which a call in a package
// that imports the paths in direct, and whose transitive imports dependsOn
// tests, may be a LibraryCall scope's: an entry point of a library it
// imports, or of one with method entry points that it depends on, or a
// function of cfg.RetryFuncs whose package it depends on (any name, for a
// name that does not parse). With ops set, only the calls that take an
// operation (no Dials library's). It returns nil when no call can be.
func (cfg *Config) libraryCalls(direct []string, dependsOn func(func(string) bool) bool, ops bool) func(string) bool {
	names := make(map[string]bool)
	add := func(ns ...string) {
		for _, n := range ns {
			names[n] = true
		}
	}
	for _, path := range direct {
		if l := registry[path]; l != nil && !(ops && l.Dials) {
			add(l.Entries...)
		}
	}
	for path, l := range registry {
		if l.Methods && !(ops && l.Dials) && dependsOn(func(p string) bool { return p == path }) {
			add(l.Entries...)
		}
	}
	for _, name := range cfg.RetryFuncs {
		p, ok := funcPackage(name)
		if !ok {
			return func(string) bool { return true }
		}
		if dependsOn(func(path string) bool { return path == p }) {
			add(name[strings.LastIndex(name, ".")+1:])
		}
	}
	if len(names) == 0 {
		return nil
	}
	return func(name string) bool { return names[name] }
}

// funcPackage returns the package path of a function's full name
// ("example.com/pkg.F", "(*example.com/pkg.T).M").
func funcPackage(name string) (string, bool) {
	if strings.HasPrefix(name, "(") {
		end := strings.Index(name, ").")
		if end < 0 {
			return "", false
		}
		name = strings.TrimPrefix(name[1:end], "*")
	}
	slash := max(strings.LastIndex(name, "/"), 0)
	dot := strings.LastIndex(name[slash:], ".")
	if dot <= 0 {
		return "", false
	}
	return name[:slash+dot], true
}

// origin resolves a local variable to the value last assigned to it before
// pos, looking through parentheses and &. Other expressions are returned
// as they are.
func (m *model) origin(di *defIndex, e ast.Expr, before token.Pos) ast.Expr {
	return di.resolve(e, before, true)
}

// fieldSets returns the assignments v.F = x to the local variable e names.
func (m *model) fieldSets(di *defIndex, e ast.Expr) []fieldSet {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if o := m.info.Uses[id]; o != nil {
			return di.fields[o]
		}
	}
	return nil
}

func (m *model) intConst(e ast.Expr) (int64, bool) {
	tv, ok := m.info.Types[e]
	if !ok || tv.Value == nil {
		return 0, false
	}
	return constant.Int64Val(constant.ToInt(tv.Value))
}

func (m *model) isZero(e ast.Expr) bool {
	tv, ok := m.info.Types[e]
	if !ok || tv.Value == nil {
		return false
	}
	switch tv.Value.Kind() {
	case constant.Int, constant.Float, constant.Complex:
		return constant.Sign(tv.Value) == 0
	}
	return false // a string or a bool
}

// calleeName returns the full name of call's static callee, or "".
func (m *model) calleeName(call *ast.CallExpr) string {
	if fn := m.callee(call); fn != nil {
		return fn.FullName()
	}
	return ""
}

// stripTypeParams removes the type parameter lists from a full name:
// "(pkg.Executor[R any]).Run" becomes "(pkg.Executor).Run".
func stripTypeParams(name string) string {
	var b strings.Builder
	depth := 0
	for _, r := range name {
		switch {
		case r == '[':
			depth++
		case r == ']':
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// call returns the retry scope a library call makes, or nil: none when
// it makes one attempt (oneAttempt).
func (m *model) call(di *defIndex, fn ast.Node, call *ast.CallExpr) *Scope {
	s := m.libraryCall(di, fn, call)
	if s == nil || oneAttempt(s.Cap) {
		return nil
	}
	return s
}

// libraryCall reads the retry scope a library call makes, or nil: the
// library's model function fills it (Library.model), a Dials library's
// dial is read by grpcDial, and a function of cfg.RetryFuncs retries its
// first function argument with unknown bounds.
func (m *model) libraryCall(di *defIndex, fn ast.Node, call *ast.CallExpr) *Scope {
	callee := m.callee(call)
	if callee == nil || callee.Pkg() == nil {
		return nil
	}
	path := callee.Pkg().Path()
	name := callee.FullName()
	lib := registry[path]
	entry := lib != nil && slices.Contains(lib.Entries, callee.Name())
	if !entry && (len(m.extra) == 0 || !m.extra[name]) {
		return nil
	}
	s := &Scope{Kind: LibraryCall, Node: call, Func: fn, Pos: call.Fun.Pos(), Library: path, Entry: stripTypeParams(name), Name: names.Of(callee), Trigger: TriggerUnknown}
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
		s.Pos = sel.Sel.Pos()
	}
	if entry && lib.Dials {
		if callee.Signature().Recv() == nil {
			return m.grpcDial(di, s, call)
		}
		return nil
	}
	op := -1
	if entry && lib.model != nil && lib.model(m.at(di, call, s)) {
		if s.Kind == Client {
			return s
		}
		op = lib.Ops[callee.Name()]
	}
	if op < 0 {
		if !m.extra[name] {
			return nil
		}
		for i, a := range call.Args {
			if _, ok := m.info.TypeOf(a).Underlying().(*types.Signature); ok {
				op = i
				break
			}
		}
		if op < 0 {
			return nil
		}
		s.Cap, s.Deadline = Cap{Kind: CapUnknown}, Deadline{Kind: DeadlineUnknown}
		s.Waits = []Wait{{Kind: WaitUnknown, Pos: s.Pos, Node: call, Library: true}}
	}
	if op >= len(call.Args) {
		return nil
	}
	s.OpArg = op
	s.Body, s.Op = m.opBody(di, call.Args[op], call.Pos())
	return s
}

// options returns the arguments of call from the first'th on, the
// elements of a spread slice the model can list in place of the slice; it
// reports true (unknown) when a spread slice stays that it cannot list.
func (m *model) options(di *defIndex, call *ast.CallExpr, first int) ([]ast.Expr, bool) {
	opts := call.Args[first:]
	if !call.Ellipsis.IsValid() {
		return opts, false
	}
	return m.spread(di, opts, call.Pos())
}

// spread returns the options of a call whose last argument is a spread
// slice (opts...): the other arguments and the elements the slice holds
// (sliceElems). It reports true (still spread) when the model cannot list
// them.
func (m *model) spread(di *defIndex, args []ast.Expr, before token.Pos) ([]ast.Expr, bool) {
	if len(args) == 0 {
		return args, true
	}
	elems, ok := m.sliceElems(di, args[len(args)-1], before, 0)
	if !ok {
		return args, true
	}
	return append(append([]ast.Expr(nil), args[:len(args)-1]...), elems...), false
}

// sliceElems lists the elements of the slice e holds before a position,
// wherever the package builds it: a slice literal (opts :=
// []retry.Option{...}), a local appended to (opts = append(opts, o), or
// append(opts, more...)), a package variable whose only value is one
// (var noRetry = []grpc.CallOption{...}), or the result of a function of
// the package every return of which is one (dialOptions()). Elements made
// in another function are returned as they are written there. It reports
// false when the model cannot list them: a parameter, a field, a value
// changed elsewhere.
func (m *model) sliceElems(di *defIndex, e ast.Expr, before token.Pos, depth int) ([]ast.Expr, bool) {
	if depth > maxDepth {
		return nil, false
	}
	switch v := m.origin(di, e, before).(type) {
	case *ast.CompositeLit:
		if t := m.info.TypeOf(v); t == nil {
			return nil, false
		} else if _, ok := t.Underlying().(*types.Slice); !ok {
			return nil, false
		}
		for _, e := range v.Elts {
			if _, ok := e.(*ast.KeyValueExpr); ok {
				return nil, false
			}
		}
		return v.Elts, true
	case *ast.CallExpr:
		if id, ok := ast.Unparen(v.Fun).(*ast.Ident); ok && len(v.Args) > 0 {
			if b, ok := m.info.Uses[id].(*types.Builtin); ok && b.Name() == "make" {
				if len(v.Args) >= 2 && m.isZero(v.Args[1]) {
					return []ast.Expr{}, true // make([]grpc.DialOption, 0, n)
				}
				return nil, false
			}
			if b, ok := m.info.Uses[id].(*types.Builtin); ok && b.Name() == "append" {
				elems, ok := m.sliceElems(di, v.Args[0], v.Pos(), depth+1)
				if !ok {
					return nil, false
				}
				more := v.Args[1:]
				if v.Ellipsis.IsValid() {
					if more, ok = m.sliceElems(di, more[len(more)-1], v.Pos(), depth+1); !ok {
						return nil, false
					}
				}
				return append(append([]ast.Expr(nil), elems...), more...), true
			}
		}
		fn := m.callee(v)
		fd := m.funcs[fn]
		if fn == nil || fd == nil || fn.Signature().Results().Len() != 1 {
			return nil, false
		}
		fdi := m.defIndex(fd)
		var elems []ast.Expr
		ok := true
		astq.InspectOwn(fd.Body, func(n ast.Node) bool {
			if ret, isRet := n.(*ast.ReturnStmt); isRet && ok {
				var es []ast.Expr
				if len(ret.Results) != 1 {
					ok = false
				} else if es, ok = m.sliceElems(fdi, ret.Results[0], ret.Pos(), depth+1); ok {
					elems = append(elems, es...)
				}
			}
			return ok
		})
		return elems, ok && elems != nil
	case *ast.Ident:
		o, _ := m.info.Uses[v].(*types.Var)
		if o != nil && local(o) {
			// var opts []grpc.DialOption: empty until appended to
			var last *def
			for i, d := range di.defs[o] {
				if d.pos < before && (last == nil || d.pos > last.pos) {
					last = &di.defs[o][i]
				}
			}
			if last != nil && last.op == token.VAR && last.rhs == nil && !m.addressTaken(o) {
				return []ast.Expr{}, true
			}
			return nil, false
		}
		// a package variable the package gives one value, and changes
		// nowhere (no other assignment, no &v)
		if o == nil || o.Pkg() != m.pass.Pkg || m.addressTaken(o) {
			return nil, false
		}
		defs := m.packageDefs().defs[o]
		if len(defs) != 1 || defs[0].op != token.VAR || defs[0].rhs == nil || defs[0].tuple >= 0 {
			return nil, false
		}
		return m.sliceElems(m.packageDefs(), defs[0].rhs, defs[0].pos+1, depth+1)
	}
	return nil, false
}

// opBody returns the body of the operation passed to a library, when it is
// declared in this package.
func (m *model) opBody(di *defIndex, e ast.Expr, before token.Pos) (*ast.BlockStmt, *types.Func) {
	e = m.origin(di, e, before)
	switch e := e.(type) {
	case *ast.FuncLit:
		return e.Body, nil
	case *ast.Ident:
		if fn, ok := m.info.Uses[e].(*types.Func); ok {
			if d := m.funcs[fn.Origin()]; d != nil {
				return d.Body, fn
			}
			return nil, fn
		}
	case *ast.SelectorExpr:
		if fn, ok := m.info.Uses[e.Sel].(*types.Func); ok {
			if d := m.funcs[fn.Origin()]; d != nil {
				return d.Body, fn
			}
			return nil, fn
		}
	case *ast.IndexExpr: // an explicit instantiation: op[T]
		return m.opBody(di, e.X, before)
	}
	return nil, nil
}

// objName returns the full name of the object id uses: "path.Name".
func (m *model) objName(id *ast.Ident) string { return objectName(m.info.Uses[id]) }

func (m *model) typePath(e ast.Expr) string {
	t := m.info.TypeOf(e)
	if t == nil {
		return ""
	}
	tn := astq.NamedOf(t)
	if tn == nil {
		return ""
	}
	return tn.Pkg().Path() + "." + tn.Name()
}
