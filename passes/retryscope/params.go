package retryscope

import (
	"go/ast"
	"go/types"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// The values a parameter takes: part of the one value flow (defs.go), one
// step across calls. A parameter of an unexported function or method of
// the package, whose every use is the callee of a call, takes exactly the
// arguments of those calls (vault's doRenewWithOptions(..., renew renewFunc,
// ...), passed r.client.Auth().Token().RenewTokenAsSelf and
// r.client.Sys().Renew by its two callers); so does a parameter of a
// function literal called where it is written (go func(ctx
// context.Context) {...}(ctx)).

// callSites indexes the package's calls by the function they call.
type callSites struct {
	calls   map[types.Object][]*ast.CallExpr // *types.Func or the *ast.FuncLit's signature owner
	escapes map[types.Object]bool            // used other than as a callee
	lits    map[*types.Signature]*ast.CallExpr
	// names of the methods the package's interfaces declare
	ifaceNames map[string]bool
}

// ArgsOf returns the expressions passed for param at every call of its
// function, and true, when they are all of its values: the function is an
// unexported function or method of the package (test files included, as
// they may call it) used only as the callee of calls that spread no slice,
// or a function literal called where it is written. Otherwise it returns
// nil, false.
func (r *Result) ArgsOf(param *types.Var) ([]ast.Expr, bool) {
	if r.files == nil || param == nil {
		return nil, false
	}
	if r.sites == nil {
		r.sites = buildCallSites(r.info, r.files)
	}
	for sig, call := range r.sites.lits {
		if i := paramIndex(sig, param); i >= 0 {
			if i >= len(call.Args) || call.Ellipsis.IsValid() {
				return nil, false
			}
			return []ast.Expr{call.Args[i]}, true
		}
	}
	fn := r.funcOfParam(param)
	if fn == nil || fn.Exported() || fn.Pkg() != r.pkg || r.sites.escapes[fn] || fn.Signature().Recv() != nil && r.sites.ifaceNames[fn.Name()] {
		return nil, false
	}
	sig := fn.Signature()
	i := paramIndex(sig, param)
	if i < 0 || sig.Variadic() && i == sig.Params().Len()-1 {
		return nil, false
	}
	calls := r.sites.calls[fn]
	if len(calls) == 0 {
		return nil, false
	}
	var out []ast.Expr
	for _, call := range calls {
		if call.Ellipsis.IsValid() || i >= len(call.Args) {
			return nil, false
		}
		out = append(out, call.Args[i])
	}
	return out, true
}

// callsOfParam returns the package's static calls of the function whose
// parameter param is (a declared function or method, or a function
// literal called where it is written), and param's index; unlike ArgsOf
// it does not claim they are all: an exported function may be called
// from other packages too.
func (r *Result) callsOfParam(param *types.Var) ([]*ast.CallExpr, int) {
	if r.files == nil || param == nil {
		return nil, -1
	}
	if r.sites == nil {
		r.sites = buildCallSites(r.info, r.files)
	}
	for sig, call := range r.sites.lits {
		if i := paramIndex(sig, param); i >= 0 {
			return []*ast.CallExpr{call}, i
		}
	}
	fn := r.funcOfParam(param)
	if fn == nil {
		return nil, -1
	}
	sig := fn.Signature()
	i := paramIndex(sig, param)
	if i < 0 || sig.Variadic() && i == sig.Params().Len()-1 {
		return nil, -1
	}
	return r.sites.calls[fn], i
}

func paramIndex(sig *types.Signature, param *types.Var) int {
	for i := range sig.Params().Len() {
		if sig.Params().At(i) == param {
			return i
		}
	}
	return -1
}

// funcOfParam returns the declared function of the package whose
// parameter param is.
func (r *Result) funcOfParam(param *types.Var) *types.Func {
	if r.paramFunc == nil {
		r.paramFunc = make(map[*types.Var]*types.Func)
		for _, f := range r.files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok {
					continue
				}
				fn, ok := r.info.Defs[fd.Name].(*types.Func)
				if !ok {
					continue
				}
				params := fn.Signature().Params()
				for i := range params.Len() {
					r.paramFunc[params.At(i)] = fn
				}
			}
		}
	}
	return r.paramFunc[param]
}

func buildCallSites(info *types.Info, files []*ast.File) *callSites {
	cs := &callSites{calls: make(map[types.Object][]*ast.CallExpr), escapes: make(map[types.Object]bool), lits: make(map[*types.Signature]*ast.CallExpr), ifaceNames: make(map[string]bool)}
	callees := make(map[*ast.Ident]bool)
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
				if sig, ok := info.TypeOf(lit).(*types.Signature); ok {
					cs.lits[sig] = call
				}
			}
			id := astq.CalleeIdent(call)
			if id == nil {
				return true
			}
			if fn, ok := info.Uses[id].(*types.Func); ok {
				callees[id] = true
				fn = fn.Origin()
				cs.calls[fn] = append(cs.calls[fn], call)
			}
			return true
		})
	}
	// every other use of a function lets its parameters take values the
	// index does not see: a method value, a func passed or stored, an
	// interface's method of the same name
	for id, o := range info.Uses {
		if fn, ok := o.(*types.Func); ok && !callees[id] {
			cs.escapes[fn.Origin()] = true
		}
	}
	// a method of a concrete type, of the name of a method of an
	// interface of the package, may be called through the interface
	for _, o := range info.Defs {
		if fn, ok := o.(*types.Func); ok && fn.Signature().Recv() != nil {
			if types.IsInterface(fn.Signature().Recv().Type()) {
				cs.ifaceNames[fn.Name()] = true
			}
		}
	}
	return cs
}
