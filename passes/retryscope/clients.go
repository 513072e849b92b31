package retryscope

import (
	"go/ast"
	"go/constant"
	"go/types"
	"regexp"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/internal/prefilter"
	"github.com/idemlint/idemlint/passes/internal/astq"
)

// The clients that retry by themselves, and what their configuration code
// says about their retries: the table's part for nestedretry, which asks
// SelfRetrying of each call (and the prefilter's ClientCalls).

// Import paths of the clients that retry by themselves.
const (
	awsRoot      = "github.com/aws/aws-sdk-go-v2"
	awsPkg       = awsRoot + "/aws"
	awsRetry     = awsRoot + "/aws/retry"
	awsConfig    = awsRoot + "/config"
	k8sRest      = "k8s.io/client-go/rest"
	k8sTyped     = "k8s.io/client-go/kubernetes/typed/"
	gax          = "github.com/googleapis/gax-go/v2"
	gaxFamily    = "github.com/googleapis/gax-go"
	stripeFamily = "github.com/stripe/stripe-go"
)

var stripeModule = regexp.MustCompile(`^github\.com/stripe/stripe-go/v[0-9]+`)

// Library defaults, in attempts (the first call included).
const (
	retryableDefault = 5  // RetryMax 4
	stripeDefault    = 3  // MaxNetworkRetries 2
	awsDefault       = 3  // retry.DefaultMaxAttempts
	k8sDefault       = 11 // maxRetries 10
)

// clientFixes say how to turn off a client's own retries, by the library
// a SelfRetry names.
var clientFixes = []struct {
	lib func(string) bool
	fix string
}{
	{stripeModule.MatchString, "set MaxNetworkRetries to 0"},
	{is(awsRoot), "give the client aws.NopRetryer{}"},
	{is(retryable), "set RetryMax to 0"},
	{is(k8sRest), "call MaxRetries(0) on the request"},
	{is(grpcRetry), "pass retry.Disable() on this call"},
	{is(grpcPath), "dial with grpc.WithDisableRetry()"},
	{is(gax), "drop gax.WithRetry from the call options"},
}

// ClientFix returns how to turn off the retries of the client library lib
// (a SelfRetry's Library, or a Scope's), or "".
func ClientFix(lib string) string {
	for _, f := range clientFixes {
		if f.lib(lib) {
			return f.fix
		}
	}
	return ""
}

// modelledClient reports whether path is a package of a client that
// retries by itself and that the table models.
func modelledClient(path string) bool {
	for _, p := range []string{k8sRest, k8sTyped, stripeFamily, awsRoot, gaxFamily} {
		if root := strings.TrimSuffix(p, "/"); path == p || path != root && inFamily(path, root) {
			return true
		}
	}
	return false
}

// ClientRegion is the code a client value may come from: the nodes of its
// configuration; Open is set when it may also come from elsewhere (a
// parameter, a field), so a setting anywhere in the package may be its.
type ClientRegion struct {
	Nodes []ast.Node
	Open  bool
}

// ClientEnv reads the configuration of the clients that retry by
// themselves in one package. Region follows expressions back to the code
// that makes their values (the check's own def-use tracing).
type ClientEnv struct {
	Info   *types.Info
	Files  []*ast.File
	Res    *Result
	Region func(es ...ast.Expr) ClientRegion
	// Transport, when set, knows the functions of other packages that
	// return an http.RoundTripper that retries by itself (nestedretry's
	// facts: go-containerregistry's transport.NewRetry), with its cap.
	Transport func(fn *types.Func) (SelfRetry, bool)

	fallback map[string]setting
	// found caches what a detect function finds in one node of a region,
	// by its key: the regions of a package's client calls share nodes
	// (every stripe-go service's backend comes from one GetBackend).
	found map[foundKey]setting
}

type foundKey struct {
	key  string
	node ast.Node
}

func (e *ClientEnv) region(es ...ast.Expr) *ClientRegion {
	r := e.Region(es...)
	return &r
}

// A SelfRetry is a call of a client that retries by itself.
type SelfRetry struct {
	// Library is the client's library: its import path, or its module
	// root (stripe-go, aws-sdk-go-v2).
	Library string
	// Attempts is its attempt cap: > 0 known, 0 unknown, -1 none.
	Attempts int
	// Client is set for a client's send; gax.Invoke instead retries its
	// operation Op.
	Client bool
	Op     ast.Expr
	// OffBy, for a net/http client over a retrying transport of another
	// package, is the package whose function of the request's context the
	// transport asks before it retries (ClientEnv.Transport).
	OffBy string
}

