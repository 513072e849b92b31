package retryscope

import (
	"encoding/json"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// gRPC, as google.golang.org/grpc v1.85.0 and go-grpc-middleware v2.3.4
// (interceptors/retry) do it (shared/reference/grpc-retries.md):
//
//   - A ClientConn retries by itself only with a service config whose
//     methodConfig has a retryPolicy (grpc.WithDefaultServiceConfig):
//     maxAttempts counts the first attempt, must be > 1, and is clamped to
//     the dial's maxCallAttempts (5 unless grpc.WithMaxCallAttempts(n >= 2));
//     an entry without "name" is skipped; waits are jittered (±20 %);
//     grpc.WithDisableRetry turns it off. Transparent retries (RPCs that
//     never reached the server application) are no retry layer.
//   - go-grpc-middleware's retry.UnaryClientInterceptor and
//     StreamClientInterceptor retry only with WithMax(n), n attempts in
//     all (0, the default, and Disable() make one plain call), on
//     ResourceExhausted and Unavailable by default (WithCodes replaces
//     them), waiting BackoffLinearWithJitter(50ms, 0.10) by default; a
//     retry.CallOption passed to a call overrides the interceptor's.
//   - The two multiply: the interceptor runs above the conn's own retries.
const (
	grpcPath       = "google.golang.org/grpc"
	grpcMiddleware = "github.com/grpc-ecosystem/go-grpc-middleware"
	grpcRetry      = grpcMiddleware + "/v2/interceptors/retry"
	grpcCodes      = grpcPath + "/codes"
	// grpcMaxCallAttempts is grpc-go's defaultMaxCallAttempts.
	grpcMaxCallAttempts = 5
)

// GRPCConn is what a gRPC dial (grpc.NewClient, Dial or DialContext) sets
// up for the retries of the calls through its connection. A dial whose
// calls retry without per-call options is also a Client scope, whose GRPC
// field is this.
type GRPCConn struct {
	Dial *ast.CallExpr
	// Interceptor is set when go-grpc-middleware's retry interceptor is
	// installed (unary or stream); Options are its options.
	Interceptor bool
	Options     GRPCOptions
	// Policy is the service config's retry policy: its attempts (1 when
	// there is none, or retries are disabled) and retryable codes.
	Policy Cap
	// PolicyCodes are the retryableStatusCodes of a constant service
	// config's retry policies, at the config's argument.
	PolicyCodes []GRPCCode
	// Timeout is where a constant service config gives methods a timeout
	// (methodConfig's "timeout", a deadline per call), or token.NoPos.
	Timeout token.Pos
	// Unknown is set when an option the model cannot read may install or
	// configure retries (an option from a variable it cannot follow).
	Unknown bool
	// Own is the attempts of a unary interceptor of the package's own that
	// retries (see ownInterceptors), nil when there is none.
	Own *Cap
	// ownFuncs are the package's unary interceptors installed on the
	// conn: the func literals and declarations ownInterceptors reads.
	ownFuncs []ast.Node
}

// GRPCOptions are go-grpc-middleware retry options: the interceptor's, or
// those passed to one call as grpc.CallOptions.
type GRPCOptions struct {
	// Max is WithMax's attempts in all (Disable is 0); CapUnknown when no
	// option sets it, CapBounded when its value is not constant.
	Max Cap
	// Wait is WithBackoff's backoff, nil when not set.
	Wait *Wait
	// Codes are WithCodes' codes; CodesSet tells they were set (to nil
	// when they cannot be evaluated: CodesUnknown).
	Codes        []GRPCCode
	CodesSet     bool
	CodesUnknown bool
	// Retriable is set by WithRetriable: the caller's own predicate.
	Retriable bool
	// PerRetryTimeout is where WithPerRetryTimeout sets a non-zero
	// timeout per attempt, or token.NoPos.
	PerRetryTimeout token.Pos
	// Unknown is set when an option cannot be read.
	Unknown bool
}

// GRPCCode is a gRPC status code a retry setting lists.
type GRPCCode struct {
	Code uint32 // google.golang.org/grpc/codes.Code
	Pos  token.Pos
	Node ast.Node
}

// GRPCCodeName returns the Go name of a gRPC code (codes.Canceled is 1).
func GRPCCodeName(c uint32) string {
	if int(c) < len(grpcCodeNames) {
		return grpcCodeNames[c]
	}
	return "Code(" + strconv.Itoa(int(c)) + ")"
}

var grpcCodeNames = []string{"OK", "Canceled", "Unknown", "InvalidArgument", "DeadlineExceeded", "NotFound",
	"AlreadyExists", "PermissionDenied", "ResourceExhausted", "FailedPrecondition", "Aborted", "OutOfRange",
	"Unimplemented", "Internal", "Unavailable", "DataLoss", "Unauthenticated"}

// grpcJSONCodes are the service config's names of the codes (codes.go's
// strToCode: CANCELLED is spelt so).
var grpcJSONCodes = []string{"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
	"ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
	"UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"}

// GRPCPermanent reports whether a retry of the code cannot succeed without
// a change first (the rules: never retry InvalidArgument, PermissionDenied,
// FailedPrecondition, ...).
func GRPCPermanent(c uint32) bool {
	switch GRPCCodeName(c) {
	case "InvalidArgument", "NotFound", "AlreadyExists", "PermissionDenied", "FailedPrecondition",
		"OutOfRange", "Unimplemented", "Unauthenticated":
		return true
	}
	return false
}

// Attempts returns the attempts in all of a call through the connection
// with the per-call options call (nil for none): the interceptor's times
// the conn's own policy. A known cap of 1 means no retry.
func (c *GRPCConn) Attempts(call *GRPCOptions) Cap {
	inter := Cap{Kind: CapKnown, N: 1}
	if c.Interceptor {
		max := c.Options.Max
		if call != nil && call.Max.Kind != CapUnknown {
			max = call.Max
		}
		switch {
		case c.Options.Unknown || call != nil && call.Unknown && call.Max.Kind == CapUnknown:
			inter = Cap{Kind: CapUnknown}
		case max.Kind == CapUnknown: // the default: WithMax(0)
		case max.Kind == CapKnown && max.N > 1:
			inter = max
		case max.Kind == CapBounded:
			inter = max
		}
	}
	p := c.Policy
	switch {
	case c.Unknown:
		return Cap{Kind: CapUnknown, Pos: c.Dial.Pos()}
	case inter.Kind == CapKnown && p.Kind == CapKnown:
		pos := p.Pos
		if inter.N > 1 {
			pos = inter.Pos
		}
		return Cap{Kind: CapKnown, N: inter.N * p.N, Pos: pos}
	case inter.Kind == CapUnknown || p.Kind == CapUnknown:
		return Cap{Kind: CapUnknown, Pos: c.Dial.Pos()}
	}
	return Cap{Kind: CapBounded, Pos: c.Dial.Pos()}
}

// CallAttempts returns the attempts in all of the gRPC call (GRPCCall)
// through the connection, with its retry options opts (nil for none):
// Attempts, times the attempts of the package's own retrying interceptor
// (Own) when the call is unary, and whether that interceptor retries it.
// Options the model cannot read add no retries to a known own
// interceptor: unknown means silent, but what is known still retries.
func (c *GRPCConn) CallAttempts(info *types.Info, call *ast.CallExpr, opts *GRPCOptions) (Cap, bool) {
	a := c.Attempts(opts)
	if c.Own == nil || !unaryCall(info, call) {
		return a, false
	}
	own := *c.Own
	switch {
	case a.Kind == CapUnknown || oneAttempt(a):
		return own, true
	case a.Kind == CapKnown && own.Kind == CapKnown:
		return Cap{Kind: CapKnown, N: a.N * own.N, Pos: own.Pos}, true
	case a.Kind == CapNone || own.Kind == CapNone:
		return Cap{Kind: CapNone, Pos: own.Pos}, true
	}
	return Cap{Kind: CapBounded, Pos: own.Pos}, true
}

// unaryCall reports whether a gRPC call (GRPCCall) is unary, and so runs
// the conn's unary interceptors: Invoke, grpc.Invoke, or a generated
// stub's method returning a response message (*pb.Resp, error) rather
// than a stream.
func unaryCall(info *types.Info, call *ast.CallExpr) bool {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil {
		return false
	}
	if fn.Pkg() != nil && fn.Pkg().Path() == grpcPath {
		return fn.Name() == "Invoke"
	}
	res := fn.Signature().Results()
	if res.Len() != 2 {
		return false
	}
	_, ptr := types.Unalias(res.At(0).Type()).(*types.Pointer)
	return ptr
}

// Retries reports whether calls through the connection with the per-call
// options call may retry (a cap other than one attempt).
func (c *GRPCConn) Retries(call *GRPCOptions) bool {
	a := c.Attempts(call)
	return a.Kind != CapKnown || a.N > 1
}

// PerRetryTimeout returns where the interceptor (or the call's options)
// give each attempt its own timeout, or token.NoPos.
func (c *GRPCConn) PerRetryTimeout(call *GRPCOptions) token.Pos {
	if call != nil && call.PerRetryTimeout.IsValid() {
		return call.PerRetryTimeout
	}
	if c.Interceptor {
		return c.Options.PerRetryTimeout
	}
	return token.NoPos
}

// GRPCConn returns what the gRPC dial call sets up, or nil when call is
// no dial.
func (r *Result) GRPCConn(dial *ast.CallExpr) *GRPCConn { return r.grpcConns[dial] }

// GRPCConns returns every gRPC dial of the package, in source order.
func (r *Result) GRPCConns() []*GRPCConn { return r.grpcOrder }

// GRPCCallOptions returns the go-grpc-middleware retry options passed to
// a gRPC call (see GRPCCall), or nil when it passes none.
func (r *Result) GRPCCallOptions(call *ast.CallExpr) *GRPCOptions { return r.grpcCalls[call] }

// GRPCCall reports whether call is a gRPC call: (*grpc.ClientConn).Invoke
// or NewStream, the same methods of grpc.ClientConnInterface, grpc.Invoke,
// or a generated stub's method (first parameter a context, last a variadic
// ...grpc.CallOption, last result an error). It returns the call's context
// argument and where its CallOptions start.
func GRPCCall(info *types.Info, call *ast.CallExpr) (ctx ast.Expr, opts int, ok bool) {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || len(call.Args) == 0 {
		return nil, 0, false
	}
	sig := fn.Signature()
	params := sig.Params()
	if !sig.Variadic() || params.Len() < 1 || !isContext(params.At(0).Type()) ||
		sig.Results().Len() == 0 || !isError(sig.Results().At(sig.Results().Len()-1).Type()) {
		return nil, 0, false
	}
	last, ok := params.At(params.Len() - 1).Type().(*types.Slice)
	if !ok || !isNamed(last.Elem(), grpcPath, "CallOption") {
		return nil, 0, false
	}
	if fn.Pkg() != nil && fn.Pkg().Path() == grpcPath {
		switch fn.Name() {
		case "Invoke", "NewStream":
		default:
			return nil, 0, false // NewClientStream and the like are not sends of a conn
		}
	} else if sig.Recv() == nil {
		return nil, 0, false // a stub's calls are methods
	}
	return call.Args[0], params.Len() - 1, true
}

// callIn returns the call e is (through local variables), and its callee,
// when the callee is a function of the package at path.
func (m *model) callIn(di *defIndex, e ast.Expr, before token.Pos, path string) (*ast.CallExpr, *types.Func) {
	call, ok := m.origin(di, e, before).(*ast.CallExpr)
	if !ok {
		return nil, nil
	}
	fn := m.callee(call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != path {
		return nil, nil
	}
	return call, fn
}

func isNamed(t types.Type, path, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}

// grpcCallOptions records the go-grpc-middleware retry options of a gRPC
// call.
func (m *model) grpcCallOptions(di *defIndex, call *ast.CallExpr) {
	_, first, ok := GRPCCall(m.info, call)
	if !ok || len(call.Args) <= first {
		return
	}
	args := call.Args[first:]
	var retryOpts []ast.Expr
	for _, a := range args {
		if isNamed(m.info.TypeOf(a), grpcRetry, "CallOption") {
			retryOpts = append(retryOpts, a)
		}
	}
	spread := call.Ellipsis.IsValid()
	if spread {
		var still bool
		args, still = m.spread(di, args, call.Pos())
		if still {
			m.res.grpcCalls[call] = &GRPCOptions{Unknown: true, Max: Cap{Kind: CapUnknown}}
			return
		}
		retryOpts = retryOpts[:0]
		for _, a := range args {
			if isNamed(m.info.TypeOf(a), grpcRetry, "CallOption") {
				retryOpts = append(retryOpts, a)
			}
		}
	}
	if len(retryOpts) == 0 {
		return
	}
	o := m.grpcOptions(di, retryOpts, call.Pos())
	m.res.grpcCalls[call] = &o
}

// grpcDial models grpc.NewClient(target, opts...), Dial and DialContext:
// it records the GRPCConn, and returns s as a Client scope when the
// connection's calls retry without per-call options.
func (m *model) grpcDial(di *defIndex, s *Scope, call *ast.CallExpr) *Scope {
	callee := m.callee(call)
	first := 1
	if callee.Name() == "DialContext" {
		first = 2
	}
	if len(call.Args) < first {
		return nil
	}
	c := &GRPCConn{Dial: call, Policy: Cap{Kind: CapKnown, N: 1, Pos: call.Pos()}}
	m.res.grpcConns[call] = c
	m.res.grpcOrder = append(m.res.grpcOrder, c)
	opts, unknown := m.options(di, call, first)
	c.Unknown = unknown
	m.ownUnaryInterceptors(di, c, call, first)
	maxCall, maxCallUnknown := grpcMaxCallAttempts, false
	var config ast.Expr
	disabled := false
	for _, opt := range m.dialOptions(di, opts, call.Pos(), 0) {
		oc, di, before := opt.call, opt.di, opt.before
		if oc == nil {
			c.Unknown = true // an option held in a field or made elsewhere
			continue
		}
		fn := m.callee(oc)
		switch fn.Name() {
		case "WithUnaryInterceptor", "WithStreamInterceptor", "WithChainUnaryInterceptor", "WithChainStreamInterceptor":
			args := oc.Args
			if oc.Ellipsis.IsValid() {
				var still bool
				if args, still = m.spread(di, args, before); still {
					c.Unknown = true
				}
			}
			for _, a := range args {
				ic, ifn := m.callIn(di, a, before, grpcRetry)
				if ic == nil {
					continue // an interceptor of the code's own
				}
				switch ifn.Name() {
				case "UnaryClientInterceptor", "StreamClientInterceptor":
					ropts := ic.Args
					if ic.Ellipsis.IsValid() {
						var still bool
						if ropts, still = m.spread(di, ropts, before); still {
							c.Options.Unknown = true
						}
					}
					o := m.grpcOptions(di, ropts, before)
					o.Unknown = o.Unknown || c.Options.Unknown
					if !c.Interceptor || o.Max.Kind != CapUnknown {
						c.Options = o
					}
					c.Interceptor = true
				}
			}
		case "WithDefaultServiceConfig":
			if len(oc.Args) == 1 {
				config = oc.Args[0]
			}
		case "WithDisableRetry":
			disabled = true
		case "WithMaxCallAttempts":
			if len(oc.Args) == 1 {
				if n, ok := m.intConst(oc.Args[0]); !ok {
					maxCallUnknown = true
				} else if n >= 2 {
					maxCall = int(n)
				}
			}
		}
	}
	if config != nil && disabled {
		_, _, c.Timeout = m.serviceConfig(config, maxCall)
	}
	if config != nil && !disabled {
		c.Policy, c.PolicyCodes, c.Timeout = m.serviceConfig(config, maxCall)
		if maxCallUnknown && c.Policy.Kind == CapKnown && c.Policy.N > 1 {
			c.Policy = Cap{Kind: CapBounded, Pos: c.Policy.Pos}
		}
	}
	if !c.Retries(nil) || c.Attempts(nil).Kind == CapUnknown {
		return nil // no retries, or none the model can tell
	}
	s.Kind = Client
	s.Entry = stripTypeParams(callee.FullName())
	s.Library = grpcPath
	s.GRPC = c
	s.Cap = c.Attempts(nil)
	s.Deadline = Deadline{Kind: DeadlineCaller, Pos: call.Pos()} // the call's context bounds every attempt
	s.Trigger = TriggerUnknown
	if c.Interceptor && c.Options.Max.Kind != CapUnknown && (c.Options.Max.Kind != CapKnown || c.Options.Max.N > 1) {
		s.Library = grpcRetry
		w := Wait{Kind: WaitJittered, Pos: call.Pos(), Node: call, Library: true, Setting: "retry.BackoffLinearWithJitter (the default)"}
		if c.Options.Wait != nil {
			w = *c.Options.Wait
		}
		s.Waits = append(s.Waits, w)
	}
	if c.Policy.Kind != CapKnown || c.Policy.N > 1 {
		// grpc-go jitters its backoff by ±20 %
		s.Waits = append(s.Waits, Wait{Kind: WaitJittered, Pos: config.Pos(), Node: config, Library: true, Setting: "retryPolicy"})
	}
	return s
}

// ownUnaryInterceptors records on c the unary interceptors of the
// package's own that the dial installs (grpc.WithUnaryInterceptor,
// WithChainUnaryInterceptor), among the options the model can list: the
// other options of a slice it cannot list whole (etcd's dial appends its
// caller's options and a config field) do not hide them.
func (m *model) ownUnaryInterceptors(di *defIndex, c *GRPCConn, call *ast.CallExpr, first int) {
	opts := call.Args[first:]
	if call.Ellipsis.IsValid() && len(opts) > 0 {
		opts = append(append([]ast.Expr(nil), opts[:len(opts)-1]...), m.knownElems(di, opts[len(opts)-1], call.Pos(), 0)...)
	}
	for _, opt := range m.dialOptions(di, opts, call.Pos(), 0) {
		if opt.call == nil {
			continue
		}
		switch m.callee(opt.call).Name() {
		case "WithUnaryInterceptor", "WithChainUnaryInterceptor":
		default:
			continue
		}
		args := opt.call.Args
		if opt.call.Ellipsis.IsValid() && len(args) > 0 {
			args = append(append([]ast.Expr(nil), args[:len(args)-1]...), m.knownElems(opt.di, args[len(args)-1], opt.before, 0)...)
		}
		for _, a := range args {
			if ic, _ := m.callIn(opt.di, a, opt.before, grpcRetry); ic == nil {
				c.ownFuncs = append(c.ownFuncs, m.interceptorFuncs(opt.di, a, opt.before, 0)...)
			}
		}
	}
}

// knownElems lists the elements of the slice e holds before a position
// that the model can read (sliceElems), leaving out the parts appended
// from a parameter, a field or another package.
func (m *model) knownElems(di *defIndex, e ast.Expr, before token.Pos, depth int) []ast.Expr {
	if elems, ok := m.sliceElems(di, e, before, depth); ok {
		return elems
	}
	if depth > maxDepth {
		return nil
	}
	v, ok := m.origin(di, e, before).(*ast.CallExpr)
	if !ok {
		return nil
	}
	if id, isID := ast.Unparen(v.Fun).(*ast.Ident); isID && len(v.Args) > 0 {
		if b, isB := m.info.Uses[id].(*types.Builtin); isB && b.Name() == "append" {
			out := m.knownElems(di, v.Args[0], v.Pos(), depth+1)
			more := v.Args[1:]
			if v.Ellipsis.IsValid() {
				return append(append(out, more[:len(more)-1]...), m.knownElems(di, more[len(more)-1], v.Pos(), depth+1)...)
			}
			return append(out, more...)
		}
		return nil
	}
	fn := m.callee(v)
	fd := m.funcs[fn]
	if fn == nil || fd == nil || fn.Signature().Results().Len() != 1 {
		return nil
	}
	fdi := m.defIndex(fd)
	var out []ast.Expr
	astq.InspectOwn(fd.Body, func(n ast.Node) bool {
		if ret, isRet := n.(*ast.ReturnStmt); isRet && len(ret.Results) == 1 {
			out = append(out, m.knownElems(fdi, ret.Results[0], ret.Pos(), depth+1)...)
		}
		return true
	})
	return out
}

// interceptorFuncs returns the functions of the package that the
// interceptor e (read in di before a position) is: a func literal, a
// function or method of the package named as a value, or what a function
// or method of the package returns (etcd's c.unaryClientInterceptor(...)
// returning a closure), followed through its return statements.
func (m *model) interceptorFuncs(di *defIndex, e ast.Expr, before token.Pos, depth int) []ast.Node {
	switch o := ast.Unparen(m.origin(di, e, before)).(type) {
	case *ast.FuncLit:
		return []ast.Node{o}
	case *ast.Ident, *ast.SelectorExpr:
		id, _ := o.(*ast.Ident)
		if sel, ok := o.(*ast.SelectorExpr); ok {
			id = sel.Sel
		}
		if fn, ok := m.info.Uses[id].(*types.Func); ok && m.funcs[fn.Origin()] != nil {
			return []ast.Node{m.funcs[fn.Origin()]}
		}
	case *ast.CallExpr:
		fn := m.callee(o)
		if fn == nil || depth >= maxDepth {
			return nil
		}
		fd := m.funcs[fn.Origin()]
		if fd == nil || fn.Signature().Results().Len() != 1 {
			return nil
		}
		fdi := m.defIndex(fd)
		var out []ast.Node
		astq.InspectOwn(fd.Body, func(n ast.Node) bool {
			if ret, ok := n.(*ast.ReturnStmt); ok && len(ret.Results) == 1 {
				out = append(out, m.interceptorFuncs(fdi, ret.Results[0], ret.Pos(), depth+1)...)
			}
			return true
		})
		return out
	}
	return nil
}

// ownInterceptors reads, once every scope of the package is known, the
// unary interceptors of the package's own installed on each conn: one
// whose body is itself a retry scope (a loop or a library call declared
// in it: etcd's unaryClientInterceptor closure, its loop up to callOpts.max)
// retries every unary call of the conn, with that scope's attempts (Own).
// An interceptor that only logs or adds metadata is no layer.
func (m *model) ownInterceptors() {
	for _, c := range m.res.grpcOrder {
		for _, f := range c.ownFuncs {
			for _, s := range m.res.scopes {
				if s.Func != f || s.Kind != Loop && s.Kind != LibraryCall {
					continue
				}
				if c.Own == nil || worseCap(s.Cap, *c.Own) {
					cp := s.Cap
					if cp.Pos == token.NoPos {
						cp.Pos = s.Pos
					}
					c.Own = &cp
				}
			}
		}
	}
}

// worseCap reports whether a allows more attempts than b, as far as the
// model can tell: no cap over a bound the model cannot evaluate over a
// known count.
func worseCap(a, b Cap) bool {
	rank := func(c Cap) int {
		switch c.Kind {
		case CapNone:
			return 3
		case CapBounded, CapUnknown:
			return 2
		}
		return 1
	}
	if rank(a) != rank(b) {
		return rank(a) > rank(b)
	}
	return a.Kind == CapKnown && a.N > b.N
}

// dialOption is a grpc call making a dial option, with the def index its
// arguments are read in, before a position.
type dialOption struct {
	call   *ast.CallExpr
	di     *defIndex
	before token.Pos
}

// dialOptions returns the grpc calls that make the dial options opts (read
// in di before a position): an option's own call, or the calls a function
// of the package returns (withRetries() returning
// grpc.WithChainUnaryInterceptor(...)), read in that function. A nil call
// is an option the model cannot read: held in a field, a parameter, made
// by another package's helper that may add interceptors.
func (m *model) dialOptions(di *defIndex, opts []ast.Expr, before token.Pos, depth int) []dialOption {
	var out []dialOption
	for _, o := range opts {
		oc, ok := m.origin(di, o, before).(*ast.CallExpr)
		fn := (*types.Func)(nil)
		if ok {
			fn = m.callee(oc)
		}
		switch {
		case fn == nil || fn.Pkg() == nil:
			out = append(out, dialOption{})
		case fn.Pkg().Path() == grpcPath:
			out = append(out, dialOption{oc, di, before})
		case m.funcs[fn] != nil && fn.Signature().Results().Len() == 1 && depth < maxDepth:
			fd := m.funcs[fn]
			fdi := m.defIndex(fd)
			n := len(out)
			astq.InspectOwn(fd.Body, func(n ast.Node) bool {
				if ret, isRet := n.(*ast.ReturnStmt); isRet && len(ret.Results) == 1 {
					out = append(out, m.dialOptions(fdi, ret.Results, ret.Pos(), depth+1)...)
				}
				return true
			})
			if len(out) == n {
				out = append(out, dialOption{})
			}
		default:
			out = append(out, dialOption{})
		}
	}
	return out
}

// grpcOptions reads go-grpc-middleware retry options.
func (m *model) grpcOptions(di *defIndex, opts []ast.Expr, before token.Pos) GRPCOptions {
	o := GRPCOptions{Max: Cap{Kind: CapUnknown}}
	for _, e := range opts {
		oc, fn := m.callIn(di, e, before, grpcRetry)
		if oc == nil {
			o.Unknown = true
			continue
		}
		switch fn.Name() {
		case "WithMax":
			if len(oc.Args) == 1 {
				o.Max = m.countCap(oc.Args[0], oc.Pos(), false)
			}
		case "Disable":
			o.Max = Cap{Kind: CapKnown, N: 0, Pos: oc.Pos()}
		case "WithBackoff":
			if len(oc.Args) == 1 {
				w := m.grpcBackoff(di, oc.Args[0], before)
				w.Pos, w.Node = oc.Pos(), oc
				o.Wait = &w
			}
		case "WithCodes":
			o.CodesSet, o.Codes, o.CodesUnknown = true, nil, false
			args := oc.Args
			if oc.Ellipsis.IsValid() && len(args) == 1 {
				if sel, ok := ast.Unparen(args[0]).(*ast.SelectorExpr); ok && m.objName(sel.Sel) == grpcRetry+".DefaultRetriableCodes" {
					o.Codes = []GRPCCode{{Code: 8, Pos: args[0].Pos(), Node: args[0]}, {Code: 14, Pos: args[0].Pos(), Node: args[0]}}
					continue
				}
				o.CodesUnknown = true
				continue
			}
			for _, a := range args {
				if n, ok := m.intConst(a); ok {
					o.Codes = append(o.Codes, GRPCCode{Code: uint32(n), Pos: a.Pos(), Node: a})
				} else {
					o.CodesUnknown = true
				}
			}
		case "WithRetriable":
			o.Retriable = true
		case "WithPerRetryTimeout":
			if len(oc.Args) == 1 && !m.isZero(oc.Args[0]) {
				o.PerRetryTimeout = oc.Pos()
			}
		case "WithOnRetryCallback":
		default:
			o.Unknown = true
		}
	}
	return o
}

// grpcBackoff classifies a go-grpc-middleware BackoffFunc.
func (m *model) grpcBackoff(di *defIndex, e ast.Expr, before token.Pos) Wait {
	w := Wait{Kind: WaitUnknown, Library: true, Setting: "retry.WithBackoff"}
	bc, fn := m.callIn(di, e, before, grpcRetry)
	if bc == nil {
		return w
	}
	w.Setting = "retry." + fn.Name()
	switch fn.Name() {
	case "BackoffLinear":
		w.Kind = WaitConstant
	case "BackoffExponential":
		w.Kind = WaitGrowth
	case "BackoffLinearWithJitter":
		w.Kind = WaitJittered
		if len(bc.Args) == 2 && m.isZero(bc.Args[1]) {
			w.Kind = WaitConstant // a jitter fraction of 0
		}
	case "BackoffExponentialWithJitter", "BackoffExponentialWithJitterBounded":
		w.Kind = WaitJittered
		if len(bc.Args) >= 2 && m.isZero(bc.Args[1]) {
			w.Kind = WaitGrowth
		}
	}
	if w.Kind != WaitUnknown && len(bc.Args) > 0 && m.isZero(bc.Args[0]) {
		w.Kind = WaitNone
	}
	return w
}

// serviceConfig reads a constant service config's retry policies as
// grpc-go's parseServiceConfig does: the most attempts of any named
// methodConfig's valid retryPolicy, clamped to maxCall, and the codes they
// retry. A config that is not constant makes the cap unknown; one that
// does not parse, or whose policy is invalid, fails the dial (no retries).
func (m *model) serviceConfig(e ast.Expr, maxCall int) (Cap, []GRPCCode, token.Pos) {
	tv, ok := m.info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return Cap{Kind: CapUnknown, Pos: e.Pos()}, nil, token.NoPos
	}
	var sc struct {
		MethodConfig *[]struct {
			Name        *[]json.RawMessage
			Timeout     *string
			RetryPolicy *struct {
				MaxAttempts          int
				InitialBackoff       string
				MaxBackoff           string
				BackoffMultiplier    float64
				RetryableStatusCodes []json.RawMessage
			}
		}
	}
	none := Cap{Kind: CapKnown, N: 1, Pos: e.Pos()}
	if err := json.Unmarshal([]byte(constant.StringVal(tv.Value)), &sc); err != nil || sc.MethodConfig == nil {
		return none, nil, token.NoPos
	}
	timeout := token.NoPos
	best := none
	var codes []GRPCCode
	seen := make(map[uint32]bool)
	for _, mc := range *sc.MethodConfig {
		if mc.Name == nil {
			continue // grpc-go skips an entry without a name
		}
		if mc.Timeout != nil && protoDuration(*mc.Timeout) {
			timeout = e.Pos()
		}
		rp := mc.RetryPolicy
		if rp == nil {
			continue
		}
		if rp.MaxAttempts <= 1 || !protoDuration(rp.InitialBackoff) || !protoDuration(rp.MaxBackoff) ||
			rp.BackoffMultiplier <= 0 || len(rp.RetryableStatusCodes) == 0 {
			return none, nil, timeout // an invalid policy: NewClient fails
		}
		n := min(rp.MaxAttempts, maxCall)
		if n > best.N {
			best = Cap{Kind: CapKnown, N: n, Pos: e.Pos()}
		}
		for _, raw := range rp.RetryableStatusCodes {
			c, ok := jsonCode(raw)
			if !ok {
				return none, nil, timeout
			}
			if !seen[c] {
				seen[c] = true
				codes = append(codes, GRPCCode{Code: c, Pos: e.Pos(), Node: e})
			}
		}
	}
	if best.N <= 1 {
		codes = nil
	}
	return best, codes, timeout
}

// protoDuration reports whether s is a positive proto3 JSON duration ("0.1s").
func protoDuration(s string) bool {
	num, ok := strings.CutSuffix(s, "s")
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(num, 64)
	return err == nil && f > 0
}

// jsonCode reads a code of a service config: a name or a number.
func jsonCode(raw json.RawMessage) (uint32, bool) {
	if n, err := strconv.ParseUint(string(raw), 10, 32); err == nil {
		return uint32(n), n < uint64(len(grpcJSONCodes))
	}
	var name string
	if json.Unmarshal(raw, &name) != nil {
		return 0, false
	}
	for i, n := range grpcJSONCodes {
		if n == name {
			return uint32(i), true
		}
	}
	return 0, false
}

// UsesGRPC reports whether pkg imports grpc, or a package (a generated
// stub) that does.
func UsesGRPC(pkg *types.Package) bool {
	for _, p := range pkg.Imports() {
		if p.Path() == grpcPath {
			return true
		}
		for _, q := range p.Imports() {
			if q.Path() == grpcPath {
				return true
			}
		}
	}
	return false
}

// GRPCCodeType reports whether t is grpc's codes.Code.
func GRPCCodeType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == grpcCodes && n.Obj().Name() == "Code"
}

// GRPCCodesRelevant reports whether pkg may test or configure gRPC codes:
// it imports grpc's codes or status package, or the retry interceptor.
func GRPCCodesRelevant(pkg *types.Package) bool {
	for _, p := range pkg.Imports() {
		switch p.Path() {
		case grpcCodes, grpcPath + "/status", grpcRetry:
			return true
		}
	}
	return false
}

// GRPCRetryPredicate reports whether fn is the retry interceptor's option
// whose function decides, from the error, whether to retry
// (retry.WithRetriable).
func GRPCRetryPredicate(fn *types.Func) bool {
	return fn.Pkg() != nil && fn.Pkg().Path() == grpcRetry && fn.Name() == "WithRetriable"
}
