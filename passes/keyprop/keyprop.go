package keyprop

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/internal/suppress"
	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/check"
	"github.com/idemlint/idemlint/passes/internal/keys"
	"github.com/idemlint/idemlint/passes/internal/names"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// Name is the check's name.
const Name = "keyprop"

// Config configures the check.
type Config struct {
	// Scope is the retry model pass to read; nil means retryscope.Analyzer.
	Scope *analysis.Analyzer
	// KeyHeaders are extra request headers that carry an idempotency key.
	KeyHeaders []string
	// KeyFields are extra struct fields that carry an idempotency key.
	KeyFields []string
}

// Analyzer is the check with the default configuration.
var Analyzer = New(&Config{})

// New returns the check for cfg.
func New(cfg *Config) *analysis.Analyzer {
	a := check.New(check.Spec{Name: Name, Doc: Documentation.AnalyzerDoc(), Scope: cfg.Scope,
		Run: func(pass *analysis.Pass, res *retryscope.Result) {
			run(pass, res, keys.NewNames(cfg.KeyHeaders, cfg.KeyFields))
		}})
	check.KeyFlags(a, &cfg.KeyHeaders, &cfg.KeyFields)
	return a
}

// handler is one function that has an incoming idempotency key.
type handler struct {
	c    *checker
	body *ast.BlockStmt
	// keyVars are the variables of body that hold the incoming key or a
	// value computed from it.
	keyVars map[*types.Var]bool
	// name is how the message names the incoming key: the variable it is
	// read into, or the expression that reads it.
	name string
	// funcs are the functions (the declaration, or a function literal in
	// it) that read the key: only their calls, and those of the literals
	// in them, are downstream calls of the key (a test server's handler
	// that reads the header does not key its test's requests).
	funcs []ast.Node
}

type checker struct {
	pass  *analysis.Pass
	info  *types.Info
	res   *retryscope.Result
	names *keys.Names
	// built are the variables the package assigns a value to: a request
	// among them is made here, an outgoing one.
	built map[*types.Var]bool
}

func run(pass *analysis.Pass, res *retryscope.Result, names *keys.Names) {
	c := &checker{pass: pass, info: pass.TypesInfo, res: res, names: names, built: make(map[*types.Var]bool)}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok {
				for _, l := range as.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						if v, ok := c.info.ObjectOf(id).(*types.Var); ok {
							c.built[v] = true
						}
					}
				}
			}
			if vs, ok := n.(*ast.ValueSpec); ok && len(vs.Values) > 0 {
				for _, id := range vs.Names {
					if v, ok := c.info.Defs[id].(*types.Var); ok {
						c.built[v] = true
					}
				}
			}
			return true
		})
	}
	for _, f := range pass.Files {
		if ast.IsGenerated(f) {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if h := c.handler(fd.Body); h != nil {
					h.check()
				}
			}
		}
	}
}

func (c *checker) callee(call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(c.info, call).(*types.Func)
	return fn
}

// source reports whether call reads the incoming key: the Idempotency-Key
// header of a request (Header.Get), the runtime Middleware's lease
// (idempotency.LeaseOf) or a step's key (idempotency.StepKey).
func (c *checker) source(call *ast.CallExpr) bool {
	fn := c.callee(call)
	if fn == nil {
		return false
	}
	if keys.Incoming(fn) {
		return true
	}
	switch fn.FullName() {
	case "(net/http.Header).Get", "(net/http.Header).Values":
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || len(call.Args) != 1 {
			return false
		}
		name, ok := astq.StringConst(c.info, call.Args[0])
		if !ok || !c.names.Header(name) {
			return false
		}
		// the incoming request's header: a request the function receives,
		// not one it builds (nor a response)
		r := keys.RequestOf(c.info, sel.X)
		return r != nil && astq.IsNamed(r.Type(), "net/http", "Request") && !c.built[r]
	}
	return false
}

