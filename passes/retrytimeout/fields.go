package retrytimeout

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/flow/value"
	"github.com/idemlint/idemlint/passes/internal/names"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// Sends through a client held in a struct field of the package's own type
// (cloudflare-go's api.httpClient, go-retryablehttp's c.HTTPClient): the
// field holds what the package stores in it by default (the value flow's
// FieldStores), and the request carries its caller's context, whose
// deadline, if any, spans all the attempts: no attempt has a bound of its
// own.

// checkField returns the finding for call, in the repeated code of a retry
// in function declaration fd: a send through a field client with no
// timeout by default on the caller's context, made by call or by the
// function of the package that call calls.
func (c *checker) checkField(fd *ast.FuncDecl, call *ast.CallExpr) (finding, bool) {
	// the sends are found on the syntax; the SSA form is built only when
	// there is one to judge
	if c.isSend(call) {
		if c.values() == nil || c.vf.P.Func(fd) == nil {
			return finding{}, false
		}
		return c.fieldSend(c.vf.P.Func(fd), call, nil, nil)
	}
	fn := astq.Callee(c.info, call)
	if fn == nil || fn.Pkg() != c.pass.Pkg {
		return finding{}, false
	}
	decl := c.decl(fn.Origin())
	if decl == nil || decl.Body == nil || c.retries(decl) {
		return finding{}, false
	}
	var sends []*ast.CallExpr
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if send, ok := n.(*ast.CallExpr); ok && c.isSend(send) {
			sends = append(sends, send)
		}
		return true
	})
	if len(sends) == 0 || c.values() == nil || c.vf.P.Func(fd) == nil {
		return finding{}, false
	}
	site, _ := c.vf.P.CallOf(call).(*ssa.Call)
	if site == nil {
		return finding{}, false
	}
	for _, send := range sends {
		if out, ok := c.fieldSend(c.vf.P.Func(fd), send, fn, site); ok {
			return out, true
		}
	}
	return finding{}, false
}

// isSend reports whether call is a (*http.Client).Do, Get, Head, Post or
// PostForm.
func (c *checker) isSend(call *ast.CallExpr) bool {
	fn := astq.Callee(c.info, call)
	return fn != nil && clientSends[fn.FullName()]
}

// fieldSend returns the finding for call, made in the retry's function or
// in a function of the package it calls, when call is a
// (*http.Client).Do, Get, Head, Post or PostForm through a field client
// with no timeout by default, and a Do's request has no deadline of its
// own; via is the function of the package the retry calls to make it, at
// site, or nil.
func (c *checker) fieldSend(retry *ssa.Function, call *ast.CallExpr, via *types.Func, site *ssa.Call) (finding, bool) {
	if !c.isSend(call) {
		return finding{}, false
	}
	fn := astq.Callee(c.info, call)
	field, cl, ok := c.fieldClient(c.vf.Recv(call))
	if !ok {
		return finding{}, false
	}
	if fn.Name() == "Do" {
		if len(call.Args) != 1 {
			return finding{}, false
		}
		req := c.argValue(call, 0)
		if _, ok := c.requestRoot(req); !ok && !c.fromCaller(retry, site, req) {
			return finding{}, false
		}
	}
	what := names.Of(fn)
	var related []analysis.RelatedInformation
	if via != nil {
		what = names.Of(via)
		related = append(related, analysis.RelatedInformation{Pos: call.Pos(), End: call.Fun.End(), Message: "the send: " + names.Of(fn)})
	}
	msg := what + " in a retry can hang: field " + field.Name() + " has no Timeout by default; set one"
	return finding{msg: msg, related: append(clientRelated(cl.pos, cl.end, cl.desc+", the default of field "+field.Name()), related...)}, true
}

