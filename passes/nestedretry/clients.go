package nestedretry

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/passes/internal/names"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// Import paths of the clients that retry by themselves.
const (
	retryable = "github.com/hashicorp/go-retryablehttp"
	awsRoot   = "github.com/aws/aws-sdk-go-v2"
	awsPkg    = awsRoot + "/aws"
	awsRetry  = awsRoot + "/aws/retry"
	awsConfig = awsRoot + "/config"
	k8sRest   = "k8s.io/client-go/rest"
	k8sTyped  = "k8s.io/client-go/kubernetes/typed/"
	gax       = "github.com/googleapis/gax-go/v2"
	grpcPath  = "google.golang.org/grpc"
	grpcRetry = "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	idemRetry = "github.com/idemlint/idemlint/runtime/retry"
)

var stripeModule = regexp.MustCompile(`^github\.com/stripe/stripe-go/v[0-9]+`)

// Library defaults, in attempts (the first call included).
const (
	retryableDefault = 5  // RetryMax 4
	stripeDefault    = 3  // MaxNetworkRetries 2
	awsDefault       = 3  // retry.DefaultMaxAttempts
	k8sDefault       = 11 // maxRetries 10
)

// setting is what the configuration code of one client says about its
// retries.
type setting struct {
	off      bool // retries disabled (0 retries, 1 attempt, a no-op retryer)
	unknown  bool // set to something the check cannot evaluate
	attempts int  // a known attempt cap; -1 no cap; 0 none found
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

// clientLayer returns the layer of a call to a client that retries by
// itself, or nil.
func (c *checker) clientLayer(call *ast.CallExpr) *layer {
	fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	fn = fn.Origin()
	path := fn.Pkg().Path()
	if _, _, ok := retryscope.GRPCCall(c.pass.TypesInfo, call); ok {
		return c.grpcLayer(call, fn)
	}
	if !clientPath(path) {
		return nil
	}
	name := fn.FullName()
	l := &layer{node: call, pos: callPos(call), end: call.Fun.End(), desc: names.Of(fn), lib: path, client: true}
	var s setting
	switch {
	case path == retryable:
		switch name {
		case "(*" + retryable + ".Client).Do", "(*" + retryable + ".Client).Get", "(*" + retryable + ".Client).Head",
			"(*" + retryable + ".Client).Post", "(*" + retryable + ".Client).PostForm":
			s = c.retryableClient(c.x.region(recv(call)))
		case retryable + ".Get", retryable + ".Head", retryable + ".Post", retryable + ".PostForm":
			s.attempts = retryableDefault // the package's default client
		case "(*" + retryable + ".RoundTripper).RoundTrip":
			s = c.roundTripper(c.x.region(recv(call)))
		default:
			return nil
		}
	case path == "net/http":
		switch name {
		case "(*net/http.Client).Do", "(*net/http.Client).Get", "(*net/http.Client).Head",
			"(*net/http.Client).Post", "(*net/http.Client).PostForm":
		default:
			return nil
		}
		var ok bool
		if s, ok = c.httpClient(c.x.region(recv(call))); !ok {
			return nil
		}
		l.lib = retryable
	case stripeModule.MatchString(path):
		if !stripeCall(fn) {
			return nil
		}
		l.lib = stripeModule.FindString(path)
		var r *region
		if sig := fn.Signature(); sig.Recv() != nil {
			r = c.x.region(recv(call))
		} else {
			r = c.globalStripeBackend()
		}
		s = c.configured(r, "stripe", c.stripeSetting)
		if s.attempts == 0 {
			s.attempts = stripeDefault
		}
	case strings.HasPrefix(path, awsRoot+"/service/"):
		if !awsOperation(fn) {
			return nil
		}
		l.lib = awsRoot
		r := c.x.region(recv(call))
		if len(call.Args) > 2 { // per-call option functions
			r2 := c.x.region(call.Args[2:]...)
			r.nodes = append(r.nodes, r2.nodes...)
			r.open = r.open || r2.open
		}
		s = c.configured(r, "aws", c.awsSetting)
		if s.attempts == 0 {
			s.attempts = awsDefault
		}
	case path == k8sRest:
		switch name {
		case "(*" + k8sRest + ".Request).Do", "(*" + k8sRest + ".Request).DoRaw",
			"(*" + k8sRest + ".Request).Stream", "(*" + k8sRest + ".Request).Watch":
		default:
			return nil
		}
		// MaxRetries is set per request, on the request chain: the
		// RESTClient a request comes from carries no retry setting.
		r := c.x.region(recv(call))
		r.open = false
		s = c.configured(r, "k8s", c.k8sSetting)
		if s.attempts == 0 {
			s.attempts = k8sDefault
		}
	case strings.HasPrefix(path, k8sTyped):
		// typed clientsets (clientset.CoreV1().Pods(ns).Create(...)) are
		// interfaces over REST requests with the default retries
		if !k8sTypedCall(fn) {
			return nil
		}
		l.lib = k8sRest
		s.attempts = k8sDefault
	case path == gax:
		if name != gax+".Invoke" || len(call.Args) < 2 {
			return nil
		}
		if !c.gaxRetries(call) {
			return nil
		}
		l.client = false
		l.attempts = -1 // gax has no attempt cap
		if call.Ellipsis.IsValid() {
			l.attempts = 0 // per-method call options: deadline-bounded, cap unknown
		}
		l.body, l.op, l.opExpr = c.opOf(call.Args[1])
		return l
	default:
		return nil
	}
	if s.off || s.unknown {
		return nil
	}
	l.attempts = s.attempts
	return l
}

// clientPath reports whether clientLayer may take a call of a function of
// the package at path.
func clientPath(path string) bool {
	return path == retryable || path == "net/http" || stripeModule.MatchString(path) ||
		strings.HasPrefix(path, awsRoot+"/service/") || path == k8sRest || strings.HasPrefix(path, k8sTyped) || path == gax
}

// callPos is where a call is reported: the method or function name.
func callPos(call *ast.CallExpr) token.Pos {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return sel.Sel.Pos()
	}
	return call.Pos()
}