// handler returns the handler of body when body reads an incoming key.
func (c *checker) handler(body *ast.BlockStmt) *handler {
	h := &handler{c: c, body: body, keyVars: make(map[*types.Var]bool)}
	stack := []ast.Node{body}
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if call, ok := n.(*ast.CallExpr); ok && c.source(call) {
			fn := ast.Node(body)
			for i := len(stack) - 1; i >= 0; i-- {
				if lit, ok := stack[i].(*ast.FuncLit); ok {
					fn = lit
					break
				}
			}
			h.funcs = append(h.funcs, fn)
			if h.name == "" {
				h.name = types.ExprString(call)
			}
		}
		return true
	})
	if len(h.funcs) == 0 {
		return nil
	}
	// The variables assigned from the key, to a fixed point.
	named := false
	for changed := true; changed; {
		changed = false
		ast.Inspect(body, func(n ast.Node) bool {
			var lhs []ast.Expr
			var rhs []ast.Expr
			switch n := n.(type) {
			case *ast.AssignStmt:
				lhs, rhs = n.Lhs, n.Rhs
			case *ast.ValueSpec:
				for _, id := range n.Names {
					lhs = append(lhs, id)
				}
				rhs = n.Values
			default:
				return true
			}
			for i, l := range lhs {
				id, ok := l.(*ast.Ident)
				if !ok {
					continue
				}
				v, _ := c.info.ObjectOf(id).(*types.Var)
				if v == nil || h.keyVars[v] {
					continue
				}
				var r ast.Expr
				if len(lhs) == len(rhs) {
					r = rhs[i]
				} else if len(rhs) == 1 && i == 0 {
					r = rhs[0] // key, err := ParseKey(...); lease, ok := LeaseOf(ctx)
				}
				if r != nil && h.fromKey(r) {
					h.keyVars[v] = true
					changed = true
					if call, ok := ast.Unparen(r).(*ast.CallExpr); ok && !named && c.source(call) {
						h.name, named = v.Name(), true
						if fn := c.callee(call); fn != nil && fn.Name() == "LeaseOf" {
							h.name = v.Name() + ".Key"
						}
					}
				}
			}
			return true
		})
	}
	return h
}

// fromKey reports whether e is computed from the incoming key: it reads
// it, or uses a variable that holds it.
func (h *handler) fromKey(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if h.c.source(n) {
				found = true
			}
		case *ast.Ident:
			if v, ok := h.c.info.Uses[n].(*types.Var); ok && h.keyVars[v] {
				found = true
			}
		}
		return !found
	})
	return found
}

