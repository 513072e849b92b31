package retrytimeout

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/flow/value"
)

// Where a client, a request or a context comes from is the engine's value
// flow (flow/value): the syntax gives the call to judge and the positions
// and words of the message; the origins of the value it reads, walked back
// through variables, phis, captured variables' cells and the derivations
// the check lets through, decide.

// values returns the package's value flow, building the SSA form on the
// first call; nil when the package has none (type errors).
func (c *checker) values() *value.Flow {
	if c.vf == nil {
		if p := c.engine.Get(); p != nil {
			c.vf = value.Of(p)
		}
	}
	return c.vf
}

// argValue returns the value call passes as its syntactic argument i.
func (c *checker) argValue(call *ast.CallExpr, i int) ssa.Value {
	vf := c.values()
	if vf == nil || i >= len(call.Args) {
		return nil
	}
	return vf.Arg(call, i)
}

// args returns the arguments of call, a method's receiver not counted.
func args(call *ssa.Call) []ssa.Value {
	a := call.Call.Args
	if !call.Call.IsInvoke() && call.Call.Signature().Recv() != nil && len(a) > 0 {
		return a[1:]
	}
	return a
}

// plainCell reports whether o, an origin, is a local variable's cell (an
// Alloc of a captured or address-taken variable) that is only stored into,
// loaded and captured: Origins has walked its stores, and nothing else can
// fill it.
func plainCell(o ssa.Value) bool {
	a, ok := o.(*ssa.Alloc)
	if !ok || a.Comment == "" {
		return false
	}
	refs := a.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != a {
				return false
			}
		case *ssa.UnOp:
		case *ssa.MakeClosure:
		default:
			return false
		}
	}
	return true
}

// callRoots reports whether every origin of v is a call that root
// accepts, through the calls whose values through gives (Origins'
// Through), and returns the description root gives the root first
// written. root says of a call whether it is a root (desc), one the walk
// went through (through: no desc), or neither.
func (c *checker) callRoots(v ssa.Value, through func(fn *types.Func, args []ssa.Value) []ssa.Value,
	root func(fn *types.Func, args []ssa.Value) (desc string, ok bool)) (string, bool) {
	if c.values() == nil || v == nil {
		return "", false
	}
	q := &value.Query{Through: func(call *ssa.Call) []ssa.Value {
		if fn := value.Callee(call); fn != nil {
			return through(fn, args(call))
		}
		return nil
	}}
	origins := c.vf.Origins(v, q)
	if q.Exhausted {
		return "", false
	}
	var first *ssa.Call
	desc := ""
	for _, o := range origins {
		if plainCell(o) {
			continue
		}
		call, ok := o.(*ssa.Call)
		if !ok {
			return "", false
		}
		fn := value.Callee(call)
		if fn == nil {
			return "", false
		}
		d, ok := root(fn, args(call))
		if !ok {
			return "", false
		}
		if d != "" && (first == nil || call.Pos() < first.Pos()) {
			first, desc = call, d
		}
	}
	return desc, first != nil
}

// contextRoot reports whether every origin of the context v is one of
// roots' roots, reached through the derivations roots lets through, and
// names the root first written.
func (c *checker) contextRoot(v ssa.Value, roots contextRoots) (string, bool) {
	return c.callRoots(v, func(fn *types.Func, a []ssa.Value) []ssa.Value {
		if roots[fn.FullName()] == throughCtx && len(a) > 0 {
			return a[:1]
		}
		return nil
	}, func(fn *types.Func, a []ssa.Value) (string, bool) {
		switch roots[fn.FullName()] {
		case rootCtx:
			if len(a) == 0 {
				return fn.FullName() + "()", true
			}
			return fn.FullName(), true
		case throughCtx:
			return "", len(a) > 0
		}
		return "", false
	})
}