// recv returns the receiver expression of a method call, or nil.
func recv(call *ast.CallExpr) ast.Expr {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return sel.X
	}
	return nil
}

// configured evaluates a client's region with detect; when the region is
// open and says nothing, the whole package is searched: a setting found
// anywhere in it may be this client's, so it counts when it turns retries
// off or cannot be evaluated.
func (c *checker) configured(r *region, key string, detect func(*setting, ast.Node)) setting {
	var s setting
	for _, n := range r.nodes {
		ast.Inspect(n, func(n ast.Node) bool { detect(&s, n); return true })
	}
	if s.off || s.unknown || s.attempts != 0 || !r.open {
		return s
	}
	if fb, ok := c.fallback[key]; ok {
		if fb.off || fb.unknown {
			return fb
		}
		return s
	}
	var fb setting
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool { detect(&fb, n); return true })
	}
	c.fallback[key] = fb
	if fb.off || fb.unknown {
		return fb
	}
	return s
}

// intValue evaluates a constant, or stripe.Int64(c) / aws.Int32(c)-style
// pointer helpers of a constant.
func (c *checker) intValue(e ast.Expr) (int, bool) {
	e = ast.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 1 {
		if fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func); ok && fn.Pkg() != nil && strings.HasPrefix(fn.Name(), "Int") {
			e = call.Args[0]
		}
	}
	tv, ok := c.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	n, ok := constant.Int64Val(tv.Value)
	return int(n), ok
}

// typeIn reports whether e's type (or the type it points to) is a named
// type of a package whose path satisfies in, named name ("" for any).
func (c *checker) typeIn(e ast.Expr, in func(string) bool, name string) bool {
	t := c.pass.TypesInfo.TypeOf(e)
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
func (c *checker) fieldSetting(n ast.Node, field string, ok func(ast.Expr) bool, f func(ast.Expr)) {
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
func (c *checker) calleeOf(n ast.Node) (string, *ast.CallExpr) {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return "", nil
	}
	fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if fn == nil {
		return "", nil
	}
	return fn.Origin().FullName(), call
}

// ---- go-retryablehttp

// retryableClient evaluates a *retryablehttp.Client: built by NewClient
// (the retry model knows its RetryMax) or by a literal (retrying only when
// it sets RetryMax).
func (c *checker) retryableClient(r *region) setting {
	var s setting
	found := false
	for _, n := range r.nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if name, _ := c.calleeOf(n); name == retryable+".NewClient" {
					found = true
					if sc := c.res.Of(n); sc != nil {
						s.set(capAttempts(sc.Cap))
						if sc.Cap.Kind == retryscope.CapKnown && sc.Cap.N <= 1 {
							s.off = true
						}
					}
				}
			case *ast.CompositeLit:
				if c.typeIn(n, func(p string) bool { return p == retryable }, "Client") {
					found = true
					if sc := c.res.Of(n); sc == nil {
						s.off = true // RetryMax 0
					} else {
						s.set(capAttempts(sc.Cap))
					}
				}
			}
			return true
		})
	}
	if !found {
		s = c.configured(r, "retryablehttp", c.retryMaxSetting)
	}
	if s.attempts == 0 {
		s.attempts = retryableDefault
	}
	return s
}

