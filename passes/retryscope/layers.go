package retryscope

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// What makes a library call, a client or a gRPC conn a retry layer (issue
// 47): a layer that does not retry is not a layer, and where the model
// cannot tell whether it retries, none is reported. The rules are over
// what the model already reads of a layer, its attempt cap; the readings
// themselves (options in slices and variables, settings written after
// construction) are the libraries' and clients' own.

// oneAttempt reports whether a layer's cap says it makes one attempt (or
// none): retry.Attempts(1), RetryMax 0, retry.WithMax(1) or Disable(), a
// conn with no retry policy. Such a call is no retry scope.
func oneAttempt(c Cap) bool { return c.Kind == CapKnown && c.N <= 1 }

// unreadLayer reports whether a client's or a conn's cap is one the model
// cannot read (CapUnknown): an option it cannot list, a service config
// that is not a constant. Unknown means silent: it is no layer.
func unreadLayer(c Cap) bool { return c.Kind == CapUnknown }

// storedClientSettings applies the settings the package writes on a
// go-retryablehttp client after it stores it in a struct field (r.rc =
// retryablehttp.NewClient(), then r.rc.RetryMax = 0 or r.rc.Backoff = ...
// anywhere in its non-test code) to the client's scope (FieldClient), as
// retryableClient does for the local a client is assigned to. A functional
// option's store of its parameter (go-gitlab's WithCustomRetry(checkRetry)
// sets c.client.CheckRetry = checkRetry) is the choice of the users who
// ask for it, not the package's setting, as for a field's default
// (intDefault): it is skipped. Of several
// RetryMax writes the most attempts count. A client left making one
// attempt is no scope (oneAttempt).
func (m *model) storedClientSettings() {
	fields := m.res.flows.fieldClients
	if len(fields) == 0 {
		return
	}
	type write struct {
		sel *ast.SelectorExpr
		rhs ast.Expr
		pos token.Pos
		di  *defIndex
	}
	byField := make(map[*types.Var][]write)
	for f := range astq.NonTestFiles(m.pass.Fset, m.pass.Files) {
		di := m.packageDefs()
		var fn *ast.FuncDecl
		ast.Inspect(f, func(n ast.Node) bool {
			if fd, ok := n.(*ast.FuncDecl); ok && fd.Body != nil {
				di, fn = m.defIndex(fd), fd
			}
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, lhs := range as.Lhs {
				sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
				if !ok || m.typePath(sel.X) != retryable+".Client" {
					continue
				}
				if fn != nil && m.optionParam(di, fieldStore{rhs: as.Rhs[i], op: token.ASSIGN, pos: as.Pos(), fn: fn}, ast.Unparen(as.Rhs[i])) {
					continue // an option's WithCustomRetry(checkRetry): the users' choice, not the package's setting
				}
				if v := m.fieldOf(sel.X); v != nil && fields[v] != nil {
					byField[v] = append(byField[v], write{sel, as.Rhs[i], as.Pos(), di})
				}
			}
			return true
		})
	}
	for v, ws := range byField {
		s := fields[v]
		if s.Library != retryable {
			continue
		}
		var maxCap *Cap
		for _, w := range ws {
			m.retryableSetting(w.di, s, w.sel.Sel.Name, w.rhs, w.pos)
			if w.sel.Sel.Name == "RetryMax" {
				if maxCap == nil || s.Cap.Kind != CapKnown || maxCap.Kind == CapKnown && s.Cap.N > maxCap.N {
					c := s.Cap
					maxCap = &c
				}
			}
		}
		if maxCap != nil {
			s.Cap = *maxCap
		}
		if oneAttempt(s.Cap) {
			m.res.drop(s)
			for f, fs := range fields {
				if fs == s {
					delete(fields, f)
				}
			}
		}
	}
}

// drop removes s from the result's scopes.
func (r *Result) drop(s *Scope) {
	if r.byNode[s.Node] == s {
		delete(r.byNode, s.Node)
	}
	r.scopes = slices.DeleteFunc(r.scopes, func(o *Scope) bool { return o == s })
}

// ClientSettings returns the values the package gives field (CheckRetry,
// RetryMax, Backoff, ...) of the go-retryablehttp client whose scope s is,
// in its literal or written after construction: on the local it is
// assigned to, or on the struct field the package stores it in.
func (r *Result) ClientSettings(s *Scope, field string) []ast.Expr {
	return r.clientSets[s][field]
}

// clientSetting records that rhs is given field of the client of scope s.
func (r *Result) clientSetting(s *Scope, field string, rhs ast.Expr) {
	if r.clientSets == nil {
		r.clientSets = make(map[*Scope]map[string][]ast.Expr)
	}
	if r.clientSets[s] == nil {
		r.clientSets[s] = make(map[string][]ast.Expr)
	}
	r.clientSets[s][field] = append(r.clientSets[s][field], rhs)
}

// clientCap records the cap a client's RetryMax value v gives, as the
// model read it, for ClientEnv (clients.go) to read the same setting alike.
func (r *Result) clientCap(v ast.Expr, c Cap) {
	if r.clientCaps == nil {
		r.clientCaps = make(map[ast.Expr]Cap)
	}
	r.clientCaps[v] = c
}

// capDefault is the default the package gives v, a field of its own a
// layer's retry count is read from (vault's RetryMax: maxRetries, where
// maxRetries := c.config.MaxRetries): the value of its every store
// (intDefault), or else the constant a composite literal of the package
// gives it (literalDefault). Such a default is the layer's documented
// setting: it retries unless its user changes it, so a setter's parameter,
// a value parsed from the environment or a copy of the field, also stored
// in it, leave it the default. A field with no constant default of the
// package (one only its callers set) has none: unknown, silent.
func (m *model) capDefault(v *types.Var) (int64, bool) {
	if n, ok := m.intDefault(v, 0); ok {
		return n, true
	}
	return m.literalDefault(v)
}

// literalDefault returns the constant that composite literals in the
// package's functions give the integer field v of its own
// (DefaultConfig's &Config{MaxRetries: 2}); ok is false when none does,
// or two give different ones.
func (m *model) literalDefault(v *types.Var) (int64, bool) {
	if v.Pkg() != m.pass.Pkg || !isInteger(v.Type()) {
		return 0, false
	}
	var n int64
	found := false
	for _, s := range m.fieldStores()[v] {
		if s.op != token.ILLEGAL || s.fn == nil || s.rhs == nil {
			continue
		}
		c, ok := m.constOrFixed(ast.Unparen(s.rhs))
		if !ok {
			continue
		}
		k, exact := constant.Int64Val(constant.ToInt(c))
		if !exact || found && k != n {
			return 0, false
		}
		n, found = k, true
	}
	return n, found
}
