package retrystatus

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/internal/suppress"
	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// gRPC status codes: the retry settings of a connection (the retry
// interceptor's WithCodes, a service config's retryableStatusCodes) and
// hand retries whose tests of status.Code(err) repeat the attempt on a
// permanent code (retryscope.GRPCPermanent).

const grpcFix = "retry only Unavailable and ResourceExhausted"

// codeSet is a set of gRPC codes: bit i is code i.
type codeSet uint32

const allCodes codeSet = 1<<17 - 1

func (s codeSet) has(c uint32) bool { return s&(1<<c) != 0 }

// permanentCodes returns the permanent codes of s.
func (s codeSet) permanent() []uint32 {
	var out []uint32
	for c := uint32(0); c < 17; c++ {
		if s.has(c) && retryscope.GRPCPermanent(c) {
			out = append(out, c)
		}
	}
	return out
}

// describeCodes names permanent codes for a message: two by name, more
// by the first and a count.
func describeCodes(cs []uint32, all bool) string {
	var names []string
	for _, c := range cs {
		names = append(names, "codes."+retryscope.GRPCCodeName(c))
	}
	switch {
	case all:
		return "every gRPC code, permanent ones included"
	case len(names) == 1:
		return names[0] + " (permanent)"
	case len(names) == 2:
		return names[0] + " and " + names[1] + " (permanent)"
	}
	return fmt.Sprintf("%s and %d more permanent codes", names[0], len(names)-1)
}

// grpcSettings reports the permanent codes that the retrying gRPC
// connections of the package retry: the retry interceptor's WithCodes and a
// constant service config's retryableStatusCodes.
func (c *checker) grpcSettings(res *retryscope.Result) {
	for _, conn := range res.GRPCConns() {
		if !conn.Retries(nil) || suppress.GeneratedAt(c.pass, conn.Dial.Pos()) {
			continue
		}
		if conn.Interceptor {
			c.grpcCodeList(conn.Options.Codes, "retry.WithCodes retries ")
		}
		var listed []string
		var at retryscope.GRPCCode
		for _, code := range conn.PolicyCodes {
			if retryscope.GRPCPermanent(code.Code) {
				listed = append(listed, "codes."+retryscope.GRPCCodeName(code.Code))
				at = code
			}
		}
		if len(listed) > 0 && (conn.Policy.Kind != retryscope.CapKnown || conn.Policy.N > 1) {
			suppress.Report(c.pass, Name, analysis.Diagnostic{Pos: at.Node.Pos(), End: at.Node.End(),
				Message: "retryableStatusCodes lists " + strings.Join(listed, ", ") + ", permanent; " + grpcFix})
		}
	}
}

func (c *checker) grpcCodeList(codes []retryscope.GRPCCode, what string) {
	for _, code := range codes {
		if retryscope.GRPCPermanent(code.Code) {
			suppress.Report(c.pass, Name, analysis.Diagnostic{Pos: code.Pos, End: code.Node.End(),
				Message: what + describeCodes([]uint32{code.Code}, false) + "; " + grpcFix})
		}
	}
}

// grpcLoops checks the hand retry loops of the model that test gRPC codes.
func (c *checker) grpcLoops(res *retryscope.Result) {
	for _, s := range res.Scopes() {
		if s.Kind != retryscope.Loop || s.Body == nil || s.NotFor || suppress.GeneratedAt(c.pass, s.Pos) {
			continue
		}
		w := &codeWalker{c: c}
		rem, term := w.stmts(s.Body.List, allCodes, false)
		if !term {
			w.retried |= rem // the next pass
		}
		if !w.tested.IsValid() {
			continue // no code test: "any error", the model's own trigger
		}
		c.reportCodes(w, s, "retry loop repeats the attempt on ")
	}
}

func (c *checker) reportCodes(w *codeWalker, s *retryscope.Scope, what string) {
	retried := w.retried &^ 1 // never OK
	if bad := retried.permanent(); len(bad) > 0 {
		all := retried == allCodes&^1
		suppress.Report(c.pass, Name, analysis.Diagnostic{Pos: w.tested, End: w.testedEnd,
			Message: what + describeCodes(bad, all) + "; " + grpcFix})
	}
	if s != nil && retried.has(8) && noWait(s) {
		suppress.Report(c.pass, Name, analysis.Diagnostic{Pos: w.tested, End: w.testedEnd,
			Message: what + "codes.ResourceExhausted with no wait; wait with a jittered backoff between attempts"})
	}
}

