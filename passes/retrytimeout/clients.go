package retrytimeout

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/flow/value"
)

// cleanhttp's DefaultClient and DefaultPooledClient return clients with
// no Timeout.
const cleanhttp = "github.com/hashicorp/go-cleanhttp"

// A client is an http.Client proven to have no Timeout: what it is
// ("&http.Client literal without Timeout") and where it is made, when
// that is in the analysed code (pos is NoPos for http.DefaultClient); for
// a copied Timeout's, when it reaches the copy as an argument of a call of
// the package, that call and the function making it.
type client struct {
	desc     string
	made     string // how the related information names it, if not desc
	pos, end token.Pos
	via      *ast.CallExpr
	caller   *ssa.Function
}

func isClient(t types.Type) bool {
	if t == nil {
		return false
	}
	return astq.IsNamed(t, "net/http", "Client")
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

// retryableWithoutTimeout reports whether the *retryablehttp.Client v is
// proven to be a NewClient() that retries and whose HTTPClient keeps the
// default, which has no Timeout, or one copied from a client with none;
// it returns the NewClient call first written.
func (c *checker) retryableWithoutTimeout(v ssa.Value) (*ast.CallExpr, bool) {
	if v == nil {
		return nil, false
	}
	q := &value.Query{}
	origins := c.vf.Origins(v, q)
	if q.Exhausted {
		return nil, false
	}
	var made *ast.CallExpr
	for _, o := range origins {
		if plainCell(o) {
			continue
		}
		call, ok := o.(*ssa.Call)
		if !ok {
			return nil, false
		}
		if fn := value.Callee(call); fn == nil || httpName(fn) != "net/http.NewClient" {
			return nil, false
		}
		u, ok := c.retryableUses(call)
		if !ok || !u.retries {
			return nil, false
		}
		for _, cp := range u.copies {
			if _, ok := c.zeroTimeout(cp.from); !ok {
				return nil, false
			}
		}
		if made == nil {
			made = c.callAt(call.Pos())
		}
	}
	return made, made != nil
}
