package retryscope

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"github.com/idemlint/idemlint/internal/prefilter"
	"github.com/idemlint/idemlint/passes/internal/astq"
)

// A consumer helper is a function of the analysed code that receives
// broker messages, hands them to one of its func parameters and acks them
// only after that returns (dendrite's jetstream.JetStreamConsumer(ctx, js,
// subj, durable, batch, f, opts...): PullSubscribe and Fetch, AckSync when
// f returns true, Nak otherwise). The function or method value a caller
// passes there is a consumer of the broker, redelivered as a callback the
// broker's own API runs: a JobHandler scope. Helpers of the package are
// read directly; exported helpers of other packages through
// consumerHelperFact.

// consumerHelper describes a consumer helper.
type consumerHelper struct {
	handler int       // index of the handler parameter
	fw      Framework // the broker client of its messages and acks
}

// consumerHelperFact is exported on an exported function or method that is
// a consumer helper.
type consumerHelperFact struct {
	Handler   int
	Framework Framework
}

func (*consumerHelperFact) AFact() {}

func (f *consumerHelperFact) String() string {
	return fmt.Sprintf("consumes %s messages with argument %d", consumers[f.Framework].name, f.Handler)
}

// messageTypes are the types of a consumed message, by package path and
// name, with the broker client they come from.
var messageTypes = map[string]Framework{
	pkgNATS + ".Msg":               NATSLegacy,
	pkgJetStream + ".Msg":          JetStream,
	pkgAMQP + ".Delivery":          AMQP,
	pkgSarama + ".ConsumerMessage": Sarama,
	pkgKafkaGo + ".Message":        KafkaGo,
	pkgFranz + ".Record":           Franz,
	pkgSQSTypes + ".Message":       SQS,
	pkgPubSubMsgs + ".Message":     PubSub,
}

// messageFramework returns the broker client of a consumed message's type
// (a pointer to one, or a slice of either: messageTypes); 0 for other
// types.
func messageFramework(t types.Type) Framework {
	for {
		s, ok := types.Unalias(t).(*types.Slice)
		if !ok {
			break
		}
		t = s.Elem()
	}
	n := astq.NamedOf(t)
	if n == nil {
		return 0
	}
	return messageTypes[n.Pkg().Path()+"."+n.Name()]
}

// consumerHelperOf returns the consumer helper fn (declared by fd) is:
// a call of one of its func parameters is passed a consumed message (a
// value of a message type, or an expression of one: msg.Data), and the
// function body that holds the call acks a message of the same broker
// after it and never before it. Nil when fn is none.
func (m *model) consumerHelperOf(fn *types.Func, fd *ast.FuncDecl) *consumerHelper {
	sig := fn.Signature()
	params := sig.Params()
	param := func(e ast.Expr) int {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return -1
		}
		for i := range params.Len() {
			if m.info.Uses[id] != params.At(i) || sig.Variadic() && i == params.Len()-1 {
				continue
			}
			if _, ok := params.At(i).Type().Underlying().(*types.Signature); ok {
				return i
			}
		}
		return -1
	}
	var found *consumerHelper
	var walk func(body *ast.BlockStmt)
	walk = func(body *ast.BlockStmt) {
		ast.Inspect(body, func(n ast.Node) bool {
			if lit, ok := n.(*ast.FuncLit); ok {
				walk(lit.Body) // the body that holds a call is its innermost
				return false
			}
			call, ok := n.(*ast.CallExpr)
			if !ok || found != nil {
				return found == nil
			}
			if i := param(call.Fun); i >= 0 {
				if fw := m.passesMessage(call); fw != 0 && m.acksAfter(body, call, fw) {
					found = &consumerHelper{handler: i, fw: fw}
				}
			}
			return true
		})
	}
	walk(fd.Body)
	return found
}

// passesMessage returns the broker client of a consumed message that call
// passes as an argument or in one (msg.Data), or 0.
func (m *model) passesMessage(call *ast.CallExpr) Framework {
	fw := Framework(0)
	for _, a := range call.Args {
		ast.Inspect(a, func(n ast.Node) bool {
			if e, ok := n.(ast.Expr); ok && fw == 0 {
				fw = messageFramework(m.info.TypeOf(e))
			}
			return fw == 0
		})
	}
	return fw
}

// acksAfter reports whether body acks a message of fw after call (and
// nowhere before it: a handler run after the ack is at most once).
func (m *model) acksAfter(body *ast.BlockStmt, call *ast.CallExpr, fw Framework) bool {
	after, before := false, false
	ast.Inspect(body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if fn := m.callee(c); fn != nil && ackOf(fn) == fw {
			after = after || c.Pos() >= call.End()
			before = before || c.End() <= call.Pos()
		}
		return true
	})
	return after && !before
}

// consumerHelpers finds the package's consumer helpers, exports their
// facts, and returns them with those of other packages its calls reach.
func (m *model) consumerHelpers() map[*types.Func]*consumerHelper {
	own := make(map[*types.Func]*consumerHelper)
	for _, f := range m.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, ok := m.info.Defs[fd.Name].(*types.Func)
			if !ok || !takesFunc(fn.Signature()) {
				continue
			}
			m.consumerHelperDecl(own, fn, fd)
		}
	}
	return own
}

// consumerHelperDecl adds fn to own when it is a consumer helper, and
// exports its fact.
func (m *model) consumerHelperDecl(own map[*types.Func]*consumerHelper, fn *types.Func, fd *ast.FuncDecl) {
	h := m.consumerHelperOf(fn, fd)
	if h == nil {
		return
	}
	own[fn] = h
	if exportsHelpers(m.pass.Pkg.Path(), m.fileName()) && fn.Exported() {
		m.pass.ExportObjectFact(fn, &consumerHelperFact{Handler: h.handler, Framework: h.fw})
	}
}

// mayAck reports, from the lexicon of a package and its import closure,
// whether it may call an ack of a consumed message: a method by the name of
// one (a consumer helper must call one), in a package that depends on a
// package declaring one.
func mayAck(p *prefilter.Package, lex *prefilter.Lexicon) bool {
	named := false
	for name := range acks {
		if lex.Calls[name[strings.LastIndexByte(name, '.')+1:]] {
			named = true
			break
		}
	}
	return named && p.DependsOn(func(path string) bool {
		for name := range acks {
			recv, _, _ := strings.Cut(strings.TrimLeft(name, "(*"), ")")
			if path == recv[:strings.LastIndexByte(recv, '.')] {
				return true
			}
		}
		return false
	})
}

// consumerHelperCall returns the consumer helper that call calls: one of
// the package's (own) or one with a fact.
func (m *model) consumerHelperCall(own map[*types.Func]*consumerHelper, call *ast.CallExpr) *consumerHelper {
	fn := m.callee(call)
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	h := own[fn]
	if h == nil && fn.Pkg() != m.pass.Pkg {
		var f consumerHelperFact
		if m.pass.ImportObjectFact(fn, &f) {
			h = &consumerHelper{handler: f.Handler, fw: f.Framework}
		}
	}
	if h == nil || h.handler >= len(call.Args) || consumers[h.fw].kind == "" {
		return nil
	}
	return h
}

// takesFunc reports whether sig has a parameter of func type.
func takesFunc(sig *types.Signature) bool {
	for i := range sig.Params().Len() {
		if _, ok := sig.Params().At(i).Type().Underlying().(*types.Signature); ok {
			return true
		}
	}
	return false
}
