package retryscope

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// Message consumers: a broker that delivers at least once redelivers a
// message whose handler did not ack it (a crash, a timeout, a rebalance),
// so the code between receiving a message and acking it is retried by the
// broker exactly as a job handler is by its queue. The model gives each
// consumer a JobHandler scope whose Job.Framework is the broker's client
// (Framework.Consumer reports true); see consumers.md in the reference.
const (
	// Sarama is github.com/IBM/sarama: a ConsumerGroupHandler's
	// ConsumeClaim method; unmarked messages are read again after a
	// restart or a rebalance.
	Sarama Framework = Temporal + 1 + iota
	// KafkaGo is github.com/segmentio/kafka-go: a loop that calls
	// (*kafka.Reader).FetchMessage (and commits after the work).
	// ReadMessage commits before it returns: at most once, no scope.
	KafkaGo
	// Franz is github.com/twmb/franz-go/pkg/kgo: a loop that polls
	// (PollFetches, PollRecords); autocommit commits the previous poll.
	Franz
	// JetStream is github.com/nats-io/nats.go/jetstream: a Consume
	// callback; AckExplicit is the default policy.
	JetStream
	// NATSLegacy is the legacy JetStream API of github.com/nats-io/nats.go:
	// a JetStream Subscribe or QueueSubscribe callback (core NATS
	// subscriptions are at most once: no scope).
	NATSLegacy
	// AMQP is github.com/rabbitmq/amqp091-go: a range over the deliveries of
	// Consume or ConsumeWithContext with autoAck false.
	AMQP
	// SQS is github.com/aws/aws-sdk-go-v2/service/sqs: a range over the
	// Messages of ReceiveMessage; a message not deleted comes back after
	// its visibility timeout.
	SQS
	// LambdaSQS is an aws-lambda-go handler of events.SQSEvent passed to
	// lambda.Start: a returned error sends the whole batch back.
	LambdaSQS
	// PubSub is cloud.google.com/go/pubsub/v2: a Receive callback.
	PubSub
)

// Import paths of the consumers' packages.
const (
	pkgSarama     = "github.com/IBM/sarama"
	pkgKafkaGo    = "github.com/segmentio/kafka-go"
	pkgFranz      = "github.com/twmb/franz-go/pkg/kgo"
	pkgJetStream  = "github.com/nats-io/nats.go/jetstream"
	pkgNATS       = "github.com/nats-io/nats.go"
	pkgAMQP       = "github.com/rabbitmq/amqp091-go"
	pkgSQS        = "github.com/aws/aws-sdk-go-v2/service/sqs"
	pkgSQSTypes   = "github.com/aws/aws-sdk-go-v2/service/sqs/types"
	pkgLambda     = "github.com/aws/aws-lambda-go/lambda"
	pkgEvents     = "github.com/aws/aws-lambda-go/events"
	pkgPubSub     = "cloud.google.com/go/pubsub/v2"
	pkgPubSubMsgs = "cloud.google.com/go/internal/pubsub" // where pubsub.Message (an alias) is declared
)

// consumer is what the model knows of one consumer library.
type consumer struct {
	name, module, kind string
	// id names the message's stable id, the inbox key.
	id string
}

var consumers = map[Framework]consumer{
	Sarama:     {"sarama", pkgSarama, "sarama consumer", "msg.Topic, msg.Partition and msg.Offset"},
	KafkaGo:    {"kafka-go", pkgKafkaGo, "kafka-go reader loop", "m.Topic, m.Partition and m.Offset"},
	Franz:      {"franz-go", pkgFranz, "franz-go poll loop", "r.Topic, r.Partition and r.Offset"},
	JetStream:  {"jetstream", pkgJetStream, "JetStream consumer", "Metadata().Sequence.Stream or the Nats-Msg-Id header"},
	NATSLegacy: {"nats", pkgNATS, "JetStream subscription", "Metadata().Sequence.Stream or the Nats-Msg-Id header"},
	AMQP:       {"amqp091", pkgAMQP, "amqp091 delivery loop", "d.MessageId (set by the publisher)"},
	SQS:        {"sqs", pkgSQS, "SQS receive loop", "m.MessageId"},
	LambdaSQS:  {"lambda", pkgLambda, "Lambda SQS handler", "record.MessageId"},
	PubSub:     {"pubsub", pkgPubSub, "Pub/Sub receiver", "m.ID"},
}

// Consumer reports whether f is a message consumer's broker client rather
// than a job framework.
func (f Framework) Consumer() bool { _, ok := consumers[f]; return ok }

