package keys

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// A NATS JetStream stream dedupes the messages published to it on their
// Nats-Msg-Id header, inside its duplicate window: a publish that sets it
// to a key the caller derives from its own incoming key is applied once
// however often it is repeated; one with no id, or a fresh id, is stored
// again by every repetition.

const (
	natsPath      = "github.com/nats-io/nats.go"
	jetstreamPath = "github.com/nats-io/nats.go/jetstream"
	// MsgIDHeader is the header a JetStream stream dedupes on
	// (nats.MsgIdHdr, jetstream.MsgIDHeader).
	MsgIDHeader = "Nats-Msg-Id"
)

// NATSPackage reports whether path is a package of nats.go that declares
// JetStream publish methods.
func NATSPackage(path string) bool { return path == natsPath || path == jetstreamPath }

// publisher gives the arguments of a JetStream publish method: the index
// of the *nats.Msg (-1 when it takes a subject and the data) and of its
// first option.
type publisher struct{ msg, opts int }

var publishers = map[string]publisher{
	"(" + natsPath + ".JetStream).Publish":              {-1, 2},
	"(" + natsPath + ".JetStream).PublishMsg":           {0, 1},
	"(" + natsPath + ".JetStream).PublishAsync":         {-1, 2},
	"(" + natsPath + ".JetStream).PublishMsgAsync":      {0, 1},
	"(" + jetstreamPath + ".Publisher).Publish":         {-1, 3},
	"(" + jetstreamPath + ".Publisher).PublishMsg":      {1, 2},
	"(" + jetstreamPath + ".Publisher).PublishAsync":    {-1, 2},
	"(" + jetstreamPath + ".Publisher).PublishMsgAsync": {0, 1},
}

// publishOptions are the publish options: true for the ones that set the
// message id from their first argument, false for those that leave it
// alone (a context, the expectations of the stream, the publish's own
// retries of a "no responders" error, a TTL). Any other option value is
// one the model cannot see into.
var publishOptions = map[string]bool{
	natsPath + ".MsgId":                                 true,
	jetstreamPath + ".WithMsgID":                        true,
	natsPath + ".Context":                               false,
	natsPath + ".ExpectStream":                          false,
	natsPath + ".ExpectLastSequence":                    false,
	natsPath + ".ExpectLastSequencePerSubject":          false,
	natsPath + ".ExpectLastMsgId":                       false,
	natsPath + ".RetryWait":                             false,
	natsPath + ".RetryAttempts":                         false,
	natsPath + ".StallWait":                             false,
	natsPath + ".MsgTTL":                                false,
	jetstreamPath + ".WithExpectStream":                 false,
	jetstreamPath + ".WithExpectLastSequence":           false,
	jetstreamPath + ".WithExpectLastSequencePerSubject": false,
	jetstreamPath + ".WithExpectLastSequenceForSubject": false,
	jetstreamPath + ".WithExpectLastMsgID":              false,
	jetstreamPath + ".WithRetryWait":                    false,
	jetstreamPath + ".WithRetryAttempts":                false,
	jetstreamPath + ".WithStallWait":                    false,
	jetstreamPath + ".WithMsgTTL":                       false,
}

// Publish is one JetStream publish and the message ids it sets.
type Publish struct {
	Call *ast.CallExpr
	// Method is the publish method.
	Method *types.Func
	// IDs are the values set as the message's Nats-Msg-Id, by an option or
	// a header write.
	IDs []ast.Expr
	// Opaque is set when an option or the message is one the model cannot
	// see into: a spread option list, an option of another kind, a message
	// that is a parameter or is handed to another call.
	Opaque bool
}

// JetStreamPublish returns the publish call makes, when it is one of a
// JetStream publish method; body is the function that holds it, whose
// code builds the message.
func JetStreamPublish(info *types.Info, body *ast.BlockStmt, call *ast.CallExpr) *Publish {
	fn := astq.Callee(info, call)
	if fn == nil {
		return nil
	}
	pub, ok := publishers[fn.FullName()]
	if !ok {
		return nil
	}
	p := &Publish{Call: call, Method: fn}
	if call.Ellipsis.IsValid() {
		p.Opaque = true
	}
	for i := pub.opts; i < len(call.Args); i++ {
		p.option(info, body, call.Args[i], 0)
	}
	if pub.msg >= 0 && pub.msg < len(call.Args) {
		p.message(info, body, call.Args[pub.msg])
	}
	return p
}

// option reads one option argument: a call of a known option, or a local
// variable assigned one.
func (p *Publish) option(info *types.Info, body *ast.BlockStmt, e ast.Expr, depth int) {
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		fn := astq.Callee(info, e)
		if fn == nil {
			p.Opaque = true
			return
		}
		setsID, ok := publishOptions[fn.FullName()]
		switch {
		case !ok:
			p.Opaque = true
		case setsID && len(e.Args) == 1:
			p.IDs = append(p.IDs, e.Args[0])
		}
	case *ast.Ident:
		v, ok := info.Uses[e].(*types.Var)
		rhs := astq.Assignments(info, body, v)
		if !ok || depth > 2 || len(rhs) == 0 {
			p.Opaque = true
			return
		}
		for _, r := range rhs {
			p.option(info, body, r, depth+1)
		}
	default:
		p.Opaque = true
	}
}

