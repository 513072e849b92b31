package retrytimeout

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// cleanhttp's DefaultClient and DefaultPooledClient return clients with
// no Timeout.
const cleanhttp = "github.com/hashicorp/go-cleanhttp"

// maxDepth bounds the tracing of values through variables.
const maxDepth = 8

// flow reads where the local variables of one function declaration (its
// closures included) get their values and whether they escape, through
// the model's def index (the suite's one value flow, retryscope.DefIndex).
type flow struct {
	c  *checker
	di *retryscope.DefIndex
}

func newFlow(c *checker, fd *ast.FuncDecl) *flow {
	return &flow{c: c, di: c.res.Defs(fd)}
}

// local reports whether o is a variable of the function, not a parameter,
// that the flow knows all the values of.
func (f *flow) local(o types.Object) bool {
	return retryscope.Local(o) && !retryscope.IsParam(o) && len(f.di.Of(o)) > 0
}

// sets reports whether the function stores the field on o.
func (f *flow) sets(o types.Object, field string) bool {
	return slices.ContainsFunc(f.di.FieldSets(o), func(fs retryscope.FieldSet) bool { return fs.Field() == field })
}

// clientWithoutTimeout reports whether the *http.Client (or http.Client)
// e is proven to have a zero Timeout and the default transport, and
// describes it.
func (f *flow) clientWithoutTimeout(e ast.Expr, depth int) (client, bool) {
	if depth > maxDepth {
		return client{}, false
	}
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		if lit, ok := ast.Unparen(u.X).(*ast.CompositeLit); ok {
			return f.clientLit(lit, u, "&")
		}
		e = ast.Unparen(u.X)
	}
	if f.c.isDefaultClient(e) {
		return client{desc: "http.DefaultClient"}, !f.c.defaultSet
	}
	switch e := e.(type) {
	case *ast.CompositeLit:
		return f.clientLit(e, e, "")
	case *ast.CallExpr:
		if fn := astq.Callee(f.c.info, e); fn != nil {
			switch fn.FullName() {
			case cleanhttp + ".DefaultClient", cleanhttp + ".DefaultPooledClient":
				return client{desc: "cleanhttp." + fn.Name() + "()", pos: e.Pos(), end: e.End()}, true
			}
		}
		if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok && id.Name == "new" && len(e.Args) == 1 {
			if _, ok := f.c.info.Uses[id].(*types.Builtin); ok && isClient(f.c.info.TypeOf(e.Args[0])) {
				return client{desc: "new(http.Client)", pos: e.Pos(), end: e.End()}, true
			}
		}
	case *ast.Ident:
		o := f.c.info.Uses[e]
		if o == nil || !f.local(o) || f.di.Escapes(o) || f.sets(o, "Timeout") || f.sets(o, "Transport") {
			return client{}, false
		}
		var found client
		for _, v := range f.di.Of(o) {
			if !v.Plain() || v.Tuple() != -1 {
				return client{}, false
			}
			var c client
			if v.RHS() == nil {
				if !isClient(o.Type()) {
					return client{}, false // a nil pointer
				}
				c = client{desc: "a zero http.Client", pos: o.Pos(), end: o.Pos() + token.Pos(len(o.Name()))}
			} else {
				var ok bool
				if c, ok = f.clientWithoutTimeout(v.RHS(), depth+1); !ok {
					return client{}, false
				}
			}
			if found.desc == "" {
				found = c
			}
		}
		return found, found.desc != ""
	}
	return client{}, false
}

// A client is an http.Client proven to have no Timeout: what it is
// ("&http.Client literal without Timeout") and where it is made, when
// that is in the analysed code (pos is NoPos for http.DefaultClient).
type client struct {
	desc     string
	pos, end token.Pos
}

// clientLit reports whether an http.Client literal leaves Timeout zero and
// Transport unset.
func (f *flow) clientLit(lit *ast.CompositeLit, at ast.Expr, amp string) (client, bool) {
	if !isClient(f.c.info.TypeOf(lit)) {
		return client{}, false
	}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return client{}, false
		}
		key, _ := kv.Key.(*ast.Ident)
		if key == nil {
			return client{}, false
		}
		switch key.Name {
		case "Timeout":
			if !f.isZero(kv.Value) {
				return client{}, false
			}
		case "Transport":
			if tv, ok := f.c.info.Types[kv.Value]; !ok || !tv.IsNil() {
				return client{}, false
			}
		}
	}
	return client{desc: amp + "http.Client literal without Timeout", pos: at.Pos(), end: at.End()}, true
}

func (f *flow) isZero(e ast.Expr) bool {
	tv, ok := f.c.info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Int && constant.Sign(tv.Value) == 0
}

func isClient(t types.Type) bool {
	if t == nil {
		return false
	}
	tn := astq.NamedOf(t)
	return tn != nil && tn.Pkg().Path() == "net/http" && tn.Name() == "Client"
}