// Cap is the client's attempt cap as the model's Cap.
func (r SelfRetry) Cap() Cap {
	switch {
	case r.Attempts > 0:
		return Cap{Kind: CapKnown, N: r.Attempts}
	case r.Attempts < 0:
		return Cap{Kind: CapNone}
	}
	return Cap{Kind: CapUnknown}
}

// setting is what the configuration code of one client says about its
// retries.
type setting struct {
	off      bool   // retries disabled (0 retries, 1 attempt, a no-op retryer)
	unknown  bool   // set to something the check cannot evaluate
	attempts int    // a known attempt cap; -1 no cap; 0 none found
	offBy    string // a retrying transport's opt-out package (SelfRetry.OffBy)
}

// merge adds what o found to s, as if its detect had run on s: set is
// commutative, off and unknown only ever turn on.
func (s *setting) merge(o setting) {
	s.off = s.off || o.off
	s.unknown = s.unknown || o.unknown
	if o.attempts != 0 {
		s.set(o.attempts)
	}
}

func (s *setting) set(n int) {
	switch {
	case n == 1:
		s.off = true
	case n < 0:
		s.attempts = -1
	case s.attempts >= 0 && n > s.attempts:
		s.attempts = n
	}
}

// SelfRetrying reports whether call is a call of a client that retries by
// itself, with its retries on: a go-retryablehttp client (or a net/http
// client sending through one), a stripe-go or aws-sdk-go-v2 API call, a
// client-go REST request or typed client call, a gax.Invoke that retries,
// a gRPC call on a conn that retries.
func (e *ClientEnv) SelfRetrying(call *ast.CallExpr) (SelfRetry, bool) {
	if e.fallback == nil {
		e.fallback = make(map[string]setting)
	}
	fn, _ := typeutil.Callee(e.Info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return SelfRetry{}, false
	}
	fn = fn.Origin()
	if c := e.concreteMethod(call, fn); c != nil {
		fn = c // g.Get(url), g an interface holding a *retryablehttp.Client
	}
	path := fn.Pkg().Path()
	if _, _, ok := GRPCCall(e.Info, call); ok {
		return e.grpcLayer(call, fn)
	}
	if !clientPath(path) {
		return SelfRetry{}, false
	}
	name := fn.FullName()
	l := SelfRetry{Library: path, Client: true}
	var s setting
	switch {
	case path == retryable:
		switch name {
		case "(*" + retryable + ".Client).Do", "(*" + retryable + ".Client).Get", "(*" + retryable + ".Client).Head",
			"(*" + retryable + ".Client).Post", "(*" + retryable + ".Client).PostForm":
			s = e.retryableClient(e.region(recv(call)))
		case retryable + ".Get", retryable + ".Head", retryable + ".Post", retryable + ".PostForm":
			s.attempts = retryableDefault // the package's default client
		case "(*" + retryable + ".RoundTripper).RoundTrip":
			s = e.roundTripper(e.region(recv(call)))
		default:
			return SelfRetry{}, false
		}
	case path == "net/http":
		switch name {
		case "(*net/http.Client).Do", "(*net/http.Client).Get", "(*net/http.Client).Head",
			"(*net/http.Client).Post", "(*net/http.Client).PostForm":
		default:
			return SelfRetry{}, false
		}
		var ok bool
		if s, l.Library, ok = e.httpClient(e.region(recv(call))); !ok {
			return SelfRetry{}, false
		}
	case stripeModule.MatchString(path):
		if !stripeCall(fn) {
			return SelfRetry{}, false
		}
		l.Library = stripeModule.FindString(path)
		var r *ClientRegion
		if sig := fn.Signature(); sig.Recv() != nil {
			r = e.region(recv(call))
		} else {
			r = e.globalStripeBackend()
		}
		s = e.configured(r, "stripe", e.stripeSetting)
		if s.attempts == 0 {
			s.attempts = stripeDefault
		}
	case strings.HasPrefix(path, awsRoot+"/service/"):
		if !awsOperation(fn) {
			return SelfRetry{}, false
		}
		l.Library = awsRoot
		r := e.region(recv(call))
		if len(call.Args) > 2 { // per-call option functions
			r2 := e.region(call.Args[2:]...)
			r.Nodes = append(r.Nodes, r2.Nodes...)
			r.Open = r.Open || r2.Open
		}
		s = e.configured(r, "aws", e.awsSetting)
		if s.attempts == 0 {
			s.attempts = awsDefault
		}
	case path == k8sRest:
		switch name {
		case "(*" + k8sRest + ".Request).Do", "(*" + k8sRest + ".Request).DoRaw",
			"(*" + k8sRest + ".Request).Stream", "(*" + k8sRest + ".Request).Watch":
		default:
			return SelfRetry{}, false
		}
		// MaxRetries is set per request, on the request chain: the
		// RESTClient a request comes from carries no retry setting.
		r := e.region(recv(call))
		r.Open = false
		s = e.configured(r, "k8s", e.k8sSetting)
		if s.attempts == 0 {
			s.attempts = k8sDefault
		}
	case strings.HasPrefix(path, k8sTyped):
		// typed clientsets (clientset.CoreV1().Pods(ns).Create(...)) are
		// interfaces over REST requests with the default retries
		if !k8sTypedCall(fn) {
			return SelfRetry{}, false
		}
		l.Library = k8sRest
		s.attempts = k8sDefault
	case path == gax:
		if name != gax+".Invoke" || len(call.Args) < 2 {
			return SelfRetry{}, false
		}
		if !e.gaxRetries(call) {
			return SelfRetry{}, false
		}
		l.Client = false
		l.Attempts = -1 // gax has no attempt cap
		if call.Ellipsis.IsValid() {
			l.Attempts = 0 // per-method call options: deadline-bounded, cap unknown
		}
		l.Op = call.Args[1]
		return l, true
	default:
		return SelfRetry{}, false
	}
	if s.off || s.unknown {
		return SelfRetry{}, false
	}
	l.Attempts, l.OffBy = s.attempts, s.offBy
	return l, true
}