// MessageID names the stable id of f's messages, the key to dedupe on
// (with the runtime's idempotency.Inbox) and to derive downstream keys
// from; "" for job frameworks.
func (f Framework) MessageID() string { return consumers[f].id }

// MessageIDField reports whether v, a field or constant, carries a
// consumed message's stable id (stable) or a value that changes with each
// delivery (perDelivery: a receipt handle, a delivery tag, a delivery
// count), which must not key anything.
func MessageIDField(v types.Object) (stable, perDelivery bool) {
	if v == nil || v.Pkg() == nil {
		return false, false
	}
	switch path, name := v.Pkg().Path(), v.Name(); path {
	case pkgSarama, pkgKafkaGo, pkgFranz:
		return name == "Offset", false
	case pkgJetStream, pkgNATS:
		if name == "MsgIDHeader" {
			return true, false
		}
		if name == "NumDelivered" {
			return false, true
		}
		if f, ok := v.(*types.Var); ok && f.IsField() && name == "Stream" {
			return true, false // SequencePair.Stream; MsgMetadata.Stream names the stream
		}
		return false, false
	case pkgAMQP:
		return name == "MessageId", name == "DeliveryTag"
	case pkgSQSTypes, pkgEvents:
		return name == "MessageId", name == "ReceiptHandle"
	case pkgPubSubMsgs:
		return name == "ID", name == "DeliveryAttempt"
	}
	return false, false
}

// consumers adds a scope for each message consumer of the package.
func (m *model) consumers() {
	relevant := false
	for _, imp := range m.pass.Pkg.Imports() {
		switch imp.Path() {
		case pkgSarama, pkgKafkaGo, pkgFranz, pkgJetStream, pkgNATS, pkgAMQP, pkgSQS, pkgLambda, pkgPubSub:
			relevant = true
		}
	}
	cf := &consumerFinder{m: m}
	own := m.consumerHelpers()
	for _, c := range m.cands {
		if h := m.consumerHelperCall(own, c.call); h != nil {
			cf.callback(h.fw, c.call.Args[h.handler])
		}
	}
	for _, f := range m.pass.Files {
		if !relevant {
			break
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				cf.decl(fd)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				cf.call(n)
			case *ast.ForStmt:
				cf.loop(n, n.Body)
			case *ast.RangeStmt:
				cf.rangeLoop(n)
			}
			return true
		})
	}
	for _, s := range cf.out {
		if old := m.res.byNode[s.Node]; old != nil && old.Kind != Loop {
			continue
		}
		m.res.replace(s)
	}
}

type consumerFinder struct {
	m    *model
	out  []*Scope
	seen map[ast.Node]bool
}

// add makes the scope of a consumer whose per-message code is body in the
// function or loop node; the code after an unconditional ack at the top of
// body is not in it (at most once), and a body that acks before any call
// makes no scope.
func (cf *consumerFinder) add(fw Framework, name string, node ast.Node, pos token.Pos, fn ast.Node, body *ast.BlockStmt, op *types.Func) {
	if body == nil {
		return
	}
	if cf.seen == nil {
		cf.seen = make(map[ast.Node]bool)
	}
	if cf.seen[node] {
		return
	}
	cf.seen[node] = true
	body = cf.beforeAck(fw, body)
	if body == nil {
		return
	}
	c := consumers[fw]
	s := &Scope{
		Kind: JobHandler, Pos: pos, Node: node, Func: fn, Body: body, Op: op, Library: c.module, Entry: c.kind,
		Job: &Job{Framework: fw, Name: name},
		// Redelivered without limit by default, or up to a broker setting
		// the code does not show (MaxDeliver, a redrive policy, a delivery
		// limit): the checks on caps, deadlines and waits never report on it.
		Cap:      Cap{Kind: CapUnknown},
		Deadline: Deadline{Kind: DeadlineUnknown},
		Waits:    []Wait{{Kind: WaitUnknown, Pos: pos, Node: node, Library: true, Setting: "the broker's redelivery"}},
		Trigger:  TriggerUnknown,
	}
	cf.out = append(cf.out, s)
}

// beforeAck returns the part of body that runs before the message is
// acked: body itself, or, when a top-level statement of body acks
// unconditionally, the statements before it (nil when none of them calls
// anything but the broker's client).
func (cf *consumerFinder) beforeAck(fw Framework, body *ast.BlockStmt) *ast.BlockStmt {
	for i, st := range body.List {
		if !cf.acks(fw, st) {
			continue
		}
		work := false
		for _, before := range body.List[:i] {
			if cf.works(fw, before) {
				work = true
			}
		}
		if !work {
			return nil
		}
		return &ast.BlockStmt{Lbrace: body.Lbrace, List: body.List[:i], Rbrace: st.Pos()}
	}
	return body
}

