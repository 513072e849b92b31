package retrytimeout

import (
	"go/ast"
	"go/types"

	"github.com/idemlint/idemlint/passes/retryscope"
)

// gRPC sets no deadline by default: a call's only deadline is its
// context's, or a service config's method timeout, or the retry
// interceptor's WithPerRetryTimeout.

// usesGRPC reports whether pkg imports grpc, or a package (a generated
// stub) that does.
func usesGRPC(pkg *types.Package) bool { return retryscope.UsesGRPC(pkg) }

// grpcTimeoutSomewhere reports whether a dial of the package may give its
// calls a deadline or a per-attempt timeout the check cannot place on a
// call: a service config's method timeout or one it cannot read, or the
// retry interceptor's WithPerRetryTimeout, or options it cannot read.
func grpcTimeoutSomewhere(res *retryscope.Result) bool {
	for _, conn := range res.GRPCConns() {
		if conn.Unknown || conn.Timeout.IsValid() || conn.Policy.Kind == retryscope.CapUnknown ||
			conn.Options.Unknown || conn.PerRetryTimeout(nil).IsValid() {
			return true
		}
	}
	return false
}

// checkGRPC returns the finding for a gRPC call inside a retry whose
// context is proven to have no deadline.
func (c *checker) checkGRPC(call *ast.CallExpr, ctx ast.Expr) (finding, bool) {
	if c.grpcTimeout {
		return finding{}, false
	}
	if o := c.res.GRPCCallOptions(call); o != nil && (o.Unknown || o.PerRetryTimeout.IsValid()) {
		return finding{}, false // retry.WithPerRetryTimeout on the call
	}
	f := c.flowAt(call.Pos())
	if f == nil {
		return finding{}, false
	}
	desc, ok := f.contextWithoutDeadline(ctx, 0)
	if !ok {
		return finding{}, false
	}
	return finding{msg: types.ExprString(call.Fun) + " inside a retry has no deadline (" + desc + "); give each attempt a context.WithTimeout"}, true
}