// noWait reports whether the scope never waits between attempts.
func noWait(s *retryscope.Scope) bool {
	for _, w := range s.Waits {
		if w.Kind != retryscope.WaitNone {
			return false
		}
	}
	return true
}

// grpcPredicate checks a retry predicate func(error) bool that tests gRPC
// codes (go-grpc-middleware's WithRetriable, avast's RetryIf): the codes
// for which it returns true.
func (c *checker) grpcPredicate(e ast.Expr, what string) {
	var body *ast.BlockStmt
	switch f := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		body = f.Body
	case *ast.Ident, *ast.SelectorExpr:
		id := astq.NameIdent(f)
		if fn, ok := c.info.Uses[id].(*types.Func); ok {
			if d := c.funcDecl(fn); d != nil {
				body = d.Body
			}
		}
	}
	if body == nil {
		return
	}
	w := &codeWalker{c: c}
	w.stmts(body.List, allCodes, true)
	if w.tested.IsValid() && !w.unknown {
		c.reportCodes(w, nil, what)
	}
}

// codeWalker follows the gRPC codes through a retry loop's body (or a
// predicate's): which codes reach each statement, and which repeat the
// attempt (a continue, the end of the body; a return true in a
// predicate).
type codeWalker struct {
	c                 *checker
	retried           codeSet
	tested, testedEnd token.Pos // the first code test
	unknown           bool      // a predicate's result the walker cannot read
}

// stmts walks list with the codes rem reaching it; it returns the codes
// that reach its end, and whether no code does.
func (w *codeWalker) stmts(list []ast.Stmt, rem codeSet, pred bool) (codeSet, bool) {
	for _, st := range list {
		var term bool
		rem, term = w.stmt(st, rem, pred)
		if term {
			return 0, true
		}
	}
	return rem, false
}

func (w *codeWalker) stmt(st ast.Stmt, rem codeSet, pred bool) (codeSet, bool) {
	switch st := st.(type) {
	case *ast.BlockStmt:
		return w.stmts(st.List, rem, pred)
	case *ast.IfStmt:
		s, ok := w.cond(st.Cond)
		if !ok {
			s = allCodes // a test of something else: both branches may run for any code
		}
		thenOut, thenTerm := w.stmts(st.Body.List, rem&s, pred)
		elseIn := rem &^ s
		if !ok {
			elseIn = rem
		}
		elseOut, elseTerm := elseIn, false
		if st.Else != nil {
			elseOut, elseTerm = w.stmt(st.Else, elseIn, pred)
		}
		var out codeSet
		if !thenTerm {
			out |= thenOut
		}
		if !elseTerm {
			out |= elseOut
		}
		return out, thenTerm && elseTerm
	case *ast.SwitchStmt:
		if st.Tag == nil || !w.isCode(st.Tag) {
			return rem, false
		}
		w.test(st.Tag)
		var listed codeSet
		var out codeSet
		hasDefault := false
		for _, cc := range st.Body.List {
			cl := cc.(*ast.CaseClause)
			var in codeSet
			if cl.List == nil {
				hasDefault = true
				continue
			}
			for _, v := range cl.List {
				code, ok := w.codeConst(v)
				if !ok {
					return rem, false
				}
				in |= 1 << code
			}
			listed |= in
			o, term := w.clause(cl.Body, rem&in, pred)
			if !term {
				out |= o
			}
		}
		def := rem &^ listed
		for _, cc := range st.Body.List {
			if cl := cc.(*ast.CaseClause); cl.List == nil {
				o, term := w.clause(cl.Body, def, pred)
				if !term {
					out |= o
				}
			}
		}
		if !hasDefault {
			out |= def
		}
		return out, false
	case *ast.BranchStmt:
		switch st.Tok {
		case token.CONTINUE:
			if st.Label == nil && !pred {
				w.retried |= rem
			}
			return 0, true
		case token.BREAK, token.GOTO:
			return 0, true
		}
	case *ast.ReturnStmt:
		if pred && len(st.Results) == 1 {
			if tv, ok := w.c.info.Types[st.Results[0]]; ok && tv.Value != nil {
				if tv.Value.String() == "true" {
					w.retried |= rem
				}
			} else if s, ok := w.cond(st.Results[0]); ok {
				w.retried |= rem & s
			} else {
				w.unknown = true
			}
		}
		return 0, true
	case *ast.ExprStmt:
		if call, ok := st.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" && w.c.info.Uses[id] == types.Universe.Lookup("panic") {
				return 0, true
			}
		}
	}
	return rem, false
}

