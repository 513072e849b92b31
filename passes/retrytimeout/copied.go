package retrytimeout

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/internal/suppress"
	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/flow/value"
	"github.com/idemlint/idemlint/passes/internal/names"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// A go-retryablehttp client whose HTTPClient.Timeout is copied from
// another client (godo's New: retryableClient.HTTPClient.Timeout =
// c.HTTPClient.Timeout) has the timeout of that client: none when the
// package itself passes one without (godo's NewFromToken, an
// oauth2.NewClient client). Its requests go through StandardClient(), each
// on its caller's context, whose deadline, if any, spans all the attempts.
// Where the copied client comes from is the value flow's answer, across
// the package's calls (Origins with Interproc); where a client without a
// Timeout goes, to be sure nothing gives it one, is Uses' (keepsNoTimeout).

const retryable = "github.com/hashicorp/go-retryablehttp"

// checkCopied reports the copies of HTTPClient.Timeout into the retrying
// client that retryablehttp.NewClient() call makes, when every copy reads
// a client proven to have a zero Timeout, the client retries, keeps its
// HTTPClient and hands its sends on through StandardClient().
func (c *checker) checkCopied(s *retryscope.Scope, call *ast.CallExpr) {
	if fn := astq.Callee(c.info, call); fn == nil || fn.FullName() != retryable+".NewClient" {
		return
	}
	if s.Cap.Kind == retryscope.CapKnown && s.Cap.N <= 1 {
		return
	}
	if c.values() == nil {
		return
	}
	rc, _ := c.vf.P.CallOf(call).(*ssa.Call)
	if rc == nil {
		return
	}
	u, ok := c.retryableUses(rc)
	if !ok || len(u.copies) == 0 || !u.standard {
		return
	}
	var first client
	var src ast.Expr
	for i, cp := range u.copies {
		z, ok := c.zeroTimeout(cp.from)
		if !ok {
			return
		}
		if i == 0 {
			first, src = z, cp.src
		}
	}
	what := first.desc
	var related []analysis.RelatedInformation
	if first.pos.IsValid() {
		made := first.desc
		if first.made != "" {
			made = first.made
		}
		related = append(related, analysis.RelatedInformation{Pos: first.pos, End: first.end, Message: "the client without a Timeout: " + made})
	}
	if first.via != nil {
		caller := names.In(declared(first.caller), c.pass.Pkg)
		what += " of " + caller
		related = append(related, analysis.RelatedInformation{Pos: first.via.Pos(), End: first.via.Fun.End(), Message: "passed by " + caller})
	}
	as := u.copies[0].stmt
	suppress.Report(c.pass, Name, analysis.Diagnostic{
		Pos: as.Pos(), End: as.End(), Related: related,
		Message: "copied " + types.ExprString(src) + ".Timeout is 0 (" + what + "): no attempt times out; default it when 0",
	})
}

// declared returns the function declared in the package that fn is or is
// a literal in.
func declared(fn *ssa.Function) *types.Func {
	for fn != nil {
		if obj, ok := fn.Object().(*types.Func); ok {
			return obj
		}
		fn = fn.Parent()
	}
	return nil
}

// A copy is an assignment rc.HTTPClient.Timeout = x.Timeout, x an
// http.Client: the statement, x, and x's value.
type copy struct {
	stmt *ast.AssignStmt
	src  ast.Expr
	from ssa.Value
}

// retryableUse is what the function does with a go-retryablehttp client
// (retryableUses).
type retryableUse struct {
	copies   []copy
	standard bool // it calls StandardClient()
	retries  bool // every RetryMax it stores is a positive constant
}

// retryableUses reads the uses of p, a go-retryablehttp client made in
// the function: the copies of a Timeout into its HTTPClient's (one to one,
// from an http.Client's Timeout), whether it calls StandardClient(), and
// false when the function gives p away (passes, stores, returns it),
// replaces its HTTPClient or uses it otherwise than to read or assign its
// Timeout.
func (c *checker) retryableUses(p ssa.Value) (retryableUse, bool) {
	out := retryableUse{retries: true}
	q := &value.Query{}
	uses := c.vf.Uses(p, q)
	if q.Exhausted {
		return out, false
	}
	for _, u := range uses {
		if fa, ok := u.Value.(*ssa.FieldAddr); ok {
			fv := value.FieldVar(fa.X.Type(), fa.Field)
			switch {
			case fv == nil:
				return out, false
			case isRetryable(fa.X.Type()):
				switch fv.Name() {
				case "HTTPClient":
					return out, false // replaced, or its address taken
				case "RetryMax":
					st, ok := u.Instr.(*ssa.Store)
					k, isConst := st.Val.(*ssa.Const)
					if !ok || !isConst || k.Value == nil || constant.Sign(k.Value) <= 0 {
						out.retries = false // no retries, or a count the check cannot see
					}
				}
			case isClient(fa.X.Type()):
				st, ok := u.Instr.(*ssa.Store)
				if !ok || fv.Name() != "Timeout" || st.Addr != fa {
					return out, false
				}
				cp, ok := c.copyAt(st)
				if !ok {
					return out, false
				}
				out.copies = append(out.copies, cp)
			}
			continue
		}
		switch t := u.Value.Type(); {
		case isRetryable(t):
			switch in := u.Instr.(type) {
			case *ssa.Call:
				fn := value.Callee(in)
				if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != retryable || fn.Signature().Recv() == nil ||
					in.Call.IsInvoke() || len(in.Call.Args) == 0 || in.Call.Args[0] != u.Value {
					return out, false
				}
				if fn.Name() == "StandardClient" {
					out.standard = true
				}
			case *ssa.Store:
				if in.Val == u.Value && !plainCell(c.vf.Cell(in.Addr)) {
					return out, false
				}
			case *ssa.BinOp:
			default:
				return out, false
			}
		case isClient(t):
			if _, ok := u.Instr.(*ssa.BinOp); !ok {
				return out, false // its HTTPClient given away
			}
		}
	}
	return out, true
}