// clientPath reports whether SelfRetrying may take a call of a function of
// the package at path.
func clientPath(path string) bool {
	return path == retryable || path == "net/http" || stripeModule.MatchString(path) ||
		strings.HasPrefix(path, awsRoot+"/service/") || path == k8sRest || strings.HasPrefix(path, k8sTyped) || path == gax
}

// recv returns the receiver expression of a method call, or nil.
// concreteMethod resolves a call of an interface method fn on a local
// variable whose every def in the function is a value of one concrete type
// (var g getter = retryablehttp.NewClient()) to that type's method; nil
// when fn is no interface method or the type is not known.
func (e *ClientEnv) concreteMethod(call *ast.CallExpr, fn *types.Func) *types.Func {
	if r := fn.Signature().Recv(); r == nil || !types.IsInterface(r.Type()) || e.Res == nil {
		return nil
	}
	id, ok := ast.Unparen(recv(call)).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := e.Info.Uses[id].(*types.Var)
	fd := e.Res.DeclAt(call.Pos())
	if !ok || fd == nil || v.Parent() == nil || v.Parent() == v.Pkg().Scope() {
		return nil
	}
	di := e.Res.Defs(fd)
	if di == nil || di.Escapes(v) {
		return nil
	}
	var concrete types.Type
	for _, d := range di.Of(v) {
		if !d.Plain() || d.RHS() == nil {
			return nil
		}
		t := e.Info.TypeOf(d.RHS())
		if t == nil || types.IsInterface(t) || (concrete != nil && !types.Identical(t, concrete)) {
			return nil
		}
		concrete = t
	}
	if concrete == nil {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(concrete, true, fn.Pkg(), fn.Name())
	m, _ := obj.(*types.Func)
	return m
}

func recv(call *ast.CallExpr) ast.Expr {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return sel.X
	}
	return nil
}

// configured evaluates a client's region with detect; when the region is
// open and says nothing, the whole package is searched: a setting found
// anywhere in it may be this client's, so it counts when it turns retries
// off or cannot be evaluated. What detect finds in a node is the same in
// every region (key names detect), and settings merge in any order.
func (e *ClientEnv) configured(r *ClientRegion, key string, detect func(*setting, ast.Node)) setting {
	if e.found == nil {
		e.found = make(map[foundKey]setting)
	}
	var s setting
	for _, n := range r.Nodes {
		k := foundKey{key, n}
		ns, ok := e.found[k]
		if !ok {
			ast.Inspect(n, func(n ast.Node) bool { detect(&ns, n); return true })
			e.found[k] = ns
		}
		s.merge(ns)
	}
	if s.off || s.unknown || s.attempts != 0 || !r.Open {
		return s
	}
	if fb, ok := e.fallback[key]; ok {
		if fb.off || fb.unknown {
			return fb
		}
		return s
	}
	var fb setting
	for _, f := range e.Files {
		ast.Inspect(f, func(n ast.Node) bool { detect(&fb, n); return true })
	}
	e.fallback[key] = fb
	if fb.off || fb.unknown {
		return fb
	}
	return s
}

// intValue evaluates a constant, or stripe.Int64(c) / aws.Int32(c)-style
// pointer helpers of a constant.
func (e *ClientEnv) intValue(x ast.Expr) (int, bool) {
	x = ast.Unparen(x)
	if call, ok := x.(*ast.CallExpr); ok && len(call.Args) == 1 {
		if fn, ok := typeutil.Callee(e.Info, call).(*types.Func); ok && fn.Pkg() != nil && strings.HasPrefix(fn.Name(), "Int") {
			x = call.Args[0]
		}
	}
	tv, ok := e.Info.Types[x]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	n, ok := constant.Int64Val(tv.Value)
	return int(n), ok
}

