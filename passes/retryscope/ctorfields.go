package retryscope

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// What a field of a constructor's result holds (godo's New: c :=
// NewClient(httpClient) ... c.HTTPClient.Timeout, where NewClient stores
// its parameter in &Client{HTTPClient: httpClient}, or http.DefaultClient
// when it is nil): one step of the value flow across a call, through a
// composite literal the constructor returns.

// A Value is an expression read in the function declaration Func.
type Value struct {
	Expr ast.Expr
	Func *ast.FuncDecl
}

// CtorField is what the field read x.F holds, where x is a local whose
// only def is a call of a function of the package (the constructor) that
// returns a composite literal setting F.
type CtorField struct {
	// Call is the constructor's call; Ctor its declaration.
	Call *ast.CallExpr
	Ctor *ast.FuncDecl
	// Values are every value F may hold at the read: the literal's element
	// read in Ctor, or, when that element is a parameter of Ctor, the
	// argument Call passes for it (read in the reading function) and the
	// other values Ctor assigns to the parameter (a fallback `if hc == nil
	// { hc = http.DefaultClient }`, read in Ctor).
	Values []Value
}

// FieldOfCtor returns what the field selector sel, read in function
// declaration fd, holds, when sel is x.F with x a local of fd whose only
// def is a call of a function of the package every return of which gives
// one composite literal of F's struct type (directly or through a local
// variable), that sets F. ok is false unless every store of F in the
// package's non-test code is that literal's element or a store made in fd
// after sel, outside any loop of fd, and the parameter, if any, is only
// stored in the literal, compared and reassigned in Ctor. What the values
// are, and whether their own fields change (x.F.Timeout = d), is the
// caller's to judge.
func (r *Result) FieldOfCtor(fd *ast.FuncDecl, sel *ast.SelectorExpr) (CtorField, bool) {
	m := r.model
	if m == nil || fd == nil || fd.Body == nil {
		return CtorField{}, false
	}
	v := m.fieldOf(sel)
	if v == nil || v.Pkg() != r.pkg {
		return CtorField{}, false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return CtorField{}, false
	}
	o := r.info.Uses[id]
	di := m.defIndex(fd)
	if o == nil || !Local(o) || IsParam(o) || len(di.defs[o]) != 1 {
		return CtorField{}, false
	}
	d := di.defs[o][0]
	call, ok := ast.Unparen(d.rhs).(*ast.CallExpr)
	if !d.Plain() || d.tuple > 0 || !ok || d.pos > sel.Pos() {
		return CtorField{}, false
	}
	fn := typeutil.StaticCallee(r.info, call)
	if fn == nil || fn.Pkg() != r.pkg {
		return CtorField{}, false
	}
	ctor := m.funcs[fn.Origin()]
	if ctor == nil || ctor.Body == nil || ctor == fd {
		return CtorField{}, false
	}
	lit := m.returnedLit(ctor)
	if lit == nil {
		return CtorField{}, false
	}
	var elt *ast.KeyValueExpr
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if key, ok := kv.Key.(*ast.Ident); ok && r.info.Uses[key] == v {
				elt = kv
			}
		}
	}
	if elt == nil || inLoop(fd, sel.Pos()) {
		return CtorField{}, false
	}
	for _, s := range m.fieldStores()[v] {
		if s.op == token.ILLEGAL && s.pos == elt.Pos() {
			continue
		}
		if s.op == token.AND || s.fn != fd || s.pos <= sel.End() || inLoop(fd, s.pos) {
			return CtorField{}, false
		}
	}
	out := CtorField{Call: call, Ctor: ctor}
	cdi := m.defIndex(ctor)
	p, _ := r.info.Uses[identOf(elt.Value)].(*types.Var)
	i := -1
	if p != nil {
		i = paramIndex(fn.Origin().Signature(), p)
	}
	if i < 0 {
		return CtorField{Call: call, Ctor: ctor, Values: []Value{{Expr: elt.Value, Func: ctor}}}, true
	}
	sig := fn.Origin().Signature()
	if call.Ellipsis.IsValid() || i >= len(call.Args) || sig.Variadic() && i == sig.Params().Len()-1 || !storedOnly(r.info, ctor, p, elt.Value) {
		return CtorField{}, false
	}
	out.Values = append(out.Values, Value{Expr: call.Args[i], Func: fd})
	for _, pd := range cdi.defs[p] {
		if !pd.Plain() || pd.rhs == nil || pd.tuple >= 0 {
			return CtorField{}, false
		}
		out.Values = append(out.Values, Value{Expr: pd.rhs, Func: ctor})
	}
	return out, true
}

// returnedLit returns the struct composite literal every return statement
// of fd (its closures aside) gives as its first result, directly, through
// & or through local variables; nil when there is no such one literal.
func (m *model) returnedLit(fd *ast.FuncDecl) *ast.CompositeLit {
	di := m.defIndex(fd)
	var lit *ast.CompositeLit
	ok := true
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if _, isLit := n.(*ast.FuncLit); isLit || !ok {
			return false
		}
		ret, isRet := n.(*ast.ReturnStmt)
		if !isRet {
			return true
		}
		if len(ret.Results) == 0 {
			ok = false
			return false
		}
		l, isCL := m.origin(di, ret.Results[0], ret.Pos()).(*ast.CompositeLit)
		if !isCL || lit != nil && lit != l {
			ok = false
			return false
		}
		if _, isStruct := m.info.TypeOf(l).Underlying().(*types.Struct); !isStruct {
			ok = false
			return false
		}
		lit = l
		return true
	})
	if !ok {
		return nil
	}
	return lit
}

// storedOnly reports whether every use of parameter p in fd is the
// literal's element at, a comparison's operand or its own reassignment.
func storedOnly(info *types.Info, fd *ast.FuncDecl, p *types.Var, at ast.Expr) bool {
	ok := true
	astq.Parents(fd.Body, func(n, parent ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !isID || info.Uses[id] != p || ast.Unparen(at) == id {
			return true
		}
		switch pn := parent.(type) {
		case *ast.BinaryExpr:
			return true
		case *ast.AssignStmt:
			for _, lhs := range pn.Lhs {
				if lhs == id {
					return true
				}
			}
		}
		ok = false
		return true
	})
	return ok
}

// inLoop reports whether pos lies in a for or range statement of fd.
func inLoop(fd *ast.FuncDecl, pos token.Pos) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			found = found || in(n, pos)
		}
		return !found
	})
	return found
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// ContextClient returns the index of the context argument of fn when fn
// makes a new *http.Client whose Timeout is that of the client the
// context carries, if any, and 0 otherwise: golang.org/x/oauth2's
// NewClient(ctx, src) (v0.27.0 sets no Timeout at all; with a nil src it
// returns the context's client, http.DefaultClient when it has none).
func ContextClient(fn *types.Func) (ctxArg int, ok bool) {
	if fn != nil && fn.FullName() == "golang.org/x/oauth2.NewClient" {
		return 0, true
	}
	return 0, false
}
