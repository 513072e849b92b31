package retryscope

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
)

// Kind says what form a retry scope takes.
type Kind uint8

const (
	// Loop is a hand-written for loop that repeats an attempt after it fails.
	Loop Kind = iota + 1
	// LibraryCall is a call to a retry library that repeats an operation
	// passed to it (retry.Do(op, ...), backoff.Retry(op, b), ...).
	LibraryCall
	// Client is a client that retries the requests sent through it by itself
	// (a go-retryablehttp Client). It has no body; its sends are its attempts.
	Client
	// JobHandler is a background job handler that its framework runs again
	// when it fails (an asynq handler, a river worker, a Temporal activity).
	// Node and Func are its *ast.FuncDecl or *ast.FuncLit, Body its body,
	// Job says which framework; retries disabled in the package (asynq
	// MaxRetry(0), river MaxAttempts: 1, Temporal MaximumAttempts: 1) make
	// no scope. A message consumer that its broker redelivers (a sarama
	// ConsumeClaim, a kafka-go or franz-go receive loop, a JetStream,
	// Pub/Sub or Lambda SQS callback, an amqp091 or SQS delivery loop) is
	// a JobHandler too, whose Job.Framework.Consumer() is true: Node is
	// then its function, or its loop, and Body the code that runs before
	// the message is acked (see consumers.go).
	JobHandler
)

func (k Kind) String() string {
	switch k {
	case Loop:
		return "loop"
	case LibraryCall:
		return "library call"
	case Client:
		return "retrying client"
	case JobHandler:
		return "job handler"
	}
	return "invalid"
}

// CapKind classifies a scope's attempt cap.
type CapKind uint8

const (
	// CapUnknown: the scope may be bounded in ways the model cannot see
	// (an exit on a condition it does not understand, an option it cannot
	// evaluate). Checks never report on an unknown cap.
	CapUnknown CapKind = iota
	// CapNone: nothing limits the number of attempts.
	CapNone
	// CapKnown: at most N attempts, N known.
	CapKnown
	// CapBounded: attempts are limited by a value the model cannot evaluate
	// (a variable, a field, a parameter).
	CapBounded
)

func (k CapKind) String() string {
	return [...]string{"unknown", "none", "known", "bounded"}[k]
}

// Cap is a scope's attempt cap.
type Cap struct {
	Kind CapKind
	N    int       // attempts in all, the first included, when Kind is CapKnown
	Pos  token.Pos // where the cap is set (counter test, option), if anywhere
}

func (c Cap) String() string {
	if c.Kind == CapKnown {
		return fmt.Sprintf("%d attempts", c.N)
	}
	return c.Kind.String()
}

// DeadlineKind classifies what stops a scope in time.
type DeadlineKind uint8

const (
	// DeadlineUnknown: the model cannot tell.
	DeadlineUnknown DeadlineKind = iota
	// DeadlineNone: nothing stops the scope in time.
	DeadlineNone
	// DeadlineCaller: the scope stops when a context it did not make is
	// done: the caller's deadline, if the caller set one.
	DeadlineCaller
	// DeadlineInScope: a deadline made in the function (context.WithTimeout,
	// WithDeadline, time.After, a time comparison) stops the scope.
	DeadlineInScope
	// DeadlineLibrary: a library's max-elapsed setting stops the scope.
	DeadlineLibrary
)

func (k DeadlineKind) String() string {
	return [...]string{"unknown", "none", "caller's context", "in scope", "library max elapsed time"}[k]
}

// Deadline is what stops a scope in time.
type Deadline struct {
	Kind DeadlineKind
	Pos  token.Pos // where it is set or checked, if anywhere
	// Unbounded, for a caller's context that a scope with no cap ends on,
	// is a context with no deadline that code of the package (not its
	// tests) passes for it, directly or through the context parameters of
	// its callers: context.Background() in the wrapper that calls the
	// function (Subscribe calling SubscribeWithContext), or a WithCancel
	// of one. On that path nothing ends the retry.
	Unbounded ast.Expr
	// ctx is the context parameter a caller's deadline comes from.
	ctx types.Object
	// stop is the parameter field holding the stop channel a caller's
	// deadline comes from (<-opts.cancel).
	stop *paramField
}

// WaitKind classifies a wait between attempts.
type WaitKind uint8

const (
	// WaitUnknown: the duration comes from something the model cannot see
	// into. Checks never report on it.
	WaitUnknown WaitKind = iota
	// WaitConstant: the same duration every time, no randomness.
	WaitConstant
	// WaitGrowth: grows deterministically (<<, *= 2, math.Pow, a
	// non-jittering backoff), no randomness.
	WaitGrowth
	// WaitJittered: randomised (math/rand, math/rand/v2, crypto/rand, a
	// jittering library setting).
	WaitJittered
	// WaitServer: directed by the server (Retry-After).
	WaitServer
	// WaitNone: no wait at all between attempts (a hot loop).
	WaitNone
)