// acks reports whether the statement st is an unconditional ack: a call of
// the broker's ack (or a value assigned from it, or the init of an if).
func (cf *consumerFinder) acks(fw Framework, st ast.Stmt) bool {
	e := astq.StmtExpr(st)
	if ifst, ok := st.(*ast.IfStmt); ok {
		if init, ok := ifst.Init.(*ast.AssignStmt); ok {
			e = astq.StmtExpr(init) // if err := msg.Ack(); err != nil
		}
	}
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	return ok && cf.isAck(fw, call)
}

// isAck reports whether call acks a message of fw.
func (cf *consumerFinder) isAck(fw Framework, call *ast.CallExpr) bool {
	fn := cf.m.callee(call)
	return fn != nil && ackOf(fn) != 0
}

// acks are the calls that ack (or settle for good) a consumed message, by
// full name, with the broker client they belong to.
var acks = map[string]Framework{
	"(" + pkgSarama + ".ConsumerGroupSession).MarkMessage": Sarama,
	"(" + pkgSarama + ".ConsumerGroupSession).MarkOffset":  Sarama,
	"(" + pkgSarama + ".ConsumerGroupSession).Commit":      Sarama,
	"(*" + pkgKafkaGo + ".Reader).CommitMessages":          KafkaGo,
	"(*" + pkgFranz + ".Client).CommitRecords":             Franz,
	"(*" + pkgFranz + ".Client).CommitUncommittedOffsets":  Franz,
	"(" + pkgJetStream + ".Msg).Ack":                       JetStream,
	"(" + pkgJetStream + ".Msg).DoubleAck":                 JetStream,
	"(" + pkgJetStream + ".Msg).Term":                      JetStream,
	"(*" + pkgNATS + ".Msg).Ack":                           NATSLegacy,
	"(*" + pkgNATS + ".Msg).AckSync":                       NATSLegacy,
	"(*" + pkgNATS + ".Msg).Term":                          NATSLegacy,
	"(" + pkgAMQP + ".Delivery).Ack":                       AMQP,
	"(" + pkgAMQP + ".Delivery).Reject":                    AMQP,
	"(*" + pkgAMQP + ".Channel).Ack":                       AMQP,
	"(*" + pkgSQS + ".Client).DeleteMessage":               SQS,
	"(*" + pkgPubSubMsgs + ".Message).Ack":                 PubSub,
	"(*" + pkgPubSubMsgs + ".Message).AckWithResult":       PubSub,
}

// ackOf returns the broker client whose message fn acks, or 0.
func ackOf(fn *types.Func) Framework { return acks[fn.FullName()] }

// works reports whether st calls something other than the broker's client
// and builtins: a read of the message (Data, Metadata) is no work.
func (cf *consumerFinder) works(fw Framework, st ast.Stmt) bool {
	work := false
	ast.Inspect(st, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || work {
			return !work
		}
		if cf.m.isConversion(call) {
			return true
		}
		fn := cf.m.callee(call)
		if fn == nil {
			if _, builtin := rootObj(cf.m.info, call.Fun).(*types.Builtin); !builtin {
				work = true
			}
			return true
		}
		if fn.Pkg() == nil {
			return true
		}
		switch fn.Pkg().Path() {
		case pkgSarama, pkgKafkaGo, pkgFranz, pkgJetStream, pkgNATS, pkgAMQP, pkgSQS, pkgPubSubMsgs, pkgPubSub:
			return true
		}
		work = true
		return true
	})
	return work
}

// decl finds sarama ConsumeClaim methods.
func (cf *consumerFinder) decl(fd *ast.FuncDecl) {
	fn, ok := cf.m.info.Defs[fd.Name].(*types.Func)
	if !ok || fn.Name() != "ConsumeClaim" {
		return
	}
	sig := fn.Signature()
	p := sig.Params()
	if sig.Recv() == nil || p.Len() != 2 || sig.Results().Len() != 1 ||
		!astq.IsNamed(p.At(0).Type(), pkgSarama, "ConsumerGroupSession") || !astq.IsNamed(p.At(1).Type(), pkgSarama, "ConsumerGroupClaim") {
		return
	}
	// The per-message code is the loop over claim.Messages() when there is
	// one: an ack before the work there is at most once.
	body := fd.Body
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if r, ok := n.(*ast.RangeStmt); ok {
			if call, ok := ast.Unparen(r.X).(*ast.CallExpr); ok && cf.m.calleeName(call) == "("+pkgSarama+".ConsumerGroupClaim).Messages" {
				body = r.Body
			}
		}
		return true
	})
	if body != fd.Body && cf.beforeAck(Sarama, body) == nil {
		return
	}
	cf.add(Sarama, fn.Name(), fd, fd.Name.Pos(), fd, fd.Body, fn)
}

