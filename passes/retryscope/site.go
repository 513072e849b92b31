package retryscope

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// A Site is a call of a library's entry point (or a client literal) as the
// model shows it to the library's functions in the table (Library.model,
// literal, backoff): the call, its callee, the scope to fill, and the
// questions those functions may ask of the code around the call. The
// library files (lib_*.go) reach the model only through it; the model
// implements it here.
type Site interface {
	// Call is the entry point's call; nil at a client literal and for a
	// value read outside any call.
	Call() *ast.CallExpr
	// Callee is the entry point (the generic origin), nil with no call.
	Callee() *types.Func
	// Scope is the scope the call makes, for the library to fill: Kind,
	// Pos, Node, Func, Library, Entry and Name are set; nil for a value
	// read outside any call.
	Scope() *Scope

	// Origin returns the value the local variable e holds before pos (its
	// last assignment), through parentheses and &; any other expression
	// as it is.
	Origin(e ast.Expr, before token.Pos) ast.Expr
	// CalleeOf returns the static callee of c (the generic origin), or nil.
	CalleeOf(c *ast.CallExpr) *types.Func
	// Object returns the object an identifier or a selector's name uses,
	// or nil.
	Object(e ast.Expr) types.Object
	// TypeOf returns the type of e, or nil.
	TypeOf(e ast.Expr) types.Type
	// Int returns the value of an integer constant; false for anything
	// else (nil too).
	Int(e ast.Expr) (int64, bool)
	// Bool returns the value of a boolean constant; ok is false for
	// anything else.
	Bool(e ast.Expr) (value, ok bool)
	// Zero reports whether e is a numeric constant 0.
	Zero(e ast.Expr) bool
	// Context classifies the deadline the context e carries.
	Context(e ast.Expr) DeadlineKind
	// Options returns the call's arguments from first on, with the
	// elements of a spread slice listed in its place (Spread); true when
	// a spread slice stays that the model cannot list.
	Options(first int) ([]ast.Expr, bool)
	// Spread returns args, whose last is a spread slice (opts...), with
	// the elements the slice holds before pos listed in its place (a
	// literal, appends, a package variable, a helper's returned slice);
	// true (still spread) when the model cannot list them.
	Spread(args []ast.Expr, before token.Pos) ([]ast.Expr, bool)
	// FieldSets returns the assignments e.F = x to the local variable e
	// names.
	FieldSets(e ast.Expr) []FieldSet
	// ResultFieldSets returns the assignments v.F = x to the variables
	// the call's value is assigned to (c := NewClient(); c.RetryMax = 2);
	// none with no call.
	ResultFieldSets() []FieldSet
	// FieldDefault returns the constant default the package gives the
	// field of its own that e reads (c.RetryMax = cfg.MaxRetries, where
	// DefaultConfig sets MaxRetries: 2); false when it has none.
	FieldDefault(e ast.Expr) (int64, bool)
	// ClientSetting records that the client of the site's scope sets
	// field to rhs, and, for a cap, the cap the library read from it, so
	// that ClientEnv reads the same setting alike.
	ClientSetting(field string, rhs ast.Expr)
	ClientCap(rhs ast.Expr, c Cap)
	// SwallowsFailure reports whether the condition cond the call is
	// given, declared in this package, returns false, nil when a call
	// given its context fails: a poll of it retries that call.
	SwallowsFailure(cond ast.Expr) bool
}

// site is the model's Site: a call read in the def index di.
type site struct {
	m      *model
	di     *defIndex
	call   *ast.CallExpr
	callee *types.Func
	s      *Scope
}

// at returns the site of call (nil for none) making s (nil for none),
// read in di.
func (m *model) at(di *defIndex, call *ast.CallExpr, s *Scope) *site {
	st := &site{m: m, di: di, call: call, s: s}
	if call != nil {
		st.callee = m.callee(call)
	}
	return st
}