// typeIn reports whether e's type (or the type it points to) is a named
// type of a package whose path satisfies in, named name ("" for any).
func (e *ClientEnv) typeIn(x ast.Expr, in func(string) bool, name string) bool {
	t := e.Info.TypeOf(x)
	if t == nil {
		return false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	return in(n.Obj().Pkg().Path()) && (name == "" || n.Obj().Name() == name)
}

// fieldSetting calls f with the value of each setting of a field named
// field: a keyed value in a literal of a type accepted by ok, or an
// assignment x.field = v with x of such a type.
func (e *ClientEnv) fieldSetting(n ast.Node, field string, ok func(ast.Expr) bool, f func(ast.Expr)) {
	switch n := n.(type) {
	case *ast.CompositeLit:
		if !ok(n) {
			return
		}
		for _, elt := range n.Elts {
			if kv, isKV := elt.(*ast.KeyValueExpr); isKV {
				if id, isID := kv.Key.(*ast.Ident); isID && id.Name == field {
					f(kv.Value)
				}
			}
		}
	case *ast.AssignStmt:
		if len(n.Lhs) != len(n.Rhs) {
			return
		}
		for i, lhs := range n.Lhs {
			if sel, isSel := ast.Unparen(lhs).(*ast.SelectorExpr); isSel && sel.Sel.Name == field && ok(sel.X) {
				f(n.Rhs[i])
			}
		}
	}
}

// calleeOf returns the full name of call's static callee, or "".
func (e *ClientEnv) calleeOf(n ast.Node) (string, *ast.CallExpr) {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return "", nil
	}
	fn, _ := typeutil.Callee(e.Info, call).(*types.Func)
	if fn == nil {
		return "", nil
	}
	return fn.Origin().FullName(), call
}

// ---- go-retryablehttp

// retryableClient evaluates a *retryablehttp.Client: built by NewClient
// (the retry model knows its RetryMax) or by a literal (retrying only when
// it sets RetryMax).
func (e *ClientEnv) retryableClient(r *ClientRegion) setting {
	var s setting
	found := false
	for _, n := range r.Nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if name, _ := e.calleeOf(n); name == retryable+".NewClient" {
					found = true
					switch sc := e.Res.Of(n); {
					case sc == nil:
						s.off = true // one attempt: no scope (oneAttempt)
					case sc.Cap.Kind == CapBounded, unreadLayer(sc.Cap):
						s.unknown = true // RetryMax set to what the model cannot read
					default:
						s.set(capAttempts(sc.Cap))
					}
				}
			case *ast.CompositeLit:
				if e.typeIn(n, func(p string) bool { return p == retryable }, "Client") {
					found = true
					switch sc := e.Res.Of(n); {
					case sc == nil:
						s.off = true // RetryMax 0
					case sc.Cap.Kind == CapBounded:
						s.unknown = true
					default:
						s.set(capAttempts(sc.Cap))
					}
				}
			}
			return true
		})
	}
	if !found {
		s = e.configured(r, "retryablehttp", e.retryMaxSetting)
	} else {
		// settings written on the client after construction, where the
		// model does not see them as its own: a caller's c.RetryMax = 0
		// on the client a helper of the package returns
		later := e.configured(&ClientRegion{Nodes: r.Nodes}, "retryablehttp", e.retryMaxSetting)
		s.off = s.off || later.off
		s.unknown = s.unknown || later.unknown
	}
	if s.attempts == 0 {
		s.attempts = retryableDefault
	}
	return s
}

// retryMaxSetting finds RetryMax = 0 on a retryablehttp.Client.
func (e *ClientEnv) retryMaxSetting(s *setting, n ast.Node) {
	isClient := func(x ast.Expr) bool {
		return e.typeIn(x, func(p string) bool { return p == retryable }, "Client")
	}
	e.fieldSetting(n, "RetryMax", isClient, func(v ast.Expr) {
		if c := e.retryMaxCap(v); c.Kind != CapKnown {
			s.unknown = true
		} else {
			s.set(c.N)
		}
	})
}

// retryMaxCap reads a RetryMax value: as the model read it, when the
// model read this setting as its client's (retryMaxCap: a constant, or a
// field of the package's own with a default), else a constant's.
func (e *ClientEnv) retryMaxCap(v ast.Expr) Cap {
	if e.Res != nil {
		if c, ok := e.Res.clientCaps[v]; ok {
			return c
		}
	}
	if k, ok := e.intValue(v); ok {
		return Cap{Kind: CapKnown, N: k + 1}
	}
	return Cap{Kind: CapBounded}
}

