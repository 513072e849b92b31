package retrytimeout

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"

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

// calleeOf returns the function call statically calls, by *types.Func;
// nil for a dynamic call.
func calleeOf(call *ssa.Call) *types.Func { return value.Callee(call) }

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

// contextRoot reports whether every origin of the context v is one of
// roots' roots, reached through the derivations roots lets through, and
// names the root first written.
func (c *checker) contextRoot(v ssa.Value, roots contextRoots) (string, bool) {
	vf := c.values()
	if vf == nil || v == nil {
		return "", false
	}
	q := &value.Query{Through: func(call *ssa.Call) []ssa.Value {
		if fn := calleeOf(call); fn != nil && roots[fn.FullName()] == throughCtx {
			if a := args(call); len(a) > 0 {
				return a[:1]
			}
		}
		return nil
	}}
	origins := vf.Origins(v, q)
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
		fn := calleeOf(call)
		if fn == nil {
			return "", false
		}
		switch roots[fn.FullName()] {
		case rootCtx:
			if first == nil || call.Pos() < first.Pos() {
				first = call
				desc = fn.FullName()
				if len(args(call)) == 0 {
					desc += "()"
				}
			}
		case throughCtx:
			if len(args(call)) == 0 {
				return "", false
			}
		default:
			return "", false
		}
	}
	return desc, first != nil
}

// requestRoot reports whether every origin of the *http.Request v is a
// request carrying a context with no deadline: http.NewRequest's
// context.Background(), NewRequestWithContext, WithContext or Clone with
// such a context, through go-retryablehttp's FromRequest; it describes the
// context of the one first written.
func (c *checker) requestRoot(v ssa.Value) (string, bool) {
	vf := c.values()
	if vf == nil || v == nil {
		return "", false
	}
	q := &value.Query{Through: func(call *ssa.Call) []ssa.Value {
		if fn := calleeOf(call); fn != nil && httpName(fn) == "net/http.FromRequest" {
			if a := args(call); len(a) == 1 {
				return a
			}
		}
		return nil
	}}
	origins := vf.Origins(v, q)
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
		fn := calleeOf(call)
		if fn == nil {
			return "", false
		}
		var d string
		switch httpName(fn) { // go-retryablehttp's are as net/http's
		case "net/http.NewRequest":
			d = "context.Background() of " + fn.Pkg().Name() + ".NewRequest"
		case "net/http.FromRequest":
			if len(args(call)) != 1 {
				return "", false
			}
			continue
		case "net/http.NewRequestWithContext", "(*net/http.Request).WithContext", "(*net/http.Request).Clone":
			a := args(call)
			if len(a) == 0 {
				return "", false
			}
			if fn.Name() != "NewRequestWithContext" && len(a) != 1 {
				return "", false
			}
			var ok bool
			if d, ok = c.contextRoot(a[0], deadlineless); !ok {
				return "", false
			}
		default:
			return "", false
		}
		if first == nil || call.Pos() < first.Pos() {
			first, desc = call, d
		}
	}
	return desc, first != nil
}
