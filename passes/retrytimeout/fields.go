package retrytimeout

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/names"
)

// Sends through a client held in a struct field of the package's own type
// (cloudflare-go's api.httpClient, go-retryablehttp's c.HTTPClient): the
// field holds what the package stores in it by default (the model's
// FieldValues), and the request carries its caller's context, whose
// deadline, if any, spans all the attempts: no attempt has a bound of its
// own.

// A frame is a function whose code a send is read in: the retry's own
// function declaration (call nil), or a function of the package that its
// repeated code calls.
type frame struct {
	fd   *ast.FuncDecl
	f    *flow
	call *ast.CallExpr // the call entering fd, read in up
	up   *frame
}

// checkField returns the finding for call, in the repeated code of a retry
// in function declaration fd: a send through a field client with no
// timeout by default on the caller's context, made by call or by the
// function of the package that call calls.
func (c *checker) checkField(fd *ast.FuncDecl, call *ast.CallExpr) (finding, bool) {
	fr := &frame{fd: fd, f: c.flowAt(fd.Pos())}
	if fr.f == nil {
		return finding{}, false
	}
	if f, ok := c.fieldSend(fr, call, nil); ok {
		return f, true
	}
	fn := astq.Callee(c.info, call)
	if fn == nil || fn.Pkg() != c.pass.Pkg {
		return finding{}, false
	}
	decl := c.decl(fn.Origin())
	if decl == nil || decl.Body == nil || c.retries(decl) {
		return finding{}, false
	}
	in := &frame{fd: decl, f: c.flowAt(decl.Pos()), call: call, up: fr}
	var out finding
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok || found {
			return false
		}
		if send, ok := n.(*ast.CallExpr); ok {
			out, found = c.fieldSend(in, send, fn)
		}
		return !found
	})
	return out, found
}

