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

// A client is an http.Client proven to have no Timeout: what it is
// ("&http.Client literal without Timeout") and where it is made, when
// that is in the analysed code (pos is NoPos for http.DefaultClient).
type client struct {
	desc     string
	pos, end token.Pos
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