// call finds the callbacks registered with a broker client.
func (cf *consumerFinder) call(call *ast.CallExpr) {
	fn := cf.m.callee(call)
	if fn == nil || fn.Pkg() == nil {
		return
	}
	switch fn.FullName() {
	case "(" + pkgJetStream + ".Consumer).Consume":
		if len(call.Args) >= 1 && !cf.m.uses(pkgJetStream, "AckNonePolicy") {
			cf.callback(JetStream, call.Args[0])
		}
	case "(" + pkgNATS + ".JetStream).Subscribe":
		if len(call.Args) >= 2 {
			cf.callback(NATSLegacy, call.Args[1])
		}
	case "(" + pkgNATS + ".JetStream).QueueSubscribe":
		if len(call.Args) >= 3 {
			cf.callback(NATSLegacy, call.Args[2])
		}
	case pkgLambda + ".Start", pkgLambda + ".StartWithOptions":
		if len(call.Args) >= 1 {
			cf.callback(LambdaSQS, call.Args[0])
		}
	case pkgLambda + ".StartWithContext":
		if len(call.Args) >= 2 {
			cf.callback(LambdaSQS, call.Args[1])
		}
	case "(*" + pkgPubSub + ".Subscriber).Receive":
		if len(call.Args) == 2 {
			cf.callback(PubSub, call.Args[1])
		}
	}
}

// callback adds the scope of a handler passed to a broker client: a
// function literal or a function or method of the package (a Lambda
// handler only when it takes an events.SQSEvent).
func (cf *consumerFinder) callback(fw Framework, e ast.Expr) {
	e = ast.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok && cf.m.isConversion(call) && len(call.Args) == 1 {
		e = ast.Unparen(call.Args[0]) // jetstream.MessageHandler(f)
	}
	switch e := e.(type) {
	case *ast.FuncLit:
		if fw == LambdaSQS && !takesSQSEvent(cf.m.info.TypeOf(e)) {
			return
		}
		cf.add(fw, "func literal", e, e.Type.Func, e, e.Body, nil)
	case *ast.Ident, *ast.SelectorExpr:
		fn, ok := rootObj(cf.m.info, e).(*types.Func)
		if !ok {
			return
		}
		fd := cf.m.funcs[fn.Origin()]
		if fd == nil || (fw == LambdaSQS && !takesSQSEvent(fn.Type())) {
			return
		}
		cf.add(fw, fn.Name(), fd, fd.Name.Pos(), fd, fd.Body, fn)
	}
}

// takesSQSEvent reports whether t is a function with an events.SQSEvent
// parameter.
func takesSQSEvent(t types.Type) bool {
	sig, ok := types.Unalias(t).(*types.Signature)
	if !ok {
		return false
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if astq.IsNamed(sig.Params().At(i).Type(), pkgEvents, "SQSEvent") {
			return true
		}
	}
	return false
}

// loop finds kafka-go and franz-go receive loops: a loop whose body, outside
// function literals, fetches (FetchMessage) or polls (PollFetches,
// PollRecords).
func (cf *consumerFinder) loop(n ast.Stmt, body *ast.BlockStmt) {
	if body == nil {
		return
	}
	fw := Framework(0)
	astq.InspectOwn(body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return x == n
		case *ast.CallExpr:
			switch cf.m.calleeName(x) {
			case "(*" + pkgKafkaGo + ".Reader).FetchMessage":
				fw = KafkaGo
			case "(*" + pkgFranz + ".Client).PollFetches", "(*" + pkgFranz + ".Client).PollRecords":
				if !cf.m.uses(pkgFranz, "GreedyAutoCommit") {
					fw = Franz
				}
			}
		}
		return true
	})
	if fw == 0 {
		return
	}
	fn, _ := cf.enclosing(n)
	cf.add(fw, loopName(fn), n, n.Pos(), fn, body, nil)
}