// requestRoot reports whether every origin of the *http.Request v is a
// request carrying a context with no deadline: http.NewRequest's
// context.Background(), NewRequestWithContext, WithContext or Clone with
// such a context, through go-retryablehttp's FromRequest; it describes the
// context of the one first written.
func (c *checker) requestRoot(v ssa.Value) (string, bool) {
	return c.callRoots(v, func(fn *types.Func, a []ssa.Value) []ssa.Value {
		if httpName(fn) == "net/http.FromRequest" && len(a) == 1 {
			return a
		}
		return nil
	}, func(fn *types.Func, a []ssa.Value) (string, bool) {
		switch httpName(fn) { // go-retryablehttp's are as net/http's
		case "net/http.NewRequest":
			return "context.Background() of " + fn.Pkg().Name() + ".NewRequest", true
		case "net/http.FromRequest":
			return "", len(a) == 1
		case "net/http.NewRequestWithContext":
			if len(a) > 0 {
				return c.contextRoot(a[0], deadlineless)
			}
		case "(*net/http.Request).WithContext", "(*net/http.Request).Clone":
			if len(a) == 1 {
				return c.contextRoot(a[0], deadlineless)
			}
		}
		return "", false
	})
}

// clientOrigins reports whether every origin of the *http.Client (or
// http.Client) v is a client proven to have a zero Timeout and the default
// transport (http.DefaultClient, unless the package sets it; a literal
// leaving Timeout zero and Transport nil; new(http.Client); a zero
// http.Client variable; cleanhttp's clients), none of which the function
// gives away or configures (keepsNoTimeout, as far as k says), and
// describes the first.
func (c *checker) clientOrigins(v ssa.Value, k keep) (client, bool) {
	vf := c.values()
	if vf == nil || v == nil {
		return client{}, false
	}
	q := &value.Query{Stop: isDefaultClientLoad}
	origins := vf.Origins(v, q)
	if q.Exhausted {
		return client{}, false
	}
	var found client
	for _, o := range origins {
		if plainCell(o) {
			continue // a variable's cell: its stores are among the origins
		}
		if k, ok := o.(*ssa.Const); ok && k.Value == nil {
			if _, isStruct := k.Type().Underlying().(*types.Struct); isStruct {
				continue // a zero http.Client stored into a variable, judged with it (clientVar)
			}
		}
		cl, ok := c.clientOrigin(o, k)
		if !ok {
			return client{}, false
		}
		if found.desc == "" {
			found = cl
		}
	}
	return found, found.desc != ""
}

// clientOrigin judges one origin of a client made without a Timeout (see
// clientOrigins; timeoutOnly, for zeroTimeout: an oauth2.NewClient of a context
// carrying no client too, a zero variable not, and how the message names a
// literal).
func (c *checker) clientOrigin(o ssa.Value, k keep) (client, bool) {
	switch o := o.(type) {
	case *ssa.Global:
		if v, ok := o.Object().(*types.Var); ok && c.isDefaultClientVar(v) && k.timeoutOnly {
			return client{desc: "http.DefaultClient"}, !c.defaultSet && !c.defaultConfigured(o)
		}
	case *ssa.UnOp:
		if isDefaultClientLoad(o) && !k.timeoutOnly {
			// what the function does with it: a local copy given a
			// Timeout is not without one
			return client{desc: "http.DefaultClient"}, !c.defaultSet && c.keepsNoTimeout(o, k)
		}
	case *ssa.Call:
		fn := value.Callee(o)
		call := c.callAt(o.Pos())
		if fn == nil || call == nil || !c.keepsNoTimeout(o, k) {
			return client{}, false
		}
		switch fn.FullName() {
		case cleanhttp + ".DefaultClient", cleanhttp + ".DefaultPooledClient":
			return client{desc: "cleanhttp." + fn.Name() + "()", pos: call.Pos(), end: call.End()}, true
		}
		if i, ok := contextClient(fn); ok && k.timeoutOnly && i < len(args(o)) {
			if _, ok := c.contextRoot(args(o)[i], valueless); ok {
				return client{desc: fn.Pkg().Name() + "." + fn.Name(), made: types.ExprString(call), pos: call.Pos(), end: call.End()}, !c.defaultSet
			}
		}
	case *ssa.Alloc:
		p, ok := o.Type().(*types.Pointer)
		if !ok || !isClient(p.Elem()) || !c.keepsNoTimeout(o, k) {
			return client{}, false
		}
		switch o.Comment {
		case "new":
			if call := c.callAt(o.Pos()); call != nil {
				return client{desc: "new(http.Client)", pos: call.Pos(), end: call.End()}, true
			}
		case "complit":
			path := c.pathAt(o.Pos())
			if len(path) < 2 {
				return client{}, false
			}
			lit, ok := path[0].(*ast.CompositeLit)
			if !ok {
				return client{}, false
			}
			for _, elt := range lit.Elts {
				if _, ok := elt.(*ast.KeyValueExpr); !ok {
					return client{}, false
				}
			}
			var at ast.Expr = lit
			desc := "http.Client literal without Timeout"
			if u, ok := path[1].(*ast.UnaryExpr); ok && u.Op == token.AND {
				at, desc = u, "&"+desc
			}
			if k.timeoutOnly {
				desc = "an http.Client literal"
			}
			return client{desc: desc, pos: at.Pos(), end: at.End()}, true
		default: // a variable of type http.Client
			if k.timeoutOnly {
				return client{}, false
			}
			return c.clientVar(o)
		}
	}
	return client{}, false
}