// requestWithoutDeadline reports whether the *http.Request e is proven to
// carry a context with no deadline, and describes that context.
func (f *flow) requestWithoutDeadline(e ast.Expr, depth int) (string, bool) {
	if depth > maxDepth {
		return "", false
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return f.each(e, depth, 0, f.requestWithoutDeadline)
	case *ast.CallExpr:
		fn := astq.Callee(f.c.info, e)
		if fn == nil {
			return "", false
		}
		switch httpName(fn) { // go-retryablehttp's are as net/http's
		case "net/http.NewRequest":
			return "context.Background() of " + fn.Pkg().Name() + ".NewRequest", true
		case "net/http.FromRequest": // go-retryablehttp's wrapper of an *http.Request
			if len(e.Args) == 1 {
				return f.requestWithoutDeadline(e.Args[0], depth+1)
			}
		case "net/http.NewRequestWithContext":
			if len(e.Args) > 0 {
				return f.contextWithoutDeadline(e.Args[0], depth+1)
			}
		case "(*net/http.Request).WithContext", "(*net/http.Request).Clone":
			if len(e.Args) == 1 {
				return f.contextWithoutDeadline(e.Args[0], depth+1)
			}
		}
	}
	return "", false
}

// each applies check to every value of the local variable id, which must
// be result number want of a tuple (0 here for requests and contexts) or a
// plain value; all must pass.
func (f *flow) each(id *ast.Ident, depth, want int, check func(ast.Expr, int) (string, bool)) (string, bool) {
	o := f.c.info.Uses[id]
	if o == nil || !f.local(o) {
		return "", false
	}
	desc := ""
	for _, v := range f.di.Of(o) {
		if !v.Plain() || v.RHS() == nil || (v.Tuple() != -1 && v.Tuple() != want) {
			return "", false
		}
		d, ok := check(v.RHS(), depth+1)
		if !ok {
			return "", false
		}
		if desc == "" {
			desc = d
		}
	}
	return desc, desc != ""
}

// contextWithoutDeadline reports whether the context e is proven to have
// no deadline: context.Background() or TODO(), or derived from them
// without WithTimeout or WithDeadline.
func (f *flow) contextWithoutDeadline(e ast.Expr, depth int) (string, bool) {
	return f.contextRoot(e, depth, deadlineless)
}

// contextRoots says, of a context function by full name, whether a context
// it returns is a root that the trace ends at (rootCtx) or is traced
// through its first argument (throughCtx).
type contextRoots map[string]uint8

const (
	rootCtx uint8 = iota + 1
	throughCtx
)

// deadlineless: the contexts with no deadline.
var deadlineless = contextRoots{
	"context.Background": rootCtx, "context.TODO": rootCtx, "context.WithoutCancel": rootCtx,
	"context.WithCancel": throughCtx, "context.WithCancelCause": throughCtx, "context.WithValue": throughCtx,
}

// contextRoot traces the context e through local variables and the
// derivations roots lets through to one of its roots, and names the root.
func (f *flow) contextRoot(e ast.Expr, depth int, roots contextRoots) (string, bool) {
	if depth > maxDepth {
		return "", false
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return f.each(e, depth, 0, func(e ast.Expr, depth int) (string, bool) { return f.contextRoot(e, depth, roots) })
	case *ast.CallExpr:
		fn := astq.Callee(f.c.info, e)
		if fn == nil {
			return "", false
		}
		switch roots[fn.FullName()] {
		case rootCtx:
			if len(e.Args) == 0 {
				return fn.FullName() + "()", true
			}
			return fn.FullName(), true
		case throughCtx:
			if len(e.Args) > 0 {
				return f.contextRoot(e.Args[0], depth+1, roots)
			}
		}
	}
	return "", false
}

// retryableWithoutTimeout reports whether the *retryablehttp.Client e is
// proven to be a NewClient() that retries and whose HTTPClient keeps the
// default, which has no Timeout, and returns the NewClient call (nil when
// the variable is only declared).
func (f *flow) retryableWithoutTimeout(e ast.Expr) (*ast.CallExpr, bool) {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil, false
	}
	o := f.c.info.Uses[id]
	if o == nil || !f.local(o) || f.di.Escapes(o) || f.sets(o, "HTTPClient") {
		return nil, false
	}
	for _, fs := range f.di.FieldSets(o) {
		if fs.Field() != "RetryMax" {
			continue
		}
		if tv, ok := f.c.info.Types[fs.RHS()]; !ok || tv.Value == nil || constant.Sign(tv.Value) <= 0 {
			return nil, false // no retries, or a count the check cannot see
		}
	}
	// rc.HTTPClient.Timeout = d: a timeout, unless every such store copies
	// the Timeout of a client proven to have none
	if fd := f.c.declAt(id.Pos()); fd != nil {
		copies, _, ok := f.c.httpClientUses(fd, o)
		if !ok || len(copies) > 0 && f.c.timeoutStored(copies) {
			return nil, false
		}
		for _, as := range copies {
			x, ok := f.c.timeoutOf(as.Rhs[0])
			if !ok {
				return nil, false
			}
			if _, ok := f.c.zeroTimeout(fd, x, 0); !ok {
				return nil, false
			}
		}
	}
	var made *ast.CallExpr
	for _, v := range f.di.Of(o) {
		call, ok := ast.Unparen(v.RHS()).(*ast.CallExpr)
		if !ok || !v.Plain() || v.Tuple() != -1 {
			return nil, false
		}
		if fn := astq.Callee(f.c.info, call); fn == nil || httpName(fn) != "net/http.NewClient" {
			return nil, false
		}
		if made == nil {
			made = call
		}
	}
	return made, true
}