// fieldClient reports whether the *http.Client v reads a field of a
// struct type of the package (fieldHolds), or falls back from one to a
// client proven to have no timeout (hc := c.hc; if hc == nil { hc =
// http.DefaultClient }): every origin of v is a read of the one field or
// such a client. It returns the field and one client it holds by default.
func (c *checker) fieldClient(v ssa.Value) (*types.Var, client, bool) {
	if v == nil {
		return nil, client{}, false
	}
	q := &value.Query{Stop: func(v ssa.Value) bool { return c.clientFieldRead(v) != nil || isDefaultClientLoad(v) }}
	origins := c.vf.Origins(v, q)
	if q.Exhausted {
		return nil, client{}, false
	}
	var field *types.Var
	var first client
	for _, o := range origins {
		if plainCell(o) {
			continue
		}
		if fv := c.clientFieldRead(o); fv != nil {
			cl, n, ok := c.fieldHolds(fv)
			if !ok || (field != nil && field != fv) {
				return nil, client{}, false
			}
			field = fv
			if n > 0 && first.desc == "" {
				first = cl
			}
			continue
		}
		cl, ok := c.clientOrigin(o, keep{})
		if !ok {
			return nil, client{}, false
		}
		if first.desc == "" {
			first = cl
		}
	}
	return field, first, field != nil && first.desc != ""
}

// clientFieldRead returns the field v reads, when v reads an *http.Client
// field of a struct type of the package (x.hc through a pointer or of a
// struct value); nil otherwise.
func (c *checker) clientFieldRead(v ssa.Value) *types.Var {
	var fv *types.Var
	switch v := v.(type) {
	case *ssa.UnOp:
		if fa, ok := v.X.(*ssa.FieldAddr); ok && v.Op == token.MUL {
			fv = value.FieldVar(fa.X.Type(), fa.Field)
		}
	case *ssa.Field:
		fv = value.FieldVar(v.X.Type(), v.Field)
	}
	if fv == nil || fv.Pkg() != c.pass.Pkg || !isClient(fv.Type()) {
		return nil
	}
	return fv
}

// fieldHolds reports whether every value the package's non-test code
// stores in field v (but nil and the parameters a function passes on: a
// client option's WithHTTPClient(hc), a constructor's argument) is a
// client proven to have no timeout, which the package never gives a
// Timeout or a Transport nor passes to a function, wherever it is read
// from the field (keepsNoTimeout through the field's loads); it returns the first
// such value and how many there are.
func (c *checker) fieldHolds(v *types.Var) (client, int, bool) {
	if h, ok := c.holds[v]; ok {
		return h.first, h.n, h.ok
	}
	if c.holds == nil {
		c.holds = make(map[*types.Var]held)
	}
	c.holds[v] = held{} // in progress: not held
	if c.vf.FieldAddressed(v) {
		return client{}, 0, false // stored through its address, unseen
	}
	h := held{ok: true}
	for _, st := range c.vf.FieldStores(v) {
		if astq.InTestFile(c.pass.Fset, st.Pos()) {
			continue
		}
		if st.Parent().Synthetic != "" {
			h = held{} // a store at package level
			break
		}
		if k, ok := st.Val.(*ssa.Const); ok && k.IsNil() {
			continue
		}
		if c.fromParams(st.Val) {
			continue
		}
		cl, ok := c.clientOrigins(st.Val, keep{field: v, across: true})
		if !ok {
			h = held{}
			break
		}
		if h.n == 0 {
			h.first = cl
		}
		h.n++
	}
	c.holds[v] = h
	return h.first, h.n, h.ok
}

// A held is what fieldHolds found of a field.
type held struct {
	first client
	n     int
	ok    bool
}

// fromParams reports whether every origin of v, in its function, is a
// parameter of it or of a closure it is in: a value its callers choose.
func (c *checker) fromParams(v ssa.Value) bool {
	q := &value.Query{}
	origins := c.vf.Origins(v, q)
	n := 0
	for _, o := range origins {
		if plainCell(o) {
			continue
		}
		if _, ok := o.(*ssa.Parameter); !ok {
			return false
		}
		n++
	}
	return n > 0 && !q.Exhausted
}