// message reads the *nats.Msg argument: a literal, or a local variable
// assigned nats.NewMsg or a literal whose Header the function writes.
func (p *Publish) message(info *types.Info, body *ast.BlockStmt, e ast.Expr) {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok {
		e = ast.Unparen(u.X)
	}
	if lit, ok := e.(*ast.CompositeLit); ok {
		p.literal(info, lit)
		return
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		p.Opaque = true
		return
	}
	v, ok := info.Uses[id].(*types.Var)
	rhs := astq.Assignments(info, body, v)
	if !ok || len(rhs) == 0 {
		p.Opaque = true // a parameter, a field, a package variable
		return
	}
	for _, r := range rhs {
		r = ast.Unparen(r)
		if u, ok := r.(*ast.UnaryExpr); ok {
			r = ast.Unparen(u.X)
		}
		switch r := r.(type) {
		case *ast.CompositeLit:
			p.literal(info, r)
		case *ast.CallExpr:
			if fn := astq.Callee(info, r); fn == nil || fn.FullName() != natsPath+".NewMsg" {
				p.Opaque = true
			}
		default:
			p.Opaque = true
		}
	}
	// What the function does with the message besides publishing it: its
	// header writes, and any other use that may set the id out of sight.
	ast.Inspect(body, func(n ast.Node) bool {
		for _, w := range Writes(info, n) {
			if w.Header == nil || !RootedAt(info, w.Header, v) {
				continue
			}
			switch {
			case !w.Const:
				p.Opaque = true
			case strings.EqualFold(w.Name, MsgIDHeader):
				p.IDs = append(p.IDs, w.Value)
			}
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if n == p.Call {
				return true
			}
			for _, a := range n.Args {
				if handed(info, a, v) {
					p.Opaque = true // handed to another function
				}
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && sel.Sel.Name == "Header" && RootedAt(info, sel.X, v) {
					if len(n.Rhs) == len(n.Lhs) {
						if lit, ok := ast.Unparen(n.Rhs[i]).(*ast.CompositeLit); ok {
							p.headerLiteral(info, lit)
							continue
						}
					}
					p.Opaque = true
				}
			}
		}
		return true
	})
}

// literal reads a nats.Msg literal's Header field.
func (p *Publish) literal(info *types.Info, lit *ast.CompositeLit) {
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Header" {
			if hl, ok := ast.Unparen(kv.Value).(*ast.CompositeLit); ok {
				p.headerLiteral(info, hl)
			} else {
				p.Opaque = true
			}
		}
	}
}

// headerLiteral reads a nats.Header literal's entries.
func (p *Publish) headerLiteral(info *types.Info, lit *ast.CompositeLit) {
	for _, w := range Writes(info, lit) {
		switch {
		case !w.Const:
			p.Opaque = true
		case strings.EqualFold(w.Name, MsgIDHeader):
			p.IDs = append(p.IDs, w.Value)
		}
	}
}

// RootedAt reports whether e is v, &v, or a selector path of v (m.Header,
// params.Params).
func RootedAt(info *types.Info, e ast.Expr, v *types.Var) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return info.Uses[x] == v
	case *ast.SelectorExpr:
		return RootedAt(info, x.X, v)
	case *ast.UnaryExpr:
		return RootedAt(info, x.X, v)
	}
	return false
}

// handed reports whether an argument e hands the message v, or its
// header, to the function called: v, &v, v.Header.
func handed(info *types.Info, e ast.Expr, v *types.Var) bool {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok {
		e = ast.Unparen(u.X)
	}
	if sel, ok := e.(*ast.SelectorExpr); ok && sel.Sel.Name == "Header" {
		e = ast.Unparen(sel.X)
	}
	id, ok := e.(*ast.Ident)
	return ok && info.Uses[id] == v
}

// MsgIDRead reports whether call reads the id a JetStream message was
// published with: (nats.Header).Get of the Nats-Msg-Id header, its name a
// constant (nats.MsgIdHdr, jetstream.MsgIDHeader, the string itself; any
// case, as header names are). A redelivery carries the same header.
func MsgIDRead(info *types.Info, call *ast.CallExpr) bool {
	fn := astq.Callee(info, call)
	if fn == nil || fn.FullName() != "("+natsHeader+").Get" || len(call.Args) != 1 {
		return false
	}
	name, ok := astq.StringConst(info, call.Args[0])
	return ok && strings.EqualFold(name, MsgIDHeader)
}
