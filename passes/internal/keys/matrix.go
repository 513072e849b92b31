package keys

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

const gomatrixserverlib = "github.com/matrix-org/gomatrixserverlib"

// receiverAppliedEDUs are the Matrix EDU types that a receiving homeserver
// applies once however many copies it gets: states it overwrites (typing,
// presence, read receipts) and key updates it orders by their stream id or
// replaces whole (m.device_list_update carries stream_id and prev_id;
// m.signing_key_update the whole key set). m.direct_to_device is not one:
// its message_id is the key (ProtocolKeyField).
var receiverAppliedEDUs = map[string]bool{
	"m.typing":             true,
	"m.presence":           true,
	"m.receipt":            true,
	"m.device_list_update": true,
	"m.signing_key_update": true,
}

// ReceiverDeduped reports whether e, an argument in body, is a unit of the
// Matrix server-server protocol that the receiving homeserver applies once
// whatever the copies: a PDU (a value with gomatrixserverlib's PDU
// interface's EventID method: events are deduped by their event id), or a
// gomatrixserverlib.EDU whose Type, a constant set in body, is in
// receiverAppliedEDUs. It says nothing of the sender's own tables: a
// duplicate row of a table that lasts is still a duplicate.
func ReceiverDeduped(info *types.Info, body *ast.BlockStmt, e ast.Expr) bool {
	t := info.TypeOf(e)
	if t == nil {
		return false
	}
	if pdu(t) {
		return true
	}
	if !astq.IsNamed(t, gomatrixserverlib, "EDU") {
		return false
	}
	var lits []ast.Expr
	x := ast.Unparen(e)
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x = ast.Unparen(u.X) // &edu, of an EDU variable
	}
	if id, ok := x.(*ast.Ident); ok && body != nil {
		if v, ok := info.Uses[id].(*types.Var); ok {
			lits = astq.Assignments(info, body, v)
		}
	} else {
		lits = []ast.Expr{e}
	}
	if len(lits) == 0 {
		return false
	}
	for _, lit := range lits {
		if !appliedEDULiteral(info, lit) {
			return false
		}
	}
	return true
}

// pdu reports whether t has the EventID method of gomatrixserverlib's PDU
// interface (dendrite's *types.HeaderedEvent embeds it).
func pdu(t types.Type) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "EventID")
	fn, ok := obj.(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != gomatrixserverlib {
		return false
	}
	recv := fn.Signature().Recv()
	return recv != nil && astq.IsNamed(recv.Type(), gomatrixserverlib, "PDU")
}

// appliedEDULiteral reports whether e is a gomatrixserverlib.EDU literal
// (or its address) whose Type is a constant in receiverAppliedEDUs.
func appliedEDULiteral(info *types.Info, e ast.Expr) bool {
	lit := astq.StructLit(e)
	if lit == nil {
		return false
	}
	v, _ := astq.KeyedValue(info, lit, func(f *types.Var, _ *ast.Ident) bool {
		return f != nil && f.Name() == "Type" && f.Pkg() != nil && f.Pkg().Path() == gomatrixserverlib
	})
	if v == nil {
		return false
	}
	tv, ok := info.Types[v]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.String && receiverAppliedEDUs[constant.StringVal(tv.Value)]
}