// fromCaller reports whether the request or context v is the one the
// caller of the retry's function passes: every origin a parameter of that
// function (not a function literal's, such as the per-attempt context a
// retry library passes), reached through variables, copies of the request
// (*req), its Request field (go-retryablehttp's req.Request, every value
// the package stores there the caller's too), http.NewRequestWithContext,
// WithContext or Clone with such a context, and the functions of the
// package, their results read as what they return and their parameters
// as what the call read passes (site, the retry's call of the function
// read, when not nil), or else every call of the package.
func (c *checker) fromCaller(retry *ssa.Function, site *ssa.Call, v ssa.Value) bool {
	if v == nil {
		return false
	}
	q := &value.Query{
		Interproc: true,
		Through: func(call *ssa.Call) []ssa.Value {
			if fn := value.Callee(call); fn != nil && carriesContext(fn) {
				if a := args(call); len(a) > 0 {
					return a[:1]
				}
			}
			return nil
		},
		Stop: func(v ssa.Value) bool {
			p, ok := v.(*ssa.Parameter)
			return ok && p.Parent() == retry
		},
	}
	if site != nil {
		q.Calls = []*ssa.Call{site}
	}
	callers := 0
	var judge func(v ssa.Value) bool
	judge = func(v ssa.Value) bool {
		for _, o := range c.vf.Origins(v, q) {
			if plainCell(o) {
				continue
			}
			switch o := o.(type) {
			case *ssa.Parameter:
				if o.Parent() == retry {
					callers++
					continue
				}
				if len(c.vf.Sites(o.Parent())) == 0 && (site == nil || site.Call.StaticCallee() != o.Parent()) {
					return false // its arguments are not seen
				}
			case *ssa.Call:
				fn := value.Callee(o)
				if fn == nil {
					return false
				}
				if carriesContext(fn) {
					if len(args(o)) == 0 {
						return false
					}
					continue
				}
				if callee := o.Call.StaticCallee(); callee == nil || callee.Pkg != c.vf.P.SSA {
					return false
				}
			case *ssa.FieldAddr:
				fv := value.FieldVar(o.X.Type(), o.Field)
				if fv == nil || !isRequest(fv.Type()) || !judge(o.X) {
					return false
				}
			case *ssa.Field:
				fv := value.FieldVar(o.X.Type(), o.Field)
				if fv == nil || !isRequest(fv.Type()) || !judge(o.X) {
					return false
				}
			case *ssa.UnOp:
				if o.Op != token.MUL || !judge(o) {
					return false
				}
			case *ssa.Alloc:
				if !requestType(o.Type()) || !wholeStores(o) {
					return false
				}
			default:
				return false
			}
		}
		return !q.Exhausted
	}
	return judge(v) && callers > 0
}

// carriesContext reports whether fn makes a request carrying the context
// it is given: http.NewRequestWithContext, (*http.Request).WithContext and
// Clone, and go-retryablehttp's.
func carriesContext(fn *types.Func) bool {
	switch httpName(fn) {
	case "net/http.NewRequestWithContext", "(*net/http.Request).WithContext", "(*net/http.Request).Clone":
		return true
	}
	return false
}

// requestType reports whether t is net/http's or go-retryablehttp's
// Request.
func requestType(t types.Type) bool {
	tn := astq.NamedOf(t)
	return tn != nil && tn.Name() == "Request" && (tn.Pkg().Path() == "net/http" || retryscope.HTTPMirrorPath(tn.Pkg().Path()))
}

func isRequest(t types.Type) bool {
	return astq.IsNamed(t, "net/http", "Request")
}

// decl returns the declaration of fn, a function of the package, or nil.
func (c *checker) decl(fn *types.Func) *ast.FuncDecl {
	if c.decls == nil {
		c.decls = make(map[*types.Func]*ast.FuncDecl)
		for _, file := range c.pass.Files {
			for _, d := range file.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					if f, ok := c.info.Defs[fd.Name].(*types.Func); ok {
						c.decls[f] = fd
					}
				}
			}
		}
	}
	return c.decls[fn]
}

// retries reports whether fd holds a retry of its own, whose sends are
// read there.
func (c *checker) retries(fd *ast.FuncDecl) bool {
	for _, s := range c.res.Scopes() {
		if s.Body != nil && fd.Pos() <= s.Node.Pos() && s.Node.Pos() < fd.End() {
			return true
		}
	}
	return false
}