// clientVar describes the variable a of type http.Client: a zero one, or
// one given a literal (client := http.Client{}, stored whole as the zero
// struct; http.Client{Timeout: 0}, a copy of the literal's cell, which is
// an origin too), which keepsNoTimeout has judged.
func (c *checker) clientVar(a *ssa.Alloc) (client, bool) {
	found := client{desc: "a zero http.Client", pos: a.Pos(), end: a.Pos() + token.Pos(len(a.Comment))}
	first := true
	for _, r := range *a.Referrers() {
		st, ok := r.(*ssa.Store)
		if !ok || st.Addr != a {
			continue
		}
		var lit *ast.CompositeLit
		switch v := st.Val.(type) {
		case *ssa.Const: // client := http.Client{}
			if v.Value == nil {
				lit = c.litStoredAt(st.Pos())
			}
		case *ssa.UnOp: // client := http.Client{Timeout: 0}, the literal's cell judged as an origin
			if from, ok := v.X.(*ssa.Alloc); ok && v.Op == token.MUL && from.Comment == "complit" {
				if path := c.pathAt(from.Pos()); len(path) > 0 {
					lit, _ = path[0].(*ast.CompositeLit)
				}
			}
		}
		if lit == nil {
			return client{}, false
		}
		for _, elt := range lit.Elts {
			if _, ok := elt.(*ast.KeyValueExpr); !ok {
				return client{}, false
			}
		}
		if first {
			found = client{desc: "http.Client literal without Timeout", pos: lit.Pos(), end: lit.End()}
			first = false
		}
	}
	return found, true
}

// litStoredAt returns the composite literal assigned at pos, the name of
// the variable it is assigned to (client := http.Client{...}).
func (c *checker) litStoredAt(pos token.Pos) *ast.CompositeLit {
	var rhs ast.Expr
	for _, n := range c.pathAt(pos) {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if l.Pos() == pos && len(n.Rhs) == len(n.Lhs) {
					rhs = n.Rhs[i]
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if id.Pos() == pos && i < len(n.Values) {
					rhs = n.Values[i]
				}
			}
		}
		if rhs != nil {
			break
		}
	}
	lit, _ := ast.Unparen(rhs).(*ast.CompositeLit)
	return lit
}

// wholeStores reports whether a value is stored into the cell a as a
// whole (c = http.Client{...}), which the check does not read.
func wholeStores(a *ssa.Alloc) bool {
	refs := a.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if st, ok := r.(*ssa.Store); ok && st.Addr == a {
			return true
		}
	}
	return false
}

