package retryscope

import (
	"go/ast"
	"go/types"
	"sort"

	"golang.org/x/tools/go/types/typeutil"
)

// Arg is one argument passed for a parameter at a call site of the
// package: Expr, read in the function declaration Func.
type Arg struct {
	Expr ast.Expr
	Func *ast.FuncDecl
	Call *ast.CallExpr
}

// flows is what the model knows of values crossing function boundaries
// inside the package: arguments at the call sites of its functions, and
// the retrying clients its constructors store in struct fields.
type flows struct {
	args map[*types.Var][]Arg
	// fieldClients maps a struct field to the Client scope every whole
	// assignment of it in the package stores; nil when one stores
	// anything else.
	fieldClients map[*types.Var]*Scope
}

// Args returns the arguments passed for param (a parameter of a function
// or method declared in the package) at the package's static call sites.
// A variadic parameter's arguments are each an Arg. Callers in other
// packages are not seen.
func (r *Result) Args(param *types.Var) []Arg {
	if r.flows == nil {
		return nil
	}
	return r.flows.args[param]
}

// FieldClient returns the retrying-client scope (a Client scope of this
// package) that the package stores in the struct field, when every
// assignment of the whole field in the package stores that one client: a
// constructor's c.client = &retryablehttp.Client{...} or
// retryablehttp.NewClient(), directly or through a local variable, or a
// composite literal's field. Nil otherwise.
func (r *Result) FieldClient(field *types.Var) *Scope {
	if r.flows == nil {
		return nil
	}
	return r.flows.fieldClients[field]
}

// ClientFields returns the struct fields FieldClient maps to s, in
// declaration order.
func (r *Result) ClientFields(s *Scope) []*types.Var {
	if r.flows == nil {
		return nil
	}
	var out []*types.Var
	for f, fs := range r.flows.fieldClients {
		if fs == s {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pos() < out[j].Pos() })
	return out
}

// indexFlows fills the Result's flows from the package's function
// declarations.
func (m *model) indexFlows() {
	f := &flows{args: make(map[*types.Var][]Arg), fieldClients: make(map[*types.Var]*Scope)}
	conflict := make(map[*types.Var]bool)
	store := func(di *defIndex, field *types.Var, rhs ast.Expr) {
		if field == nil || !field.IsField() || conflict[field] {
			return
		}
		if tv, ok := m.info.Types[rhs]; ok && tv.IsNil() {
			return
		}
		s := m.res.Of(m.origin(di, rhs, rhs.Pos()))
		if s == nil || s.Kind != Client || (f.fieldClients[field] != nil && f.fieldClients[field] != s) {
			conflict[field] = true
			delete(f.fieldClients, field)
			return
		}
		f.fieldClients[field] = s
	}
	for _, fd := range m.funcs {
		di := m.defIndex(fd)
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				fn := typeutil.StaticCallee(m.info, n)
				if fn == nil || m.funcs[fn.Origin()] == nil {
					return true
				}
				sig := fn.Origin().Signature()
				for i, a := range n.Args {
					pi := i
					if sig.Variadic() && pi >= sig.Params().Len()-1 {
						if n.Ellipsis.IsValid() {
							continue
						}
						pi = sig.Params().Len() - 1
					}
					if pi < sig.Params().Len() {
						p := sig.Params().At(pi)
						f.args[p] = append(f.args[p], Arg{Expr: a, Func: fd, Call: n})
					}
				}
			case *ast.AssignStmt:
				if len(n.Lhs) != len(n.Rhs) {
					return true
				}
				for i, lhs := range n.Lhs {
					if sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok {
						v, _ := m.info.Uses[sel.Sel].(*types.Var)
						store(di, v, n.Rhs[i])
					}
				}
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok {
					if v, ok := m.info.Uses[id].(*types.Var); ok && v.IsField() {
						store(di, v, n.Value)
					}
				}
			}
			return true
		})
	}
	for _, as := range f.args {
		sort.Slice(as, func(i, j int) bool { return as[i].Expr.Pos() < as[j].Expr.Pos() })
	}
	m.res.flows = f
}