// retryMaxSetting finds RetryMax = 0 on a retryablehttp.Client.
func (c *checker) retryMaxSetting(s *setting, n ast.Node) {
	isClient := func(e ast.Expr) bool {
		return c.typeIn(e, func(p string) bool { return p == retryable }, "Client")
	}
	c.fieldSetting(n, "RetryMax", isClient, func(v ast.Expr) {
		if k, ok := c.intValue(v); !ok {
			s.unknown = true
		} else {
			s.set(k + 1)
		}
	})
}

// roundTripper evaluates a *retryablehttp.RoundTripper: it sends through
// its Client, a NewClient() when the field is unset.
func (c *checker) roundTripper(r *region) setting {
	var client []ast.Expr
	lit := false
	for _, n := range r.nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if cl, ok := n.(*ast.CompositeLit); ok && c.typeIn(cl, func(p string) bool { return p == retryable }, "RoundTripper") {
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
	return c.retryableClient(c.x.region(client...))
}

// httpClient evaluates a *net/http.Client; ok is false when nothing shows
// that it sends through go-retryablehttp (StandardClient, RoundTripper).
func (c *checker) httpClient(r *region) (s setting, ok bool) {
	var std []*ast.CallExpr
	rt := false
	for _, n := range r.nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if name, call := c.calleeOf(n); name == "(*"+retryable+".Client).StandardClient" {
					std = append(std, call)
				}
			case *ast.CompositeLit:
				if c.typeIn(n, func(p string) bool { return p == retryable }, "RoundTripper") {
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
		return c.retryableClient(c.x.region(recvs...)), true
	case rt:
		return c.roundTripper(r), true
	}
	return setting{}, false
}

// ---- gRPC

// grpcLayer returns the layer of a gRPC call (retryscope.GRPCCall) on a
// connection that retries by itself: the conn, or the generated stub
// built on it (pb.NewXClient(conn)), traced back to the package's dials;
// every dial found must retry (see retryscope.GRPCConn), with the call's
// own retry.CallOptions.
func (c *checker) grpcLayer(call *ast.CallExpr, fn *types.Func) *layer {
	var r *region
	if fn.Signature().Recv() != nil {
		r = c.x.region(recv(call))
	} else if len(call.Args) >= 5 { // grpc.Invoke(ctx, method, args, reply, cc, opts...)
		r = c.x.region(call.Args[4])
	} else {
		return nil
	}
	opts := c.res.GRPCCallOptions(call)
	var conns []*retryscope.GRPCConn
	for _, n := range r.nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if dial, ok := n.(*ast.CallExpr); ok {
				if conn := c.res.GRPCConn(dial); conn != nil {
					conns = append(conns, conn)
				}
			}
			return true
		})
	}
	if len(conns) == 0 {
		return nil // a conn made elsewhere: not known to retry
	}
	l := &layer{node: call, pos: callPos(call), end: call.Fun.End(), desc: names.Of(fn), lib: grpcPath, client: true}
	worst := 1
	for _, conn := range conns {
		if !conn.Retries(opts) {
			return nil
		}
		a := conn.Attempts(opts)
		if conn.Interceptor {
			l.lib = grpcRetry
		}
		if a.Kind != retryscope.CapKnown {
			worst = 0
		} else if worst > 0 && a.N > worst {
			worst = a.N
		}
	}
	l.attempts = worst
	return l
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
		t := sig.Recv().Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := types.Unalias(t).(*types.Named)
		if !ok {
			return false
		}
		tn := n.Obj().Name()
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
func (c *checker) stripeSetting(s *setting, n ast.Node) {
	eval := func(v ast.Expr) {
		if k, ok := c.intValue(v); !ok {
			s.unknown = true
		} else {
			s.set(k + 1)
		}
	}
	isConfig := func(e ast.Expr) bool { return c.typeIn(e, stripeModule.MatchString, "BackendConfig") }
	c.fieldSetting(n, "MaxNetworkRetries", isConfig, eval)
	if name, call := c.calleeOf(n); call != nil && strings.HasSuffix(name, ".SetMaxNetworkRetries") && len(call.Args) == 1 {
		if fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func); fn != nil && stripeModule.MatchString(fn.Pkg().Path()) {
			eval(call.Args[0])
		}
	}
}