// A keep says how far keepsNoTimeout reads a client's uses.
type keep struct {
	// at, when not nil, is the store of a field a check asks about: where
	// the field goes is the check's to judge.
	at *ssa.Store
	// field, when not nil, is the field whose stores fieldHolds reads: the
	// client may be stored into it.
	field *types.Var
	// across: the uses across the package's calls, cells and fields (the
	// package's functions it is passed to are read, not given up on).
	across bool
	// timeoutOnly: a copied Timeout's client, its Transport aside.
	timeoutOnly bool
}

// keepsNoTimeout reports whether the client p (a pointer), made without a
// Timeout, keeps none where it goes: nothing but 0 is stored in its Timeout
// (nor, unless timeoutOnly, anything but nil in its Transport), no address
// of either is taken, and it is passed to no function but http.Client's
// own methods (across, the package's functions are followed). But across,
// the function uses it only to send: it is not stored (but into a local
// variable, whose loads Uses follows, by k.at or into k.field), returned
// or passed on.
func (c *checker) keepsNoTimeout(p ssa.Value, k keep) bool {
	q := &value.Query{Interproc: k.across}
	if k.at != nil {
		if fa, ok := k.at.Addr.(*ssa.FieldAddr); ok {
			field := value.FieldVar(fa.X.Type(), fa.Field)
			q.Stop = func(v ssa.Value) bool {
				ld, ok := v.(*ssa.UnOp)
				if !ok || ld.Op != token.MUL {
					return false
				}
				lfa, ok := ld.X.(*ssa.FieldAddr)
				return ok && value.FieldVar(lfa.X.Type(), lfa.Field) == field
			}
		}
	}
	uses := c.vf.Uses(p, q)
	if q.Exhausted {
		return false
	}
	// a test's uses configure the test, not the package's clients: the
	// package and its test variant get the same answer
	ownTest := astq.InTestFile(c.pass.Fset, p.Pos())
	for _, u := range uses {
		if pos := u.Instr.Pos(); !ownTest && pos.IsValid() && astq.InTestFile(c.pass.Fset, pos) {
			continue
		}
		if fa, ok := u.Value.(*ssa.FieldAddr); ok {
			fv := value.FieldVar(fa.X.Type(), fa.Field)
			if fv == nil || !isClient(fa.X.Type()) || fv.Name() != "Timeout" && (k.timeoutOnly || fv.Name() != "Transport") {
				continue
			}
			st, ok := u.Instr.(*ssa.Store)
			if !ok || st.Addr != fa || !zeroConst(st.Val) {
				return false
			}
			continue
		}
		if !isClient(u.Value.Type()) {
			if _, ok := u.Value.Type().Underlying().(*types.Interface); !ok {
				continue // a value read from the client (its Timeout, its Jar)
			}
		}
		switch in := u.Instr.(type) {
		case ssa.CallInstruction: // a call, deferred or not (defer client.CloseIdleConnections())
			com := in.Common()
			if _, isCall := in.(*ssa.Call); isCall && k.across && com.StaticCallee() != nil && com.StaticCallee().Pkg == c.vf.P.SSA {
				continue // followed into the callee
			}
			fn := value.Callee(in)
			if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "net/http" || fn.Signature().Recv() == nil ||
				!isClient(fn.Signature().Recv().Type()) || com.IsInvoke() || len(com.Args) == 0 || com.Args[0] != u.Value {
				return false
			}
		case *ssa.BinOp:
		case *ssa.Store:
			if in.Val != u.Value || in == k.at || storesInto(in, k.field) {
				break
			}
			if _, cell := c.vf.Cell(in.Addr).(*ssa.Alloc); cell || k.across && c.followed(in) {
				break // into a variable (or, across, anywhere Uses follows)
			}
			return false
		case *ssa.Return:
			if !k.across {
				return false
			}
		default:
			return false // a map, a channel, a goroutine's argument
		}
	}
	return true
}

