package retry

import "context"

// markKey is the context key of the one-layer mark.
type markKey struct{}

// markedCtx is a context inside a retry layer. It is smaller and cheaper than context.WithValue: one pointer
// to the parent, and a Value method that answers the mark without walking the chain.
type markedCtx struct{ context.Context }

func (c *markedCtx) Value(key any) any {
	if key == (markKey{}) {
		return true
	}
	return c.Context.Value(key)
}

func (c *markedCtx) String() string { return "retry.mark(" + contextName(c.Context) + ")" }

func contextName(ctx context.Context) string {
	if s, ok := ctx.(interface{ String() string }); ok {
		return s.String()
	}
	return "context"
}

// markedBackground is the marked form of context.Background. Background is a stateless singleton, so its
// marked form can be one too; it spares the common "Do(context.Background(), ...)" an allocation.
var markedBackground context.Context = &markedCtx{context.Background()}

// mark returns ctx, which is not marked yet, marked as inside a retry layer.
func mark(ctx context.Context) context.Context {
	if ctx == context.Background() {
		return markedBackground
	}
	return &markedCtx{ctx}
}

// InRetry reports whether ctx was passed by [Do], [DoValue] or a [NewTransport] round trip to the code it
// retries, directly or through derived contexts. A Do or Transport given such a context makes a single
// attempt unless its Policy.AllowNested is set; code with retries of its own can check InRetry to follow
// the same one-layer rule.
func InRetry(ctx context.Context) bool {
	return ctx.Value(markKey{}) != nil
}