// fieldSend returns the finding for call, read in fr, when it is a
// (*http.Client).Do, Get, Head, Post or PostForm through a field client
// with no timeout by default, and a Do's request has no deadline of its
// own; via is the function of the package the retry calls to make it, or
// nil.
func (c *checker) fieldSend(fr *frame, call *ast.CallExpr, via *types.Func) (finding, bool) {
	fn := astq.Callee(c.info, call)
	if fn == nil {
		return finding{}, false
	}
	if !clientSends[fn.FullName()] {
		return finding{}, false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return finding{}, false
	}
	field, cl, ok := c.fieldClient(fr.f, sel.X, 0)
	if !ok {
		return finding{}, false
	}
	if fn.Name() == "Do" {
		if len(call.Args) != 1 {
			return finding{}, false
		}
		if _, ok := fr.f.requestWithoutDeadline(call.Args[0], 0); !ok && !c.fromCaller(fr, call.Args[0], 0) {
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

// fieldClient reports whether the *http.Client e is a field of a struct
// type of the package (fieldHolds), or a local copy of one that falls
// back to a client proven to have no timeout (hc := c.hc; if hc == nil {
// hc = http.DefaultClient }); it returns the field and one client it
// holds by default.
func (c *checker) fieldClient(f *flow, e ast.Expr, depth int) (*types.Var, client, bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		v, cl, n := c.fieldHolds(e)
		return v, cl, v != nil && n > 0
	case *ast.Ident:
		o := c.info.Uses[e]
		if o == nil || !f.local(o) || f.di.Escapes(o) || f.sets(o, "Timeout") || f.sets(o, "Transport") {
			return nil, client{}, false
		}
		var field *types.Var
		var first client
		for _, d := range f.di.Of(o) {
			if !d.Plain() || d.Tuple() != -1 || d.RHS() == nil {
				return nil, client{}, false
			}
			if sel, ok := ast.Unparen(d.RHS()).(*ast.SelectorExpr); ok && c.info.Selections[sel] != nil {
				v, cl, n := c.fieldHolds(sel)
				if v == nil || (field != nil && field != v) {
					return nil, client{}, false
				}
				field = v
				if n > 0 && first.desc == "" {
					first = cl
				}
				continue
			}
			cl, ok := f.clientWithoutTimeout(d.RHS(), depth+1)
			if !ok {
				return nil, client{}, false
			}
			if first.desc == "" {
				first = cl
			}
		}
		return field, first, field != nil && first.desc != ""
	}
	return nil, client{}, false
}

// fieldHolds returns the field e reads when it is an *http.Client field
// of a struct type of the package whose every value the package's code
// stores (the model's FieldValues: but nil and parameters passed on) is
// a client proven to have no timeout, and which the package never gives
// a Timeout or a Transport nor passes to a function; the first such
// value and how many there are. A nil field when it is not.
func (c *checker) fieldHolds(e *ast.SelectorExpr) (*types.Var, client, int) {
	s, ok := c.info.Selections[e]
	if !ok || s.Kind() != types.FieldVal {
		return nil, client{}, 0
	}
	v, _ := s.Obj().(*types.Var)
	if v == nil || v.Pkg() != c.pass.Pkg || !isClient(v.Type()) {
		return nil, client{}, 0
	}
	vals, ok := c.res.FieldValues(v)
	if !ok || c.res.FieldReach(v, "Timeout", "Transport") || c.res.FieldPassed(v) {
		return nil, client{}, 0
	}
	var first client
	for i, val := range vals {
		vf := c.flowAt(val.Value.Pos())
		if vf == nil {
			return nil, client{}, 0
		}
		cl, ok := vf.clientWithoutTimeout(val.Value, 0)
		if !ok {
			return nil, client{}, 0
		}
		if i == 0 {
			first = cl
		}
	}
	return v, first, len(vals)
}

// fromCaller reports whether e, a request or a context read in fr, is the
// one the caller of the retry's function passes: a parameter of that
// function declaration, never assigned (a function literal's, such as the
// per-attempt context a retry library passes, is not), reached through
// local variables, copies of the request (*req), its Request field
// (go-retryablehttp's req.Request), http.NewRequestWithContext,
// WithContext or Clone with such a context, and the functions of the
// package it calls, their parameters read as the arguments passed.
func (c *checker) fromCaller(fr *frame, e ast.Expr, depth int) bool {
	if depth > maxDepth || fr.f == nil {
		return false
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		o, _ := c.info.Uses[e].(*types.Var)
		if o == nil {
			return false
		}
		if i := paramIndex(c.info, fr.fd, o); i >= 0 {
			if len(fr.f.di.Of(o)) > 0 {
				return false // reassigned
			}
			if fr.up == nil {
				return true
			}
			sig, ok := c.info.TypeOf(fr.call.Fun).Underlying().(*types.Signature)
			if !ok || i >= len(fr.call.Args) || (sig.Variadic() && i >= sig.Params().Len()-1) {
				return false
			}
			return c.fromCaller(fr.up, fr.call.Args[i], depth+1)
		}
		if !fr.f.local(o) {
			return false
		}
		for _, d := range fr.f.di.Of(o) {
			if !d.Plain() || d.RHS() == nil || d.Tuple() > 0 || !c.fromCaller(fr, d.RHS(), depth+1) {
				return false
			}
		}
		return true
	case *ast.StarExpr:
		return c.fromCaller(fr, e.X, depth+1) // a copy of the request: its context
	case *ast.UnaryExpr:
		return e.Op == token.AND && c.fromCaller(fr, e.X, depth+1)
	case *ast.SelectorExpr:
		if !isRequest(c.info.TypeOf(e)) {
			return false
		}
		if id, ok := ast.Unparen(e.X).(*ast.Ident); ok {
			// the function may store into the field: each value stored
			// must be the caller's too, the field taken to hold the
			// caller's request meanwhile (httpreq := *req.Request;
			// req.Request = &httpreq: a copy, its context the same)
			if o := c.info.Uses[id]; o != nil && !c.assumed[o] {
				if c.assumed == nil {
					c.assumed = make(map[types.Object]bool)
				}
				c.assumed[o] = true
				defer delete(c.assumed, o)
				for _, fs := range fr.f.di.FieldSets(o) {
					if fs.Field() == e.Sel.Name && (fs.RHS() == nil || !c.fromCaller(fr, fs.RHS(), depth+1)) {
						return false
					}
				}
			} else if o != nil {
				return true // the value assumed: the caller's
			}
		}
		return c.fromCaller(fr, e.X, depth+1)
	case *ast.CallExpr:
		fn := astq.Callee(c.info, e)
		if fn == nil {
			return false
		}
		switch httpName(fn) {
		case "net/http.NewRequestWithContext", "(*net/http.Request).WithContext", "(*net/http.Request).Clone":
			return len(e.Args) > 0 && c.fromCaller(fr, e.Args[0], depth+1)
		}
		if fn.Pkg() != c.pass.Pkg {
			return false
		}
		decl := c.decl(fn.Origin())
		if decl == nil || decl.Body == nil {
			return false
		}
		in := &frame{fd: decl, f: c.flowAt(decl.Pos()), call: e, up: fr}
		rets := 0
		ok := true
		ast.Inspect(decl.Body, func(n ast.Node) bool {
			if _, lit := n.(*ast.FuncLit); lit || !ok {
				return false
			}
			if ret, isRet := n.(*ast.ReturnStmt); isRet {
				rets++
				ok = len(ret.Results) > 0 && c.fromCaller(in, ret.Results[0], depth+1)
			}
			return ok
		})
		return ok && rets > 0
	}
	return false
}

// paramIndex returns the index of o among the parameters of fd (not its
// receiver), or -1.
func paramIndex(info *types.Info, fd *ast.FuncDecl, o *types.Var) int {
	fn, _ := info.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return -1
	}
	ps := fn.Signature().Params()
	for i := range ps.Len() {
		if ps.At(i) == o {
			return i
		}
	}
	return -1
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