// roundTripper evaluates a *retryablehttp.RoundTripper: it sends through
// its Client, a NewClient() when the field is unset.
func (e *ClientEnv) roundTripper(r *ClientRegion) setting {
	var client []ast.Expr
	lit := false
	for _, n := range r.Nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if cl, ok := n.(*ast.CompositeLit); ok && e.typeIn(cl, func(p string) bool { return p == retryable }, "RoundTripper") {
				lit = true
				for _, elt := range cl.Elts {
					if kv, ok := elt.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Client" {
							client = append(client, kv.Value)
						}
					}
				}
			}
			return true
		})
	}
	if lit && len(client) == 0 {
		return setting{attempts: retryableDefault}
	}
	return e.retryableClient(e.region(client...))
}

// httpClient evaluates a *net/http.Client; ok is false when nothing shows
// that it sends through go-retryablehttp (StandardClient, RoundTripper) or
// through a retrying transport of another package (e.Transport), whose
// library it returns.
func (e *ClientEnv) httpClient(r *ClientRegion) (s setting, lib string, ok bool) {
	var std []*ast.CallExpr
	rt := false
	var tr *SelfRetry
	for _, n := range r.Nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if name, call := e.calleeOf(n); name == "(*"+retryable+".Client).StandardClient" {
					std = append(std, call)
				}
				if fn, _ := typeutil.Callee(e.Info, n).(*types.Func); fn != nil && e.Transport != nil && tr == nil {
					if sr, ok := e.Transport(fn.Origin()); ok {
						tr = &sr
					}
				}
			case *ast.CompositeLit:
				if e.typeIn(n, func(p string) bool { return p == retryable }, "RoundTripper") {
					rt = true
				}
			}
			return true
		})
	}
	switch {
	case len(std) > 0:
		var recvs []ast.Expr
		for _, call := range std {
			recvs = append(recvs, recv(call))
		}
		return e.retryableClient(e.region(recvs...)), retryable, true
	case rt:
		return e.roundTripper(r), retryable, true
	case tr != nil:
		return setting{attempts: tr.Attempts, offBy: tr.OffBy}, tr.Library, true
	}
	return setting{}, "", false
}

// ---- gRPC

// grpcLayer returns the SelfRetry of a gRPC call (GRPCCall) on a
// connection that retries by itself: the conn, or the generated stub
// built on it (pb.NewXClient(conn)), traced back to the package's dials;
// every dial found must retry (see GRPCConn), with the call's
// own retry.CallOptions.
func (e *ClientEnv) grpcLayer(call *ast.CallExpr, fn *types.Func) (SelfRetry, bool) {
	var r *ClientRegion
	if fn.Signature().Recv() != nil {
		r = e.region(recv(call))
	} else if len(call.Args) >= 5 { // grpc.Invoke(ctx, method, args, reply, cc, opts...)
		r = e.region(call.Args[4])
	} else {
		return SelfRetry{}, false
	}
	opts := e.Res.GRPCCallOptions(call)
	var conns []*GRPCConn
	for _, n := range r.Nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if dial, ok := n.(*ast.CallExpr); ok {
				if conn := e.Res.GRPCConn(dial); conn != nil {
					conns = append(conns, conn)
				}
			}
			return true
		})
	}
	if len(conns) == 0 {
		return SelfRetry{}, false // a conn made elsewhere: not known to retry
	}
	l := SelfRetry{Library: grpcPath, Client: true}
	worst := 1
	for _, conn := range conns {
		a, own := conn.CallAttempts(e.Info, call, opts)
		if oneAttempt(a) || unreadLayer(a) {
			return SelfRetry{}, false // no retries, or none the model can tell
		}
		if conn.Interceptor {
			l.Library = grpcRetry
		}
		if own && e.Res.pkg != nil {
			l.Library = e.Res.pkg.Path() // the package's own interceptor retries
		}
		if a.Kind != CapKnown {
			worst = 0
		} else if worst > 0 && a.N > worst {
			worst = a.N
		}
	}
	l.Attempts = worst
	return l, true
}

// ---- stripe-go

// stripeCall reports whether fn is a stripe-go API call: a method of a
// stripe.Client service (v1XService, v2XService), a Backend call, or a
// function or Client method of a resource package (paymentintent.New).
func stripeCall(fn *types.Func) bool {
	sig := fn.Signature()
	if sig.Results().Len() == 0 || !isError(sig.Results().At(sig.Results().Len()-1).Type()) {
		return false
	}
	path := fn.Pkg().Path()
	root := stripeModule.FindString(path)
	if path == root {
		if sig.Recv() == nil {
			return false
		}
		recv := astq.NamedOf(sig.Recv().Type())
		if recv == nil {
			return false
		}
		tn := recv.Name()
		if tn == "Backend" || tn == "BackendImplementation" {
			return strings.HasPrefix(fn.Name(), "Call")
		}
		return strings.HasSuffix(tn, "Service")
	}
	switch strings.TrimPrefix(path, root+"/") {
	case "webhook", "form":
		return false // no network calls
	}
	return true
}

