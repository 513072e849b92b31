package retrytimeout

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// cleanhttp's DefaultClient and DefaultPooledClient return clients with
// no Timeout.
const cleanhttp = "github.com/hashicorp/go-cleanhttp"

// maxDepth bounds the tracing of values through variables.
const maxDepth = 8

// value is one value a local variable takes: rhs, or result tuple of rhs
// when tuple >= 0. rhs is nil for a var declaration without a value.
type value struct {
	rhs   ast.Expr
	tuple int
}

// flow knows where the local variables of one function declaration (its
// closures included) get their values and how they are used.
type flow struct {
	c      *checker
	values map[types.Object][]value
	// fields lists the fields assigned on each variable: v.F = x.
	fields map[types.Object]map[string][]ast.Expr
	// escapes holds the variables whose value or address may reach code the
	// check does not see: passed to a call, assigned elsewhere, address taken.
	escapes map[types.Object]bool
	params  map[types.Object]bool
}

func newFlow(c *checker, fd *ast.FuncDecl) *flow {
	f := &flow{c: c, values: make(map[types.Object][]value), fields: make(map[types.Object]map[string][]ast.Expr),
		escapes: make(map[types.Object]bool), params: make(map[types.Object]bool)}
	info := c.info
	obj := func(e ast.Expr) types.Object {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if o := info.Defs[id]; o != nil {
				return o
			}
			return info.Uses[id]
		}
		return nil
	}
	// Parameters and results of the function and of its closures come from
	// outside.
	addParams := func(ft *ast.FuncType) {
		for _, fl := range []*ast.FieldList{ft.Params, ft.Results} {
			if fl == nil {
				continue
			}
			for _, field := range fl.List {
				for _, n := range field.Names {
					if o := info.Defs[n]; o != nil {
						f.params[o] = true
					}
				}
			}
		}
	}
	if fd.Recv != nil {
		for _, field := range fd.Recv.List {
			for _, n := range field.Names {
				if o := info.Defs[n]; o != nil {
					f.params[o] = true
				}
			}
		}
	}
	addParams(fd.Type)
	var stack []ast.Node
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		var parent ast.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		stack = append(stack, n)
		switch n := n.(type) {
		case *ast.FuncLit:
			addParams(n.Type)
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				var v value
				switch {
				case len(n.Rhs) == len(n.Lhs):
					v = value{rhs: n.Rhs[i], tuple: -1}
				case len(n.Rhs) == 1:
					v = value{rhs: n.Rhs[0], tuple: i}
				}
				if n.Tok != token.DEFINE && n.Tok != token.ASSIGN {
					v = value{rhs: n.Rhs[0], tuple: -2} // x op= y: not traced
				}
				if o := obj(lhs); o != nil {
					f.values[o] = append(f.values[o], v)
					continue
				}
				if sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok {
					if o := obj(sel.X); o != nil {
						if f.fields[o] == nil {
							f.fields[o] = make(map[string][]ast.Expr)
						}
						f.fields[o][sel.Sel.Name] = append(f.fields[o][sel.Sel.Name], v.rhs)
					}
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				o := info.Defs[name]
				if o == nil {
					continue
				}
				switch {
				case len(n.Values) == 0:
					f.values[o] = append(f.values[o], value{tuple: -1})
				case len(n.Values) == len(n.Names):
					f.values[o] = append(f.values[o], value{rhs: n.Values[i], tuple: -1})
				default:
					f.values[o] = append(f.values[o], value{rhs: n.Values[0], tuple: i})
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if o := obj(e); o != nil {
					f.values[o] = append(f.values[o], value{rhs: n.X, tuple: -2})
				}
			}
		case *ast.Ident:
			o := info.Uses[n]
			if o == nil {
				return true
			}
			switch p := parent.(type) {
			case *ast.SelectorExpr:
				// v.Method(...) or v.Field: a use that does not let v's value go.
				if p.X == n {
					return true
				}
			case *ast.AssignStmt:
				for _, lhs := range p.Lhs {
					if lhs == n {
						return true
					}
				}
			case *ast.BinaryExpr:
				return true // compared
			case *ast.IfStmt, *ast.ExprStmt:
				return true
			}
			f.escapes[o] = true
		}
		return true
	})
	return f
}

// local reports whether o is a variable of the function that the flow
// knows all the values of.
func (f *flow) local(o types.Object) bool {
	v, ok := o.(*types.Var)
	return ok && !v.IsField() && v.Parent() != nil && v.Parent() != v.Pkg().Scope() && !f.params[o] && len(f.values[o]) > 0
}

func (f *flow) obj(e ast.Expr) types.Object {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		return f.c.info.Uses[id]
	}
	return nil
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
		if fn := callee(f.c.info, e); fn != nil {
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
		if o == nil || !f.local(o) || f.escapes[o] || f.fields[o]["Timeout"] != nil || f.fields[o]["Transport"] != nil {
			return client{}, false
		}
		var found client
		for _, v := range f.values[o] {
			if v.tuple != -1 {
				return client{}, false
			}
			var c client
			if v.rhs == nil {
				if !isClient(o.Type()) {
					return client{}, false // a nil pointer
				}
				c = client{desc: "a zero http.Client", pos: o.Pos(), end: o.Pos() + token.Pos(len(o.Name()))}
			} else {
				var ok bool
				if c, ok = f.clientWithoutTimeout(v.rhs, depth+1); !ok {
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
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "net/http" && n.Obj().Name() == "Client"
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
		fn := callee(f.c.info, e)
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
	for _, v := range f.values[o] {
		if v.rhs == nil || (v.tuple != -1 && v.tuple != want) {
			return "", false
		}
		d, ok := check(v.rhs, depth+1)
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
	if depth > maxDepth {
		return "", false
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return f.each(e, depth, 0, f.contextWithoutDeadline)
	case *ast.CallExpr:
		fn := callee(f.c.info, e)
		if fn == nil {
			return "", false
		}
		switch fn.FullName() {
		case "context.Background", "context.TODO":
			return fn.FullName() + "()", true
		case "context.WithoutCancel":
			return "context.WithoutCancel", true
		case "context.WithCancel", "context.WithCancelCause", "context.WithValue":
			if len(e.Args) > 0 {
				return f.contextWithoutDeadline(e.Args[0], depth+1)
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
	if o == nil || !f.local(o) || f.escapes[o] || f.fields[o]["HTTPClient"] != nil {
		return nil, false
	}
	for _, v := range f.fields[o]["RetryMax"] {
		if tv, ok := f.c.info.Types[v]; !ok || tv.Value == nil || constant.Sign(tv.Value) <= 0 {
			return nil, false // no retries, or a count the check cannot see
		}
	}
	var made *ast.CallExpr
	for _, v := range f.values[o] {
		call, ok := ast.Unparen(v.rhs).(*ast.CallExpr)
		if !ok || v.tuple != -1 {
			return nil, false
		}
		if fn := callee(f.c.info, call); fn == nil || httpName(fn) != "net/http.NewClient" {
			return nil, false
		}
		if made == nil {
			made = call
		}
	}
	return made, true
}
