package jobretry

import (
	"go/ast"
	"go/types"

	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/keys"
	"github.com/idemlint/idemlint/passes/retryscope"
)

func keysWrites(c *checker, n ast.Node) []keys.HeaderWrite { return keys.Writes(c.info, n) }

// mentionsID reports whether e is computed from the job's stable id: the
// asynq task id, river's job.ID, Temporal's workflow and activity ids, a
// message's stable id (retryscope.MessageIDField, and a JetStream
// message's Nats-Msg-Id header read by name: keys.MsgIDRead), a variable
// of body assigned from one, or a parameter that carries one. A value that
// also uses the attempt number is not stable.
func (c *checker) mentionsID(h *handler, body *ast.BlockStmt, ids map[*types.Var]bool, e ast.Expr, depth int) bool {
	if depth > 3 {
		return false
	}
	found, attempt := false, false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if fn := c.callee(n); fn != nil {
				stable, retry := retryscope.JobIDCall(fn)
				found, attempt = found || stable, attempt || retry
			}
			if keys.MsgIDRead(c.info, n) {
				found = true // the JetStream message's Nats-Msg-Id header
			}
			if fn := c.callee(n); fn != nil && c.returnsID(h, fn, depth) {
				found = true // a helper of the package that builds the id (topic/partition/offset)
			}
		case *ast.SelectorExpr:
			if stable, perDelivery := c.messageIDField(n); stable || perDelivery {
				found, attempt = found || stable, attempt || perDelivery
				return true
			}
			if v, ok := c.info.Uses[n.Sel].(*types.Var); ok {
				stable, retry := retryscope.JobIDField(v)
				found, attempt = found || stable, attempt || retry
			}
		case *ast.Ident:
			v, ok := c.info.Uses[n].(*types.Var)
			if !ok || v.IsField() {
				return true
			}
			if ids[v] {
				if _, job := retryscope.RiverJob(v.Type()); !job {
					found = true // a parameter carrying the id
				}
				return true
			}
			if body != nil && v.Parent() != nil && v.Parent() != types.Universe && v.Pkg() == c.pass.Pkg && v.Parent() != c.pass.Pkg.Scope() {
				for _, rhs := range astq.Assignments(c.info, body, v) {
					if rhs != e && c.mentionsID(h, body, ids, rhs, depth+1) {
						found = true
					}
				}
			}
		}
		return true
	})
	return found && !attempt
}

// returnsID reports whether fn, a function declared in the package, returns
// a value computed from a message's or job's stable id (its results are read
// as mentionsID reads an expression), such as a helper that formats a Kafka
// message's topic, partition and offset.
func (c *checker) returnsID(h *handler, fn *types.Func, depth int) bool {
	fd := c.decls[fn]
	if fd == nil || fd.Body == nil || depth >= 3 {
		return false
	}
	return astq.Search(fd.Body, func(n ast.Node, found *bool) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for _, r := range n.Results {
				if c.mentionsID(h, fd.Body, nil, r, depth+1) {
					*found = true
				}
			}
		}
		return true
	})
}

// fresh reports whether e is a new value on every run: a key generator call
// (uuid, ksuid, xid, ulid, idempotency.NewKey, stripe.NewIdempotencyKey,
// time.Now, math/rand), formatted or converted, or a variable of body
// assigned from one.
func (c *checker) fresh(body *ast.BlockStmt, e ast.Expr, depth int) bool {
	if depth > 3 {
		return false
	}
	return astq.Search(e, func(n ast.Node, found *bool) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if fn := c.callee(n); fn != nil && keys.Fresh(fn) {
				*found = true
			}
		case *ast.Ident:
			v, ok := c.info.Uses[n].(*types.Var)
			if ok && !v.IsField() && v.Pkg() == c.pass.Pkg && v.Parent() != c.pass.Pkg.Scope() {
				for _, rhs := range astq.Assignments(c.info, body, v) {
					if rhs != e && c.fresh(body, rhs, depth+1) {
						*found = true
					}
				}
			}
		}
		return true
	})
}