// globalStripeBackend is the region of the backends the package installs
// with stripe.SetBackend, which the resource packages' functions use.
func (c *checker) globalStripeBackend() *region {
	var args []ast.Expr
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if name, call := c.calleeOf(n); call != nil && len(call.Args) == 2 && stripeModule.MatchString(name) && strings.HasSuffix(name, ".SetBackend") {
				args = append(args, call.Args[1])
			}
			return true
		})
	}
	r := c.x.region(args...)
	r.open = false // set elsewhere, if anywhere: the default applies
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
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Name() != "Client" {
		return false
	}
	return isContext(sig.Params().At(0).Type()) && isError(sig.Results().At(1).Type())
}

// awsSetting finds retry settings: aws.NopRetryer, RetryMaxAttempts,
// config.WithRetryMaxAttempts, retry.AddWithMaxAttempts, StandardOptions
// MaxAttempts, and retryers the check cannot see into.
func (c *checker) awsSetting(s *setting, n ast.Node) {
	inAWS := func(p string) bool { return strings.HasPrefix(p, awsRoot) }
	isAWS := func(e ast.Expr) bool { return c.typeIn(e, inAWS, "") }
	if cl, ok := n.(*ast.CompositeLit); ok && c.typeIn(cl, func(p string) bool { return p == awsPkg }, "NopRetryer") {
		s.off = true
	}
	c.fieldSetting(n, "RetryMaxAttempts", isAWS, func(v ast.Expr) {
		if k, ok := c.intValue(v); !ok {
			s.unknown = true
		} else if k > 0 {
			s.set(k) // 0 means unset
		}
	})
	isStd := func(e ast.Expr) bool {
		return c.typeIn(e, func(p string) bool { return p == awsRetry }, "StandardOptions")
	}
	c.fieldSetting(n, "MaxAttempts", isStd, func(v ast.Expr) {
		if k, ok := c.intValue(v); !ok {
			s.unknown = true
		} else if k > 0 {
			s.set(k) // <= 0 falls back to 3
		}
	})
	c.fieldSetting(n, "Retryer", isAWS, func(v ast.Expr) { c.awsRetryer(s, v) })
	name, call := c.calleeOf(n)
	switch name {
	case awsConfig + ".WithRetryMaxAttempts":
		if len(call.Args) == 1 {
			if k, ok := c.intValue(call.Args[0]); !ok {
				s.unknown = true
			} else if k > 0 {
				s.set(k)
			}
		}
	case awsRetry + ".AddWithMaxAttempts":
		if len(call.Args) == 2 {
			if k, ok := c.intValue(call.Args[1]); !ok {
				s.unknown = true
			} else if k == 0 {
				s.set(-1) // no attempt limit
			} else {
				s.set(k)
			}
		}
	case awsConfig + ".WithRetryer":
		if len(call.Args) == 1 {
			c.awsRetryer(s, call.Args[0])
		}
	}
}

// awsRetryer marks a retryer the check cannot see into as unknown: one
// that is neither aws.NopRetryer nor built by the aws/retry package.
func (c *checker) awsRetryer(s *setting, v ast.Expr) {
	known := false
	r := c.x.region(v)
	for _, n := range r.nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if cl, ok := n.(*ast.CompositeLit); ok && c.typeIn(cl, func(p string) bool { return p == awsPkg }, "NopRetryer") {
				known = true
			}
			if name, _ := c.calleeOf(n); strings.HasPrefix(name, awsRetry+".") {
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
func (c *checker) k8sSetting(s *setting, n ast.Node) {
	name, call := c.calleeOf(n)
	if name != "(*"+k8sRest+".Request).MaxRetries" || len(call.Args) != 1 {
		return
	}
	if k, ok := c.intValue(call.Args[0]); !ok {
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
func (c *checker) gaxRetries(call *ast.CallExpr) bool {
	if call.Ellipsis.IsValid() {
		return true
	}
	if len(call.Args) < 3 {
		return false
	}
	r := c.x.region(call.Args[2:]...)
	found := false
	for _, n := range r.nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if name, _ := c.calleeOf(n); name == gax+".WithRetry" {
				found = true
			}
			return !found
		})
	}
	return found
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

func isContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// capAttempts converts the retry model's cap: > 0 known, 0 unknown, -1 none.
func capAttempts(c retryscope.Cap) int {
	switch c.Kind {
	case retryscope.CapKnown:
		return c.N
	case retryscope.CapNone:
		return -1
	}
	return 0
}
