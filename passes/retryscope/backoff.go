package retryscope

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// What the libraries' files share: the backoff values several families
// build (cenkalti/backoff, sethvargo/go-retry, k8s wait.Backoff), read
// through the library that made them (Library.backoff), and the small
// readings of options and counts every family makes. They see the model
// only through a Site.

// backoff is what the model knows of a backoff value or policy.
type backoff struct {
	cap      Cap
	deadline Deadline
	wait     WaitKind
	waitPos  token.Pos
	waitNode ast.Node
	setting  string
}

func unknownBackoff() backoff {
	return backoff{cap: Cap{Kind: CapUnknown}, deadline: Deadline{Kind: DeadlineUnknown}, wait: WaitUnknown}
}

// waitAt turns the backoff's wait into a Wait, reported at the setting's
// position, or at the call when the wait is a default.
func (b backoff) waitAt(call *ast.CallExpr) Wait {
	w := Wait{Kind: b.wait, Pos: b.waitPos, Node: b.waitNode, Library: true, Setting: b.setting}
	if !w.Pos.IsValid() {
		w.Pos, w.Node = call.Pos(), call
	}
	return w
}

// backoffOf evaluates a backoff value: the library of the literal's type,
// the call's callee or the variable a selector names reads it
// (Library.backoff), and the fields the code sets on the local variable e
// afterwards apply (applyField). A literal or a call no library knows is
// unknown, its fields still applied; any other value is unknown.
func backoffOf(st Site, e ast.Expr, depth int) backoff {
	if depth > maxDepth {
		return unknownBackoff()
	}
	sets := st.FieldSets(e)
	v := st.Origin(e, e.Pos())
	var pkg *types.Package
	switch v := v.(type) {
	case *ast.CompositeLit:
		if tn := astq.NamedOf(st.TypeOf(v)); tn != nil {
			pkg = tn.Pkg()
		}
	case *ast.CallExpr:
		if fn := st.CalleeOf(v); fn != nil {
			pkg = fn.Pkg()
		}
	case *ast.SelectorExpr:
		if o := st.Object(v); o != nil {
			pkg = o.Pkg()
		}
	default:
		return unknownBackoff()
	}
	b, ok := unknownBackoff(), false
	if pkg != nil {
		if l := registry[pkg.Path()]; l != nil && l.backoff != nil {
			b, ok = l.backoff(st, v, depth)
		}
	}
	if !ok {
		if _, named := v.(*ast.SelectorExpr); named {
			return unknownBackoff()
		}
		b = unknownBackoff()
	}
	for _, fs := range sets {
		applyField(st, &b, fs.Field(), fs.RHS(), fs.Pos())
	}
	return b
}

// litFields applies to b the fields a backoff literal sets; it reports
// false when the literal sets them by position (not worth guessing).
func litFields(st Site, b *backoff, lit *ast.CompositeLit) bool {
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return false
		}
		if key, _ := kv.Key.(*ast.Ident); key != nil {
			applyField(st, b, key.Name, kv.Value, kv.Pos())
		}
	}
	return true
}

// applyField applies a field setting to a backoff literal or variable:
// cenkalti's MaxElapsedTime and RandomizationFactor, k8s wait.Backoff's
// Jitter and Steps.
func applyField(st Site, b *backoff, field string, v ast.Expr, pos token.Pos) {
	switch field {
	case "MaxElapsedTime":
		if st.Zero(v) {
			b.deadline = Deadline{Kind: DeadlineNone}
		} else {
			b.deadline = Deadline{Kind: DeadlineLibrary, Pos: pos}
		}
	case "RandomizationFactor", "Jitter":
		if st.Zero(v) {
			if b.wait == WaitJittered {
				b.wait = WaitGrowth
			}
			b.waitPos, b.waitNode = pos, v
			b.setting = field + " = 0"
		} else if val, ok := st.Bool(v); ok && !val {
			b.waitPos, b.waitNode = pos, v
		} else {
			b.wait = WaitJittered
		}
	case "Steps":
		b.cap = attemptCap(st, v, pos, false)
	}
}

// attemptCap returns the cap that the attempt count e, set at pos, gives:
// the constant's attempts (none for 0 when zeroUnlimited, as for libraries
// that then retry forever), or bounded when e is not a constant.
func attemptCap(st Site, e ast.Expr, pos token.Pos, zeroUnlimited bool) Cap {
	n, ok := st.Int(e)
	switch {
	case !ok:
		return Cap{Kind: CapBounded, Pos: pos}
	case n == 0 && zeroUnlimited:
		return Cap{Kind: CapNone, Pos: pos}
	}
	return Cap{Kind: CapKnown, N: int(n), Pos: pos}
}

// retriesCap returns the cap a count of retries e, set at pos, gives: one
// attempt more than a constant, bounded otherwise.
func retriesCap(st Site, e ast.Expr, pos token.Pos) Cap {
	if n, ok := st.Int(e); ok {
		return Cap{Kind: CapKnown, N: int(n) + 1, Pos: pos}
	}
	return Cap{Kind: CapBounded, Pos: pos}
}

// optionCall returns the call an option e is (through local variables)
// and its static callee; nil, nil when it is no call.
func optionCall(st Site, e ast.Expr) (*ast.CallExpr, *types.Func) {
	oc, ok := st.Origin(e, e.Pos()).(*ast.CallExpr)
	if !ok {
		return nil, nil
	}
	return oc, st.CalleeOf(oc)
}

// unknownOptions marks the cap, deadline and wait of s as unknown: an option
// the model cannot read may set any of them.
func unknownOptions(s *Scope, wait *Wait) {
	s.Cap, s.Deadline, wait.Kind = Cap{Kind: CapUnknown}, Deadline{Kind: DeadlineUnknown}, WaitUnknown
}

// fullName returns the full name of the object e names: "path.Name"; ""
// for none or a universe object.
func fullName(st Site, e ast.Expr) string { return objectName(st.Object(e)) }

// objectName returns the full name of o: "path.Name"; "" for nil or a
// universe object.
func objectName(o types.Object) string {
	if o == nil || o.Pkg() == nil {
		return ""
	}
	return o.Pkg().Path() + "." + o.Name()
}

// inPath reports whether fn is a function of the package at path.
func inPath(fn *types.Func, path string) bool {
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == path
}