// stripeSetting finds MaxNetworkRetries settings: a BackendConfig field or
// SetMaxNetworkRetries.
func (e *ClientEnv) stripeSetting(s *setting, n ast.Node) {
	eval := func(v ast.Expr) {
		if k, ok := e.intValue(v); !ok {
			s.unknown = true
		} else {
			s.set(k + 1)
		}
	}
	isConfig := func(x ast.Expr) bool { return e.typeIn(x, stripeModule.MatchString, "BackendConfig") }
	e.fieldSetting(n, "MaxNetworkRetries", isConfig, eval)
	if call, ok := n.(*ast.CallExpr); ok && len(call.Args) == 1 {
		if fn, _ := typeutil.Callee(e.Info, call).(*types.Func); fn != nil && fn.Name() == "SetMaxNetworkRetries" && fn.Pkg() != nil && stripeModule.MatchString(fn.Pkg().Path()) {
			eval(call.Args[0])
		}
	}
}

// globalStripeBackend is the region of the backends the package installs
// with stripe.SetBackend, which the resource packages' functions use.
func (e *ClientEnv) globalStripeBackend() *ClientRegion {
	var args []ast.Expr
	for _, f := range e.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if name, call := e.calleeOf(n); call != nil && len(call.Args) == 2 && stripeModule.MatchString(name) && strings.HasSuffix(name, ".SetBackend") {
				args = append(args, call.Args[1])
			}
			return true
		})
	}
	r := e.region(args...)
	r.Open = false // set elsewhere, if anywhere: the default applies
	return r
}

// ---- aws-sdk-go-v2

// awsOperation reports whether fn is a service client operation:
// (*Client).Op(ctx, params, optFns ...func(*Options)) (*Output, error).
func awsOperation(fn *types.Func) bool {
	sig := fn.Signature()
	if sig.Recv() == nil || !sig.Variadic() || sig.Params().Len() != 3 || sig.Results().Len() != 2 {
		return false
	}
	if recv := astq.NamedOf(sig.Recv().Type()); recv == nil || recv.Name() != "Client" {
		return false
	}
	return isContext(sig.Params().At(0).Type()) && isError(sig.Results().At(1).Type())
}

// awsSetting finds retry settings: aws.NopRetryer, RetryMaxAttempts,
// config.WithRetryMaxAttempts, retry.AddWithMaxAttempts, StandardOptions
// MaxAttempts, and retryers the check cannot see into.
func (e *ClientEnv) awsSetting(s *setting, n ast.Node) {
	inAWS := func(p string) bool { return strings.HasPrefix(p, awsRoot) }
	isAWS := func(x ast.Expr) bool { return e.typeIn(x, inAWS, "") }
	if cl, ok := n.(*ast.CompositeLit); ok && e.typeIn(cl, func(p string) bool { return p == awsPkg }, "NopRetryer") {
		s.off = true
	}
	e.fieldSetting(n, "RetryMaxAttempts", isAWS, func(v ast.Expr) {
		if k, ok := e.intValue(v); !ok {
			s.unknown = true
		} else if k > 0 {
			s.set(k) // 0 means unset
		}
	})
	isStd := func(x ast.Expr) bool {
		return e.typeIn(x, func(p string) bool { return p == awsRetry }, "StandardOptions")
	}
	e.fieldSetting(n, "MaxAttempts", isStd, func(v ast.Expr) {
		if k, ok := e.intValue(v); !ok {
			s.unknown = true
		} else if k > 0 {
			s.set(k) // <= 0 falls back to 3
		}
	})
	e.fieldSetting(n, "Retryer", isAWS, func(v ast.Expr) { e.awsRetryer(s, v) })
	name, call := e.calleeOf(n)
	switch name {
	case awsConfig + ".WithRetryMaxAttempts":
		if len(call.Args) == 1 {
			if k, ok := e.intValue(call.Args[0]); !ok {
				s.unknown = true
			} else if k > 0 {
				s.set(k)
			}
		}
	case awsRetry + ".AddWithMaxAttempts":
		if len(call.Args) == 2 {
			if k, ok := e.intValue(call.Args[1]); !ok {
				s.unknown = true
			} else if k == 0 {
				s.set(-1) // no attempt limit
			} else {
				s.set(k)
			}
		}
	case awsConfig + ".WithRetryer":
		if len(call.Args) == 1 {
			e.awsRetryer(s, call.Args[0])
		}
	}
}