// zeroConst reports whether v is a zero constant: 0, nil.
func zeroConst(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	if !ok {
		return false
	}
	if k.Value == nil {
		return true // nil, or a zero struct
	}
	return k.Value.Kind() == constant.Int && constant.Sign(k.Value) == 0
}

// isDefaultClientVar reports whether v is net/http's DefaultClient.
func (c *checker) isDefaultClientVar(v *types.Var) bool {
	return v.Pkg() != nil && v.Pkg().Path() == "net/http" && v.Name() == "DefaultClient"
}

// pathAt returns the syntax enclosing pos, innermost first.
func (c *checker) pathAt(pos token.Pos) []ast.Node {
	for _, f := range c.pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			path, _ := astutil.PathEnclosingInterval(f, pos, pos)
			return path
		}
	}
	return nil
}

// callAt returns the call expression whose Lparen is lparen.
func (c *checker) callAt(lparen token.Pos) *ast.CallExpr {
	for _, n := range c.pathAt(lparen) {
		if call, ok := n.(*ast.CallExpr); ok && call.Lparen == lparen {
			return call
		}
	}
	return nil
}

// storeAt returns the value the store whose syntax is at pos stores (see
// value.Flow.StoredAt), and the store.
func (c *checker) storeAt(pos token.Pos) (ssa.Value, *ssa.Store) {
	v := c.vf.StoredAt(pos)
	if v == nil {
		return nil, nil
	}
	for _, in := range c.vf.At(pos) {
		if st, ok := in.(*ssa.Store); ok && st.Val == v {
			return v, st
		}
		if fa, ok := in.(*ssa.FieldAddr); ok && fa.Referrers() != nil {
			for _, r := range *fa.Referrers() {
				if st, ok := r.(*ssa.Store); ok && st.Addr == fa && st.Val == v {
					return v, st
				}
			}
		}
	}
	return v, nil
}

// storesInto reports whether st stores into field (nil: none).
func storesInto(st *ssa.Store, field *types.Var) bool {
	fa, ok := st.Addr.(*ssa.FieldAddr)
	return ok && field != nil && value.FieldVar(fa.X.Type(), fa.Field) == field
}

// followed reports whether Uses goes on from the store st to the loads of
// what it stores into: a field, a cell or a local array's element.
func (c *checker) followed(st *ssa.Store) bool {
	switch a := st.Addr.(type) {
	case *ssa.FieldAddr:
		return true
	case *ssa.IndexAddr:
		return c.vf.Cell(a.X) != nil
	}
	return c.vf.Cell(st.Addr) != nil
}

// defaultConfigured reports whether the package gives http.DefaultClient
// (g) a Timeout through a variable or a field holding it anywhere
// (setsDefaultClient sees the assignments to the global itself): its
// loads' uses, for a copied Timeout, which the whole package may set.
func (c *checker) defaultConfigured(g ssa.Value) bool {
	if c.defaultConf == 0 {
		c.defaultConf = 1
		q := &value.Query{Interproc: true}
		for _, u := range c.vf.Uses(g, q) {
			fa, ok := u.Value.(*ssa.FieldAddr)
			if !ok || !isClient(fa.X.Type()) || astq.InTestFile(c.pass.Fset, u.Instr.Pos()) {
				continue
			}
			if fv := value.FieldVar(fa.X.Type(), fa.Field); fv != nil && fv.Name() == "Timeout" {
				c.defaultConf = 2
			}
		}
		if q.Exhausted {
			c.defaultConf = 2
		}
	}
	return c.defaultConf == 2
}

// isDefaultClientLoad reports whether v reads http.DefaultClient.
func isDefaultClientLoad(v ssa.Value) bool {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return false
	}
	g, ok := ld.X.(*ssa.Global)
	if !ok {
		return false
	}
	obj, ok := g.Object().(*types.Var)
	return ok && obj.Pkg() != nil && obj.Pkg().Path() == "net/http" && obj.Name() == "DefaultClient"
}