func (k WaitKind) String() string {
	return [...]string{"unknown", "constant", "deterministic growth", "jittered", "server-directed", "none"}[k]
}

// Wait is one place where a scope waits between attempts, or the library
// setting that decides its waits.
type Wait struct {
	Kind WaitKind
	Pos  token.Pos // the sleep, the timer, or the library option
	Node ast.Node  // the waiting expression or the option's call
	// Library is true for a wait decided by a library setting rather than a
	// sleep in the code.
	Library bool
	// Setting describes a library setting, e.g. "retry.FixedDelay".
	Setting string
}

// Trigger says what makes a scope try again, where visible.
type Trigger uint8

const (
	// TriggerUnknown: not visible (a library's classifier, a predicate).
	TriggerUnknown Trigger = iota
	// TriggerError: any error from the attempt.
	TriggerError
	// TriggerStatus: an HTTP status class, possibly besides errors.
	TriggerStatus
)

// Scope is one retry scope.
type Scope struct {
	Kind Kind
	// Pos is where checks report on the scope as a whole: the for keyword,
	// or the library call's function expression.
	Pos token.Pos
	// Node is the *ast.ForStmt or *ast.RangeStmt of a loop, or the
	// *ast.CallExpr of a library call or a client's construction.
	Node ast.Node
	// Func is the function declaring the scope: *ast.FuncDecl or *ast.FuncLit.
	Func ast.Node
	// Body is the repeated code when it is in this package: the loop body, or
	// the body of the operation passed to the library (a func literal, or a
	// function or method declared in this package). Nil for clients and for
	// operations declared elsewhere.
	Body *ast.BlockStmt
	// Op is the operation when it is a named function or method value.
	Op *types.Func
	// OpArg is the index of the operation among the arguments of a
	// LibraryCall scope's call (the table's Library.Ops).
	OpArg int
	// Library is the import path of the retry library or job framework
	// (the Temporal SDK's module path for Temporal), "" for loops.
	Library string
	// Func name of the library entry point, e.g. retry-go v4's
	// github.com/avast/retry-go/v4.Do;
	// for a JobHandler, what its framework calls it ("asynq handler",
	// "river worker", "Temporal activity").
	Entry string
	// Name is Entry as messages spell it, by package name ("retry.Do",
	// "(*retry.Retrier).Do"); for a JobHandler, Entry.
	Name string

	Cap      Cap
	Deadline Deadline
	Waits    []Wait
	Trigger  Trigger

	// Job describes a JobHandler scope; nil for the other kinds.
	Job *Job

	// GRPC describes the connection of a Client scope made by a gRPC dial
	// (grpc.NewClient, Dial, DialContext); nil for the other scopes.
	GRPC *GRPCConn

	// Helper is set on the call of a retry helper of the analysed code (a
	// function that retries its func argument in a loop, of this package
	// or, through a fact, of another): the scope's cap, deadline and waits
	// are the helper loop's, and its Body the operation passed. Findings
	// on the bounds and waits belong to the helper's loop itself.
	Helper *types.Func
	// CapArg, on a helper call, is the argument field that leaves the
	// helper loop's cap untaken (argfields.go: nats.go's reset passing
	// attempts: c.cfg.MaxResetAttempts, -1 by default, to retryWithBackoff,
	// which caps only when attempts > 0): the call's own arguments make
	// the retry uncapped, so the finding is the call's.
	CapArg ast.Expr
	// capGate is the parameter field a loop's cap requires to be positive.
	capGate *paramField

	// NotFor is set on a loop that is not a for statement: a goto back to
	// a label, or a function calling itself again after a failure. Node
	// is then a synthetic *ast.ForStmt that is not in the file's syntax,
	// whose Body holds the repeated statements; Pos is the label, the
	// recursive call or the time.AfterFunc call that reschedules it.
	NotFor bool
	// jump says how a NotFor loop starts its next pass.
	jump *jump
}

// Counter returns the variable a loop scope counts its passes in: the one
// its for statement's post statement steps (attempt++, n--, i += 1), or the
// key of its range over an integer; nil for other scopes and loops.
func (s *Scope) Counter(info *types.Info) types.Object {
	if s.Kind != Loop || s.NotFor {
		return nil
	}
	var id ast.Expr
	switch l := s.Node.(type) {
	case *ast.ForStmt:
		switch p := l.Post.(type) {
		case *ast.IncDecStmt:
			id = p.X
		case *ast.AssignStmt:
			if len(p.Lhs) == 1 && (p.Tok == token.ADD_ASSIGN || p.Tok == token.SUB_ASSIGN) {
				id = p.Lhs[0]
			}
		}
	case *ast.RangeStmt:
		if t, ok := info.Types[l.X]; ok && isInteger(t.Type) {
			id = l.Key
		}
	}
	v, ok := ast.Unparen(id).(*ast.Ident)
	if !ok {
		return nil
	}
	if o := info.ObjectOf(v); o != nil {
		if _, isVar := o.(*types.Var); isVar {
			return o
		}
	}
	return nil
}

