package retryscope

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// Send is a call that sends a non-idempotent HTTP request (POST or PATCH)
// through net/http.
type Send struct {
	Call *ast.CallExpr
	// Entry is the full name of the sending function
	// ("(*net/http.Client).Do", "net/http.Post").
	Entry string
	// Method is "POST" or "PATCH".
	Method string
	// Req is the request variable of a Do, nil for Post and PostForm, which
	// take no header.
	Req *types.Var
	// Built is the request's construction: the NewRequest call or the
	// http.Request literal; nil for Post and PostForm.
	Built ast.Expr
}

// NonIdempotentSend classifies call, in body, as the send of a POST or
// PATCH through net/http: http.Post, http.PostForm, (*http.Client).Post
// and PostForm, and (*http.Client).Do of a request variable that body
// builds once, by http.NewRequest(WithContext) or an &http.Request{}
// literal, with a constant method. Other methods (GET, PUT, DELETE are
// idempotent) and requests it cannot follow give nil.
func NonIdempotentSend(info *types.Info, body *ast.BlockStmt, call *ast.CallExpr) *Send {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil {
		return nil
	}
	s := &Send{Call: call, Entry: fn.FullName()}
	switch s.Entry {
	case "net/http.Post", "net/http.PostForm", "(*net/http.Client).Post", "(*net/http.Client).PostForm":
		s.Method = "POST"
		return s
	case "(*net/http.Client).Do":
	default:
		return nil
	}
	if len(call.Args) != 1 || body == nil {
		return nil
	}
	id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	rhs := astq.Assignments(info, body, v)
	if len(rhs) != 1 {
		return nil
	}
	s.Req, s.Built = v, ast.Unparen(rhs[0])
	var m ast.Expr
	switch b := s.Built.(type) {
	case *ast.CallExpr:
		f, _ := typeutil.Callee(info, b).(*types.Func)
		if f == nil {
			return nil
		}
		switch f.FullName() {
		case "net/http.NewRequest":
			if len(b.Args) > 0 {
				m = b.Args[0]
			}
		case "net/http.NewRequestWithContext":
			if len(b.Args) > 1 {
				m = b.Args[1]
			}
		}
	case *ast.UnaryExpr:
		lit, ok := ast.Unparen(b.X).(*ast.CompositeLit)
		if !ok || b.Op != token.AND || !astq.IsNamed(info.TypeOf(lit), "net/http", "Request") {
			return nil
		}
		for _, elt := range lit.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Method" {
					m = kv.Value
				}
			}
		}
	}
	if m == nil {
		return nil
	}
	name, ok := astq.StringConst(info, m)
	if !ok {
		return nil
	}
	switch s.Method = strings.ToUpper(name); s.Method {
	case "POST", "PATCH":
		return s
	}
	return nil
}