// awsRetryer marks a retryer the check cannot see into as unknown: one
// that is neither aws.NopRetryer nor built by the aws/retry package.
func (e *ClientEnv) awsRetryer(s *setting, v ast.Expr) {
	known := false
	r := e.region(v)
	for _, n := range r.Nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if cl, ok := n.(*ast.CompositeLit); ok && e.typeIn(cl, func(p string) bool { return p == awsPkg }, "NopRetryer") {
				known = true
			}
			if name, _ := e.calleeOf(n); strings.HasPrefix(name, awsRetry+".") {
				known = true
			}
			return true
		})
	}
	if !known {
		s.unknown = true
	}
}

// ---- k8s client-go rest

// k8sSetting finds (*rest.Request).MaxRetries(n): n retries.
func (e *ClientEnv) k8sSetting(s *setting, n ast.Node) {
	name, call := e.calleeOf(n)
	if name != "(*"+k8sRest+".Request).MaxRetries" || len(call.Args) != 1 {
		return
	}
	if k, ok := e.intValue(call.Args[0]); !ok {
		s.unknown = true
	} else {
		s.set(k + 1)
	}
}

// k8sTypedCall reports whether fn is a method of a typed clientset's
// resource interface that sends a request: Create(ctx, ...) error-returning.
func k8sTypedCall(fn *types.Func) bool {
	sig := fn.Signature()
	if sig.Recv() == nil || !types.IsInterface(sig.Recv().Type()) || sig.Params().Len() == 0 || sig.Results().Len() == 0 {
		return false
	}
	return isContext(sig.Params().At(0).Type()) && isError(sig.Results().At(sig.Results().Len()-1).Type())
}

// ---- gax-go

// gaxRetries reports whether a gax.Invoke call retries: one of its options
// is gax.WithRetry, or the options are spread from a slice (a Cloud
// client's per-method call options, which set retries).
func (e *ClientEnv) gaxRetries(call *ast.CallExpr) bool {
	if call.Ellipsis.IsValid() {
		return true
	}
	if len(call.Args) < 3 {
		return false
	}
	r := e.region(call.Args[2:]...)
	found := false
	for _, n := range r.Nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if name, _ := e.calleeOf(n); name == gax+".WithRetry" {
				found = true
			}
			return !found
		})
	}
	return found
}

// capAttempts converts the retry model's cap: > 0 known, 0 unknown, -1 none.
func capAttempts(c Cap) int {
	switch c.Kind {
	case CapKnown:
		return c.N
	case CapNone:
		return -1
	}
	return 0
}

// clientCalls over-approximates SelfRetrying, one entry per kind of client:
// a call of a package that pkg matches, by a name and number of arguments
// that call accepts; when funcs is set, the entry's calls are of functions
// of the package, which only a package that imports it can call. Keep it
// in step with SelfRetrying. When dials names a library, a package has
// such calls only when it also calls one of that library's entry points
// by name: its client is made in the package.
var clientCalls = []struct {
	pkg   func(path string) bool
	call  func(name string, args int) bool
	funcs bool
	dials string
}{
	// go-retryablehttp clients and round trippers, and the net/http
	// clients built on them
	{pkg: is(retryable), call: named("Do", "Get", "Head", "Post", "PostForm", "RoundTrip")},
	// every stripe-go API call
	{pkg: stripeModule.MatchString, call: anyCall},
	// aws-sdk-go-v2 service operations: (ctx, input, optFns...)
	{pkg: func(path string) bool { return strings.HasPrefix(path, awsRoot+"/service/") }, call: minArgs(2)},
	// client-go REST requests
	{pkg: is(k8sRest), call: named("Do", "DoRaw", "Stream", "Watch")},
	// gRPC calls (Invoke, NewStream, generated stubs' methods: ctx first) on
	// a conn dialled in the package (grpcLayer), which imports grpc to
	// dial it and calls one of its dials (the table's entries)
	{pkg: is(grpcPath), call: minArgs(1), funcs: true, dials: grpcPath},
	// gax.Invoke(ctx, call, opts...)
	{pkg: is(gax), call: func(name string, args int) bool { return name == "Invoke" && args >= 2 }, funcs: true},
}

// typedCalls over-approximates the calls of client-go typed clients that
// SelfRetrying takes (k8sTypedCall) in p: calls by the name of a method of
// an interface of a typed package that p depends on, whose first
// parameter is a context and last result an error, read from the typed
// packages' export data; nil when p depends on none.
func typedCalls(p *prefilter.Package) func(string, int) bool {
	var paths []string
	p.DependsOn(func(path string) bool {
		if strings.HasPrefix(path, k8sTyped) {
			paths = append(paths, path)
		}
		return false
	})
	if len(paths) == 0 {
		return nil
	}
	names := make(map[string]bool)
	for _, path := range paths {
		tp, err := p.Types(path)
		if err != nil {
			return minArgs(1) // any method call might be one
		}
		for name := range typedMethods(tp) {
			names[name] = true
		}
	}
	return func(name string, args int) bool { return args >= 1 && names[name] }
}

