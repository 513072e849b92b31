package jobretry

import (
	"go/ast"
	"go/types"

	"github.com/idemlint/idemlint/passes/retryscope"
)

// shortConsumerFix is a consumer's fix naming no field, for a message that
// is too long with the message id's fields.
const shortConsumerFix = "; dedupe on the message id with idempotency.Inbox"

// noNaturalKey ends the message of an unguarded INSERT; shortNoNaturalKey
// stands for it where a long table name makes the message too long.
const (
	noNaturalKey      = " has no ON CONFLICT or natural key"
	shortNoNaturalKey = " has no natural key"
)

// consumerFix returns what a consumer's message says in place of a job's
// retry count, and its fix: dedupe on the message id with the inbox, or,
// inside the inbox's handler (whose database writes commit with the id), a
// key derived from the id for what the inbox cannot roll back.
func consumerFix(h *handler) (count, fix string) {
	if h.inbox {
		return ", which the inbox cannot roll back", "; key by idempotency.Derive of " + h.fw.MessageID()
	}
	return " (redelivered)", "; dedupe on " + h.fw.MessageID() + " with idempotency.Inbox"
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