// rangeLoop finds amqp091 delivery loops (with autoAck false) and SQS
// message loops, and the kafka-go and franz-go loops written as ranges.
func (cf *consumerFinder) rangeLoop(r *ast.RangeStmt) {
	t := cf.m.info.TypeOf(r.X)
	if t == nil {
		return
	}
	switch u := types.Unalias(t).Underlying().(type) {
	case *types.Chan:
		if astq.IsNamed(u.Elem(), pkgAMQP, "Delivery") && cf.manualAck(r) {
			fn, _ := cf.enclosing(r)
			cf.add(AMQP, loopName(fn), r, r.Pos(), fn, r.Body, nil)
			return
		}
	case *types.Slice:
		if astq.IsNamed(u.Elem(), pkgSQSTypes, "Message") {
			if sel, ok := ast.Unparen(r.X).(*ast.SelectorExpr); ok && sel.Sel.Name == "Messages" && astq.IsNamed(cf.m.info.TypeOf(sel.X), pkgSQS, "ReceiveMessageOutput") {
				fn, _ := cf.enclosing(r)
				cf.add(SQS, loopName(fn), r, r.Pos(), fn, r.Body, nil)
			}
			return
		}
	}
	cf.loop(r, r.Body)
}

// manualAck reports whether the deliveries r ranges over come from a
// Consume or ConsumeWithContext call of its function with autoAck the
// constant false.
func (cf *consumerFinder) manualAck(r *ast.RangeStmt) bool {
	var src ast.Expr = r.X
	if id, ok := ast.Unparen(r.X).(*ast.Ident); ok {
		v, ok := cf.m.info.Uses[id].(*types.Var)
		_, body := cf.enclosing(r)
		if !ok || body == nil {
			return false
		}
		rhs := astq.Assignments(cf.m.info, body, v)
		if len(rhs) != 1 {
			return false
		}
		src = rhs[0]
	}
	call, ok := ast.Unparen(src).(*ast.CallExpr)
	if !ok {
		return false
	}
	i := -1
	switch cf.m.calleeName(call) {
	case "(*" + pkgAMQP + ".Channel).Consume":
		i = 2
	case "(*" + pkgAMQP + ".Channel).ConsumeWithContext":
		i = 3
	}
	if i < 0 || len(call.Args) <= i {
		return false
	}
	tv, ok := cf.m.info.Types[call.Args[i]]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && !constant.BoolVal(tv.Value)
}

// loopName is the Job.Name of a receive loop in fn: "in" and the
// function's name.
func loopName(fn ast.Node) string {
	if fd, ok := fn.(*ast.FuncDecl); ok {
		return "in " + fd.Name.Name
	}
	return "in a func literal"
}

// enclosing returns the function declaration or literal whose body holds n,
// the innermost, with its body.
func (cf *consumerFinder) enclosing(n ast.Node) (ast.Node, *ast.BlockStmt) {
	var fn ast.Node
	var body *ast.BlockStmt
	for _, f := range cf.m.pass.Files {
		if f.Pos() > n.Pos() || n.Pos() >= f.End() {
			continue
		}
		ast.Inspect(f, func(x ast.Node) bool {
			if x == nil || x.Pos() > n.Pos() || n.Pos() >= x.End() {
				return false
			}
			switch x := x.(type) {
			case *ast.FuncDecl:
				fn, body = x, x.Body
			case *ast.FuncLit:
				fn, body = x, x.Body
			}
			return true
		})
	}
	return fn, body
}

// uses reports whether the package refers to the object path.name.
func (m *model) uses(path, name string) bool {
	for id, o := range m.info.Uses {
		if id.Name == name && o.Pkg() != nil && o.Pkg().Path() == path {
			return true
		}
	}
	return false
}

// InboxHandler returns the index of the handler argument when fn runs it
// at most once per message id with the runtime's inbox, committing its
// database writes with the id: (*idempotency.Inbox).Consume and the broker
// adapters' Handle (runtime/inboxnats, runtime/inboxamqp).
func InboxHandler(fn *types.Func) (int, bool) {
	switch fn.FullName() {
	case "(*github.com/idemlint/idemlint/runtime/idempotency.Inbox).Consume":
		return 2, true
	case "github.com/idemlint/idemlint/runtime/inboxnats.Handle", "github.com/idemlint/idemlint/runtime/inboxamqp.Handle":
		return 4, true
	case "github.com/idemlint/idemlint/runtime/inboxnats.Handler":
		return 3, true
	}
	return 0, false
}