// copyAt returns the copy whose store into a Timeout is st.
func (c *checker) copyAt(st *ssa.Store) (copy, bool) {
	var as *ast.AssignStmt
	for _, n := range c.pathAt(st.Pos()) {
		if a, ok := n.(*ast.AssignStmt); ok {
			as = a
			break
		}
	}
	if as == nil || len(as.Lhs) != 1 || len(as.Rhs) != 1 || as.Tok != token.ASSIGN {
		return copy{}, false
	}
	x, ok := c.timeoutOf(as.Rhs[0])
	if !ok {
		return copy{}, false
	}
	ld, ok := st.Val.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return copy{}, false
	}
	fa, ok := ld.X.(*ssa.FieldAddr)
	if !ok {
		return copy{}, false
	}
	return copy{stmt: as, src: x, from: fa.X}, true
}

func isRetryable(t types.Type) bool { return astq.IsNamed(t, retryable, "Client") }

// timeoutOf returns x when e reads x.Timeout, x an http.Client.
func (c *checker) timeoutOf(e ast.Expr) (ast.Expr, bool) {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Timeout" || !isClient(c.info.TypeOf(sel.X)) {
		return nil, false
	}
	if s, ok := c.info.Selections[sel]; !ok || s.Kind() != types.FieldVal {
		return nil, false
	}
	return sel.X, true
}

// zeroTimeout reports whether the *http.Client x is proven to have a zero
// Timeout (its Transport aside: the copy takes the Timeout only): its
// origins, across the package's calls and the package's client fields
// (what the package's non-test code stores there, but a store after the
// read in its function, outside any loop), are http.DefaultClient, a
// literal without Timeout, new(http.Client), cleanhttp's clients or an
// oauth2.NewClient of a context carrying no client, none of which the
// package gives a Timeout or hands to another package (keepsNoTimeout
// across). A parameter is what some call of the package passes: the
// origins reached through one call (Query.Via) must all be such clients,
// for one of the calls; the others all. It describes the first.
func (c *checker) zeroTimeout(x ssa.Value) (client, bool) {
	via := make(map[ssa.Value]*ssa.Call)
	q := &value.Query{Interproc: true, Via: via, Stop: func(v ssa.Value) bool { return c.clientFieldRead(v) != nil }}
	type verdict struct {
		o  ssa.Value
		z  client
		ok bool
	}
	var all []verdict
	stored := true // every field store read
	var judge func(v ssa.Value)
	judge = func(v ssa.Value) {
		for _, o := range c.vf.Origins(v, q) {
			if plainCell(o) {
				continue
			}
			if p, ok := o.(*ssa.Parameter); ok {
				if len(c.vf.Sites(p.Parent())) == 0 {
					all = append(all, verdict{o: o}) // the package's users choose it
				}
				continue
			}
			if fv := c.clientFieldRead(o); fv != nil {
				stored = stored && !c.vf.FieldAddressed(fv)
				for _, st := range c.vf.FieldStores(fv) {
					if astq.InTestFile(c.pass.Fset, st.Pos()) || c.later(st, o.(ssa.Instruction)) {
						continue
					}
					if st.Parent().Synthetic != "" {
						stored = false // a store at package level
						continue
					}
					judge(st.Val)
				}
				continue
			}
			z, ok := c.clientOrigin(o, keep{across: true, timeoutOnly: true})
			all = append(all, verdict{o, z, ok})
		}
	}
	judge(x)
	if !stored || q.Exhausted {
		return client{}, false
	}
	passes := make(map[*ssa.Call]bool) // per call passing a parameter: all its origins zero
	for _, vd := range all {
		site := via[vd.o]
		if site == nil {
			if !vd.ok {
				return client{}, false
			}
			continue
		}
		if ok, seen := passes[site]; !seen || ok {
			passes[site] = vd.ok
		}
	}
	some := len(passes) == 0
	for _, ok := range passes {
		some = some || ok
	}
	if !some {
		return client{}, false
	}
	for _, vd := range all {
		if site := via[vd.o]; vd.ok && (site == nil || passes[site]) {
			first := vd.z
			if site != nil {
				first.via, first.caller = c.callAt(site.Pos()), site.Parent()
			}
			return first, true
		}
	}
	return client{}, false
}

// later reports whether st stores after read in read's function, outside
// any loop: the value read is not st's.
func (c *checker) later(st *ssa.Store, read ssa.Instruction) bool {
	return st.Parent() == read.Parent() && st.Pos() > read.Pos() && c.vf.P.LoopOf(st) == nil
}

// valueless: the contexts that carry no value.
var valueless = contextRoots{
	"context.Background": rootCtx, "context.TODO": rootCtx,
	"context.WithCancel": throughCtx, "context.WithCancelCause": throughCtx, "context.WithTimeout": throughCtx,
	"context.WithDeadline": throughCtx, "context.WithoutCancel": throughCtx,
}

// contextClient returns the index of the context argument of fn when fn
// makes a new *http.Client whose Timeout is that of the client the
// context carries, if any, and 0 otherwise: golang.org/x/oauth2's
// NewClient(ctx, src) (v0.27.0 sets no Timeout at all; with a nil src it
// returns the context's client, http.DefaultClient when it has none).
func contextClient(fn *types.Func) (ctxArg int, ok bool) {
	if fn != nil && fn.FullName() == "golang.org/x/oauth2.NewClient" {
		return 0, true
	}
	return 0, false
}
