package jobretry

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/idemlint/idemlint/passes/retryscope"
)

// consumerMessage is the message of an effect in a message consumer: its
// broker redelivers the message, so the effect repeats unless the handler
// dedupes on the message's id with the runtime's inbox (or, inside the
// inbox, keys the effect with a key derived from that id).
func consumerMessage(h *handler, what string) string {
	if h.inbox {
		return fmt.Sprintf("%s in %s %s, which the inbox cannot roll back; key it with idempotency.Derive of %s",
			what, h.kind, h.name, h.fw.MessageID())
	}
	return fmt.Sprintf("%s in %s %s, which its broker redelivers; dedupe on %s with idempotency.Inbox",
		what, h.kind, h.name, h.fw.MessageID())
}

// inboxHandler returns the handler literal of call when call runs it once
// per message id with the runtime's inbox (retryscope.InboxHandler): its
// database writes commit with the id.
func (c *checker) inboxHandler(call *ast.CallExpr) *ast.FuncLit {
	fn := c.callee(call)
	if fn == nil {
		return nil
	}
	i, ok := retryscope.InboxHandler(fn)
	if !ok || len(call.Args) <= i {
		return nil
	}
	lit, _ := ast.Unparen(call.Args[i]).(*ast.FuncLit)
	return lit
}

// messageIDField reports whether the selector's field or constant carries
// a consumed message's stable id, or a per-delivery value.
func (c *checker) messageIDField(sel *ast.SelectorExpr) (stable, perDelivery bool) {
	o := c.info.Uses[sel.Sel]
	if _, ok := o.(*types.Var); !ok {
		if _, ok := o.(*types.Const); !ok {
			return false, false
		}
	}
	return retryscope.MessageIDField(o)
}