// typedMethodCache holds typedMethods' answers by package.
var typedMethodCache sync.Map // *types.Package → map[string]bool

// typedMethods returns the names of the methods of the interfaces that tp
// declares (their embedded ones too) whose first parameter is a context
// and last result an error.
func typedMethods(tp *types.Package) map[string]bool {
	if v, ok := typedMethodCache.Load(tp); ok {
		return v.(map[string]bool)
	}
	names := make(map[string]bool)
	scope := tp.Scope()
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok {
			continue
		}
		iface, ok := tn.Type().Underlying().(*types.Interface)
		if !ok {
			continue
		}
		for m := range iface.Methods() {
			sig := m.Signature()
			if sig.Params().Len() > 0 && sig.Results().Len() > 0 && isContext(sig.Params().At(0).Type()) &&
				isError(sig.Results().At(sig.Results().Len()-1).Type()) {
				names[m.Name()] = true
			}
		}
	}
	typedMethodCache.Store(tp, names)
	return names
}

func is(path string) func(string) bool { return func(p string) bool { return p == path } }

func named(names ...string) func(string, int) bool {
	return func(name string, _ int) bool {
		for _, n := range names {
			if n == name {
				return true
			}
		}
		return false
	}
}

func minArgs(n int) func(string, int) bool { return func(_ string, args int) bool { return args >= n } }

func anyCall(string, int) bool { return true }

// ClientCalls returns the prefilter's stand-ins for SelfRetrying in p: by
// the name and number of arguments of a call, whether it may be a call of
// a client that retries by itself. With imported set, those of the
// clients whose calls are of functions of their package, which only a
// package that imports it can call (read from p's import list alone);
// otherwise those of the clients that p depends on, and of the client-go
// typed clients (read from the types of p's dependencies).
func ClientCalls(p *prefilter.Package, imported bool) []func(string, int) bool {
	var calls []func(string, int) bool
	for _, cl := range clientCalls {
		switch {
		case imported && cl.funcs && slices.ContainsFunc(p.Imports, cl.pkg),
			!imported && !cl.funcs && p.DependsOn(cl.pkg):
			if cl.dials == "" || callsEntry(p, cl.dials) {
				calls = append(calls, cl.call)
			}
		}
	}
	if !imported {
		if typed := typedCalls(p); typed != nil {
			calls = append(calls, typed)
		}
	}
	return calls
}

// callsEntry reports whether p calls, by name, an entry point of the
// library of path (or its source could not be read).
func callsEntry(p *prefilter.Package, path string) bool {
	if p.Lexicon == nil {
		return true
	}
	lex, err := p.Lexicon()
	return err != nil || slices.ContainsFunc(registry[path].Entries, func(name string) bool { return lex.Calls[name] })
}

// AllowsNested reports whether the call of a SingleLayer library that s
// makes sets, in its policy, the field that lets it retry inside the
// operation of another call.
func (e *ClientEnv) AllowsNested(s *Scope) bool {
	l := registry[s.Library]
	call, ok := s.Node.(*ast.CallExpr)
	if l == nil || l.Nested == "" || !ok || len(call.Args) != 3 || l.PolicyArg >= len(call.Args) {
		return false
	}
	found := false
	isPolicy := func(x ast.Expr) bool { return e.typeIn(x, is(l.Path), "Policy") }
	for _, n := range e.region(call.Args[l.PolicyArg]).Nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			e.fieldSetting(n, l.Nested, isPolicy, func(v ast.Expr) {
				if tv, ok := e.Info.Types[v]; ok && tv.Value != nil && constant.BoolVal(tv.Value) {
					found = true
				}
			})
			return true
		})
	}
	return found
}

// everyMethodPolicies lists, per client library, its stock retry policies
// that decide on the error and the status alone, the same for every
// request method: retryablehttp's DefaultRetryPolicy and
// ErrorPropagatedRetryPolicy retry connection errors, 429 and 5xx, POST
// as well as GET.
var everyMethodPolicies = map[string][]string{
	retryable: {"DefaultRetryPolicy", "ErrorPropagatedRetryPolicy"},
}

// EveryMethodPolicy reports whether fn is a stock retry policy of a client
// library that retries every request method alike (everyMethodPolicies).
func EveryMethodPolicy(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || fn.Signature().Recv() != nil {
		return false
	}
	return slices.Contains(everyMethodPolicies[fn.Pkg().Path()], fn.Name())
}