// clause walks a case clause, where an unlabelled break leaves the switch.
func (w *codeWalker) clause(list []ast.Stmt, rem codeSet, pred bool) (codeSet, bool) {
	if n := len(list); n > 0 {
		if br, ok := list[n-1].(*ast.BranchStmt); ok && br.Tok == token.BREAK && br.Label == nil {
			return w.stmts(list[:n-1], rem, pred)
		}
	}
	return w.stmts(list, rem, pred)
}

// cond returns the codes for which e holds, when e tests only gRPC codes
// (and whether the error is nil: OK is a nil error's code).
func (w *codeWalker) cond(e ast.Expr) (codeSet, bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			s, ok := w.cond(e.X)
			return allCodes &^ s, ok
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND, token.LOR:
			x, okx := w.cond(e.X)
			y, oky := w.cond(e.Y)
			if !okx || !oky {
				return 0, false
			}
			if e.Op == token.LAND {
				return x & y, true
			}
			return x | y, true
		case token.EQL, token.NEQ:
			var s codeSet
			switch {
			case w.isCode(e.X) || w.isCode(e.Y):
				other := e.Y
				if w.isCode(e.Y) {
					other = e.X
				}
				code, ok := w.codeConst(other)
				if !ok {
					return 0, false
				}
				w.test(e)
				s = 1 << code
			case w.isNilError(e.X, e.Y) || w.isNilError(e.Y, e.X):
				s = 1 // err == nil: OK
			default:
				return 0, false
			}
			if e.Op == token.NEQ {
				s = allCodes &^ s
			}
			return s, true
		}
	}
	return 0, false
}

func (w *codeWalker) test(n ast.Node) {
	if !w.tested.IsValid() {
		w.tested, w.testedEnd = n.Pos(), n.End()
	}
}

// isCode reports whether e is a gRPC code that is not a constant:
// status.Code(err), st.Code(), a variable holding one.
func (w *codeWalker) isCode(e ast.Expr) bool {
	tv, ok := w.c.info.Types[e]
	return ok && tv.Value == nil && isCodeType(tv.Type)
}

func (w *codeWalker) codeConst(e ast.Expr) (uint32, bool) {
	tv, ok := w.c.info.Types[e]
	if !ok || tv.Value == nil || !isCodeType(tv.Type) {
		return 0, false
	}
	n, ok := constantUint(tv)
	return n, ok && n < 17
}

func constantUint(tv types.TypeAndValue) (uint32, bool) {
	n, ok := constant.Uint64Val(constant.ToInt(tv.Value))
	return uint32(n), ok
}

func isCodeType(t types.Type) bool {
	return retryscope.GRPCCodeType(t)
}

// isNilError reports whether x is an error and y is nil.
func (w *codeWalker) isNilError(x, y ast.Expr) bool {
	tx, ty := w.c.info.Types[x], w.c.info.Types[y]
	return tx.Type != nil && isError(tx.Type) && ty.IsNil()
}

// grpcLibraryCall checks the gRPC predicates given to retry settings: the
// retry interceptor's WithRetriable, and a predicate option on errors
// (avast's RetryIf) when its
// predicate tests gRPC codes.
func (c *checker) grpcLibraryCall(call *ast.CallExpr) {
	fn := astq.Callee(c.info, call)
	if fn == nil || fn.Pkg() == nil {
		return
	}
	if retryscope.GRPCRetryPredicate(fn) && len(call.Args) == 1 {
		c.grpcPredicate(call.Args[0], "retry.WithRetriable predicate retries ")
	}
	if p, ok := retryscope.PredicateOption(fn); ok && p.OnError && len(call.Args) == 1 {
		c.grpcPredicate(call.Args[0], p.Text+" retries ")
	}
}

// grpcRelevant reports whether the package may test or configure gRPC
// codes.
func grpcRelevant(pkg *types.Package) bool { return retryscope.GRPCCodesRelevant(pkg) }