// Restarts reports whether st, a statement of a loop that is not a for
// statement (NotFor), starts the loop's next pass as continue would: the
// return of a recursion's call of itself, or the statement whose
// time.AfterFunc reschedules the function. A goto is a *ast.BranchStmt,
// seen as such.
func (s *Scope) Restarts(st ast.Stmt) bool {
	if s.jump == nil {
		return false
	}
	if r, ok := st.(*ast.ReturnStmt); ok && s.jump.recur[r] {
		return true
	}
	return s.jump.resched[st] != nil
}

// Contains reports whether pos lies in the scope's repeated code.
func (s *Scope) Contains(pos token.Pos) bool {
	return s.Body != nil && s.Body.Pos() <= pos && pos < s.Body.End()
}

// Bounded reports whether the scope has an attempt cap or a deadline of its
// own (not only a caller's context).
func (s *Scope) Bounded() bool {
	switch s.Cap.Kind {
	case CapKnown, CapBounded, CapUnknown:
		return true
	}
	switch s.Deadline.Kind {
	case DeadlineInScope, DeadlineLibrary, DeadlineUnknown:
		return true
	}
	return false
}

// Result is the retry model of one package.
type Result struct {
	scopes []*Scope
	byNode map[ast.Node]*Scope
	// the calls of retry wrappers (see WrapperCalls)
	wrapped      map[ast.Node]*Scope
	wrappedOrder []*Scope
	flows        *flows // see flows.go
	// the gRPC dials (see GRPCConn) and the retry options of gRPC calls
	grpcConns map[*ast.CallExpr]*GRPCConn
	grpcOrder []*GRPCConn
	grpcCalls map[*ast.CallExpr]*GRPCOptions
	// the fields set on each go-retryablehttp client (see ClientSettings)
	clientSets map[*Scope]map[string][]ast.Expr
	// the cap each RetryMax value the model read gives (retryMaxCap)
	clientCaps map[ast.Expr]Cap
	// the def index of each outermost function (see Defs)
	info *types.Info
	defs map[ast.Node]*DefIndex
	// the package's files and the call sites of its functions (see ArgsOf)
	pkg       *types.Package
	files     []*ast.File
	sites     *callSites
	paramFunc map[*types.Var]*types.Func
	// model answers FieldValues and FieldReach (fieldvalues.go)
	model *model
}

// Scopes returns every retry scope of the package in source order.
func (r *Result) Scopes() []*Scope { return r.scopes }

// WrapperCalls returns, in source order, the calls of retry wrappers: a
// function that hands its func parameter to another retry rather than
// looping itself (go-containerregistry's internal retry.Retry, around its
// vendored wait.ExponentialBackoff; gcrane's backoffErrors, around
// retry.Retry). Each is a LibraryCall scope with Helper set, its Body the
// operation passed, its cap, deadline and waits those of the retry the
// wrapper reaches. They are not among Scopes: only nestedretry reads them
// (as outer layers); the bounds and waits belong to the inner retry, and
// the other checks do not yet judge the operations passed.
func (r *Result) WrapperCalls() []*Scope { return r.wrappedOrder }

func (r *Result) addWrapped(s *Scope) {
	if r.wrapped == nil {
		r.wrapped = make(map[ast.Node]*Scope)
	}
	r.wrapped[s.Node] = s
	r.wrappedOrder = append(r.wrappedOrder, s)
	sort.SliceStable(r.wrappedOrder, func(i, j int) bool { return r.wrappedOrder[i].Pos < r.wrappedOrder[j].Pos })
}

// Of returns the scope whose Node is n, or nil.
func (r *Result) Of(n ast.Node) *Scope { return r.byNode[n] }

// Enclosing returns the scopes whose repeated code contains pos, innermost
// first.
func (r *Result) Enclosing(pos token.Pos) []*Scope {
	var out []*Scope
	for _, s := range r.scopes {
		if s.Contains(pos) {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Body.Pos() > out[j].Body.Pos() })
	return out
}

// Innermost returns the innermost scope whose repeated code contains pos,
// or nil.
func (r *Result) Innermost(pos token.Pos) *Scope {
	if s := r.Enclosing(pos); len(s) > 0 {
		return s[0]
	}
	return nil
}

func (r *Result) add(s *Scope) {
	if r.byNode[s.Node] != nil {
		return
	}
	r.byNode[s.Node] = s
	r.scopes = append(r.scopes, s)
}

// replace adds s, in place of the scope of the same Node if there is one.
func (r *Result) replace(s *Scope) {
	if old := r.byNode[s.Node]; old != nil {
		for i, o := range r.scopes {
			if o == old {
				r.scopes[i] = s
			}
		}
		r.byNode[s.Node] = s
		return
	}
	r.add(s)
}

func (r *Result) sort() {
	sort.SliceStable(r.scopes, func(i, j int) bool { return r.scopes[i].Pos < r.scopes[j].Pos })
}