// fresh reports whether e is a new value on every call: a key generator's
// result, or a variable of the handler assigned from one.
func (h *handler) fresh(e ast.Expr, depth int) bool {
	if depth > 3 {
		return false
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if fn := h.c.callee(n); fn != nil && keys.Fresh(fn) {
				found = true
			}
		case *ast.Ident:
			if v, ok := h.c.info.Uses[n].(*types.Var); ok && !v.IsField() {
				for _, rhs := range astq.Assignments(h.c.info, h.body, v) {
					if rhs != e && h.fresh(rhs, depth+1) {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}

// check reports the handler's downstream calls that carry no key or a
// fresh one.
func (h *handler) check() {
	ast.Inspect(h.body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if !h.reads(call.Pos()) {
			return true
		}
		if s := h.c.res.Innermost(call.Pos()); s != nil {
			// Inside a retry, a job handler or a consumer: unkeyedpost,
			// keyinloop and jobretry report its unkeyed and fresh keys.
			return true
		}
		if send := retryscope.NonIdempotentSend(h.c.info, h.body, call); send != nil {
			var vals []ast.Expr
			if send.Req != nil {
				vals = h.headerKeys(send.Req)
			}
			what := send.Method
			if fn := h.c.callee(call); fn != nil {
				what += " through " + names.Of(fn)
			}
			h.verdict(call, what, vals)
			return true
		}
		if fn := h.c.callee(call); fn != nil && stripeCreate(fn) && len(call.Args) > 0 {
			if vals, ok := h.stripeKeys(call.Args[len(call.Args)-1]); ok {
				h.verdict(call, names.Of(fn), vals)
			}
		}
		return true
	})
}

// reads reports whether pos is in a function that reads the key.
func (h *handler) reads(pos token.Pos) bool {
	for _, fn := range h.funcs {
		if fn.Pos() <= pos && pos < fn.End() {
			return true
		}
	}
	return false
}

// verdict reports the call what when its key values vals are none or all
// fresh; a value computed from the incoming key, or one the check cannot
// see into, is fine.
func (h *handler) verdict(call *ast.CallExpr, what string, vals []ast.Expr) {
	var msg string
	switch {
	case len(vals) == 0:
		msg = fmt.Sprintf("%s sends no idempotency key; send idempotency.Derive(%s, step)", what, h.name)
	default:
		for _, v := range vals {
			if h.fromKey(v) || !h.fresh(v, 0) {
				return
			}
		}
		msg = fmt.Sprintf("%s sends a fresh idempotency key; send idempotency.Derive(%s, step)", what, h.name)
	}
	suppress.Report(h.c.pass, Name, analysis.Diagnostic{Pos: call.Pos(), End: call.End(), Message: msg})
}

// headerKeys returns the values the handler writes into req's key headers
// (a write of a header whose name is not constant counts as a key the
// check cannot see into).
func (h *handler) headerKeys(req *types.Var) []ast.Expr {
	var out []ast.Expr
	ast.Inspect(h.body, func(n ast.Node) bool {
		for _, w := range keys.Writes(h.c.info, n) {
			if r := keys.RequestOf(h.c.info, w.Header); r != nil && r != req {
				continue
			}
			if !w.Const || h.c.names.Header(w.Name) {
				out = append(out, w.Value)
			}
		}
		return true
	})
	return out
}

// stripeCreate reports whether fn is a stripe-go call that creates or
// moves money: New, Capture or Confirm of a resource package.
func stripeCreate(fn *types.Func) bool {
	if !keys.KeyedAPI(fn) {
		return false
	}
	switch fn.Name() {
	case "New", "Capture", "Confirm":
		return true
	}
	return false
}

// stripeKeys returns the idempotency keys set on the params e, a variable
// the handler assigns once from a literal: key fields of the literal (and
// of its embedded Params), SetIdempotencyKey calls and key field
// assignments. It reports false when the params cannot be followed.
func (h *handler) stripeKeys(e ast.Expr) ([]ast.Expr, bool) {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil, false
	}
	v, ok := h.c.info.Uses[id].(*types.Var)
	if !ok {
		return nil, false
	}
	rhs := astq.Assignments(h.c.info, h.body, v)
	if len(rhs) != 1 {
		return nil, false
	}
	u, ok := ast.Unparen(rhs[0]).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return nil, false
	}
	lit, ok := ast.Unparen(u.X).(*ast.CompositeLit)
	if !ok {
		return nil, false
	}
	var out []ast.Expr
	ast.Inspect(lit, func(n ast.Node) bool {
		if kv, ok := n.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok && h.c.names.Field(k.Name) {
				out = append(out, kv.Value)
			}
		}
		return true
	})
	ast.Inspect(h.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
			if ok && sel.Sel.Name == "SetIdempotencyKey" && len(n.Args) == 1 && rootIs(h.c.info, sel.X, v) {
				out = append(out, n.Args[0])
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
				if ok && h.c.names.Field(sel.Sel.Name) && rootIs(h.c.info, sel.X, v) && len(n.Lhs) == len(n.Rhs) {
					out = append(out, n.Rhs[i])
				}
			}
		}
		return true
	})
	return out, true
}

// rootIs reports whether e is v or a field path of v (params.Params).
func rootIs(info *types.Info, e ast.Expr, v *types.Var) bool {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return info.Uses[x] == v
		case *ast.SelectorExpr:
			e = x.X
		default:
			return false
		}
	}
}