func (st *site) Call() *ast.CallExpr                      { return st.call }
func (st *site) Callee() *types.Func                      { return st.callee }
func (st *site) Scope() *Scope                            { return st.s }
func (st *site) CalleeOf(c *ast.CallExpr) *types.Func     { return st.m.callee(c) }
func (st *site) TypeOf(e ast.Expr) types.Type             { return st.m.info.TypeOf(e) }
func (st *site) Int(e ast.Expr) (int64, bool)             { return st.m.intConst(e) }
func (st *site) Zero(e ast.Expr) bool                     { return st.m.isZero(e) }
func (st *site) Context(e ast.Expr) DeadlineKind          { return st.m.ctxArgKind(st.di, e) }
func (st *site) FieldSets(e ast.Expr) []FieldSet          { return st.m.fieldSets(st.di, e) }
func (st *site) ClientSetting(field string, rhs ast.Expr) { st.m.res.clientSetting(st.s, field, rhs) }
func (st *site) ClientCap(rhs ast.Expr, c Cap)            { st.m.res.clientCap(rhs, c) }

func (st *site) Origin(e ast.Expr, before token.Pos) ast.Expr {
	return st.m.origin(st.di, e, before)
}

func (st *site) Object(e ast.Expr) types.Object {
	if id := astq.NameIdent(e); id != nil {
		return st.m.info.Uses[id]
	}
	return nil
}

func (st *site) Bool(e ast.Expr) (value, ok bool) {
	tv, found := st.m.info.Types[e]
	if !found || tv.Value == nil || tv.Value.Kind() != constant.Bool {
		return false, false
	}
	return constant.BoolVal(tv.Value), true
}

func (st *site) Options(first int) ([]ast.Expr, bool) {
	return st.m.options(st.di, st.call, first)
}

func (st *site) Spread(args []ast.Expr, before token.Pos) ([]ast.Expr, bool) {
	return st.m.spread(st.di, args, before)
}

func (st *site) ResultFieldSets() []FieldSet {
	if st.call == nil {
		return nil
	}
	var out []FieldSet
	for o, defs := range st.di.defs {
		for _, d := range defs {
			if d.rhs == st.call {
				out = append(out, st.di.fields[o]...)
			}
		}
	}
	return out
}

func (st *site) FieldDefault(e ast.Expr) (int64, bool) {
	if f := st.m.fieldOf(e); f != nil {
		return st.m.capDefault(f)
	}
	return 0, false
}

func (st *site) SwallowsFailure(cond ast.Expr) bool {
	if st.call == nil {
		return false
	}
	body, _ := st.m.opBody(st.di, cond, st.call.Pos())
	return body != nil && st.m.swallowsFailure(body)
}

// The model's own readings that a library's knowledge answers: waits.go
// classifies a backoff's NextBackOff and jpillora's Duration, layers.go
// applies a go-retryablehttp client's settings stored in a field, and
// the model's walk reads client literals.

// backoffValue evaluates a backoff value (backoffOf) read in di.
func (m *model) backoffValue(di *defIndex, e ast.Expr, depth int) backoff {
	return backoffOf(m.at(di, nil, nil), e, depth)
}

// jpilloraKind classifies (*backoff.Backoff).Duration (jpilloraDuration).
func (m *model) jpilloraKind(di *defIndex, call *ast.CallExpr) WaitKind {
	return jpilloraDuration(m.at(di, call, nil))
}

// retryableSetting applies a go-retryablehttp client's field setting to s
// (retryableField).
func (m *model) retryableSetting(di *defIndex, s *Scope, field string, rhs ast.Expr, pos token.Pos) {
	retryableField(m.at(di, nil, s), field, rhs, pos)
}

// countCap returns the cap the attempt count e, set at pos, gives
// (attemptCap).
func (m *model) countCap(e ast.Expr, pos token.Pos, zeroUnlimited bool) Cap {
	return attemptCap(m.at(nil, nil, nil), e, pos, zeroUnlimited)
}

// clientLit returns the Client scope a composite literal of a library's
// client type makes (Library.literal), or nil.
func (m *model) clientLit(di *defIndex, fn ast.Node, lit *ast.CompositeLit) *Scope {
	tn := astq.NamedOf(m.info.TypeOf(lit))
	if tn == nil {
		return nil
	}
	l := registry[tn.Pkg().Path()]
	if l == nil || l.literal == nil {
		return nil
	}
	s := &Scope{Kind: Client, Node: lit, Func: fn, Pos: lit.Pos(), Library: l.Path, Trigger: TriggerUnknown}
	if !l.literal(m.at(di, nil, s), lit) {
		return nil
	}
	return s
}
