// Package modeldiff compares the retry model's loop scopes with the flow
// engine's loops and call-graph cycles that the policies keep, for one
// package: the differential of issue 46 stage 2, read by the ModelLoops
// test over retryscope's test packages and by the flowdiff command over
// real code. A model scope and an engine loop match by position: the
// scope's Pos is the engine loop's Syntax (the for or range keyword, the
// label a backward goto targets, the call that starts a cycle again).
package modeldiff

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/passes/internal/flow"
	"github.com/idemlint/idemlint/passes/internal/flow/policy"
	"github.com/idemlint/idemlint/passes/internal/names"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// A Diff is one loop the model and the engine disagree on.
type Diff struct {
	Pos token.Pos
	// At is the position as the package's path, the file's base name and
	// the line: "example.com/p/file.go:12".
	At string
	// Key names the loop by package path, file and function, so that a
	// review survives an edit above it: "example.com/p/file.go fn".
	Key string
	// Func is the name of the function that holds the loop.
	Func string
	// Scope is the model's scope of a model-only difference, nil for an
	// engine-only one.
	Scope *retryscope.Scope
	// Verdict is what the policies made of the engine's loop at Pos; nil
	// when the engine has no loop with an attempt there.
	Verdict *policy.Verdict
	// Reason says why: for a model scope, "no loop", "no attempt", or the
	// engine loop's attempts and the policy that rejected each; for an
	// engine loop, its kind, statement and attempts.
	Reason string
}

// Engine reports whether d is an engine loop the model has no scope of.
func (d *Diff) Engine() bool { return d.Scope == nil }

// String spells d as "file:line: function: reason".
func (d *Diff) String() string { return fmt.Sprintf("%s: %s: %s", d.At, d.Func, d.Reason) }

// Report is the comparison of one package, or the sum of several (Add).
type Report struct {
	Packages int
	// Scopes are the model's loop scopes; Raw the engine's loops and
	// cycles with an attempt, before the policies, of which RawModelOnly
	// the model scopes with no such loop and RawEngineOnly the loops with
	// no model scope.
	Scopes, Raw, RawModelOnly, RawEngineOnly int
	// Both, ModelOnly and EngineOnly count the model scopes with a kept
	// engine loop, those without, and the kept engine loops with no
	// model scope.
	Both, ModelOnly, EngineOnly int
	// Mapped counts the model's for and range scopes with an engine loop
	// at their statement; Unmapped are those with none.
	Mapped   int
	Unmapped []Diff
	// Rejections counts the attempts each policy rejected.
	Rejections map[string]int
	// Diffs are the model-only and engine-only loops.
	Diffs []Diff
}

// Compare compares the model's loop scopes of one package (res) with the
// loops and cycles of its engine answer p that the policies keep, given
// the model's knowledge.
func Compare(p *flow.Package, pkg *types.Package, res *retryscope.Result) *Report {
	r := &Report{Packages: 1, Rejections: make(map[string]int)}
	diff := func(pos token.Pos, fn string) Diff {
		posn := p.Fset.Position(pos)
		file := pkg.Path() + "/" + filepath.Base(posn.Filename)
		return Diff{Pos: pos, At: fmt.Sprintf("%s:%d", file, posn.Line), Key: file + " " + fn, Func: fn}
	}
	model := make(map[token.Pos]*retryscope.Scope)
	for _, s := range res.Scopes() {
		if s.Kind != retryscope.Loop {
			continue
		}
		model[s.Pos] = s
		if s.NotFor {
			continue
		}
		if loopAt(p, s.Node) == nil {
			d := diff(s.Pos, Enclosing(p, s.Pos))
			d.Scope = s
			d.Reason = fmt.Sprintf("the model's loop scope has no engine loop at its %T", s.Node)
			r.Unmapped = append(r.Unmapped, d)
		} else {
			r.Mapped++
		}
	}
	pc := policy.NewContext(p, res.Knowledge())
	loops := make(map[token.Pos]bool) // every engine loop and cycle, by statement
	kept := make(map[token.Pos]*policy.Verdict)
	judged := make(map[token.Pos]*policy.Verdict)
	for _, fn := range p.Funcs {
		for _, l := range append(slices.Clone(p.Loops(fn).Loops), p.Cycles(fn)...) {
			if l.Syntax == nil {
				continue
			}
			pos := l.Syntax.Pos()
			loops[pos] = true
			v := pc.Judge(l)
			if len(v.All) == 0 {
				continue
			}
			r.Raw++
			judged[pos] = v
			if model[pos] == nil {
				r.RawEngineOnly++
			}
			for _, why := range v.Rejected {
				r.Rejections[why]++
			}
			if len(v.Kept) > 0 {
				kept[pos] = v
			}
		}
	}
	for pos, s := range model {
		r.Scopes++
		if judged[pos] == nil {
			r.RawModelOnly++
		}
		if kept[pos] != nil {
			r.Both++
			continue
		}
		r.ModelOnly++
		d := diff(pos, Enclosing(p, pos))
		d.Scope = s
		d.Verdict = judged[pos]
		why := "no loop"
		switch {
		case d.Verdict != nil:
			why = "every attempt rejected: " + Attempts(d.Verdict)
		case loops[pos]:
			why = "no attempt"
		}
		d.Reason = fmt.Sprintf("model only (cap=%s notfor=%t): %s", s.Cap, s.NotFor, why)
		r.Diffs = append(r.Diffs, d)
	}
	for pos, v := range kept {
		if model[pos] != nil {
			continue
		}
		r.EngineOnly++
		d := diff(pos, v.Loop.Fn.Name())
		d.Verdict = v
		d.Reason = fmt.Sprintf("engine only: %s %s %s", v.Loop.Kind, StmtKind(v.Loop.Syntax), Attempts(v))
		r.Diffs = append(r.Diffs, d)
	}
	r.sort()
	return r
}

func (r *Report) sort() {
	by := func(a, b Diff) int { return strings.Compare(a.At+a.Reason, b.At+b.Reason) }
	slices.SortFunc(r.Diffs, by)
	slices.SortFunc(r.Unmapped, by)
}

// Add adds o's figures and differences to r.
func (r *Report) Add(o *Report) {
	r.Packages += o.Packages
	r.Scopes += o.Scopes
	r.Raw += o.Raw
	r.RawModelOnly += o.RawModelOnly
	r.RawEngineOnly += o.RawEngineOnly
	r.Both += o.Both
	r.ModelOnly += o.ModelOnly
	r.EngineOnly += o.EngineOnly
	r.Mapped += o.Mapped
	r.Unmapped = append(r.Unmapped, o.Unmapped...)
	if r.Rejections == nil {
		r.Rejections = make(map[string]int)
	}
	for why, n := range o.Rejections {
		r.Rejections[why] += n
	}
	r.Diffs = append(r.Diffs, o.Diffs...)
	r.sort()
}

// Totals spells r's figures in one line.
func (r *Report) Totals() string {
	var whys []string
	for why, n := range r.Rejections {
		whys = append(whys, fmt.Sprintf("%s %d", why, n))
	}
	slices.Sort(whys)
	return fmt.Sprintf("%d packages: %d loop scopes of the model; %d engine loops and cycles with an attempt (model only %d, engine only %d); after the policies %d kept: both %d, model only %d, engine only %d; attempts rejected: %s; %d for/range scopes mapped to an engine loop, %d not",
		r.Packages, r.Scopes, r.Raw, r.RawModelOnly, r.RawEngineOnly, r.Both+r.EngineOnly, r.Both, r.ModelOnly, r.EngineOnly,
		strings.Join(whys, ", "), r.Mapped, len(r.Unmapped))
}

// Enclosing returns the name of the function of p whose body holds pos.
func Enclosing(p *flow.Package, pos token.Pos) string {
	name := ""
	for _, fn := range p.Funcs {
		if syn := fn.Syntax(); syn != nil && syn.Pos() <= pos && pos < syn.End() {
			name = fn.Name() // literals come after their parents: the innermost wins
		}
	}
	return name
}

// Attempts spells a verdict's attempts: callee, test, and the policy that
// rejected it.
func Attempts(v *policy.Verdict) string {
	var out []string
	for _, a := range v.All {
		s := CallName(a.Call) + ":" + a.Test.String()
		if a.OnSuccess {
			s += ":on-success"
		}
		if why, ok := v.Rejected[a]; ok {
			s += " rejected by " + why
		} else {
			s += " kept"
		}
		out = append(out, s)
	}
	return "[" + strings.Join(out, "; ") + "]"
}

// loopAt returns the engine's loop whose statement is n, in any function.
func loopAt(p *flow.Package, n ast.Node) *flow.Loop {
	for _, fn := range p.Funcs {
		if l := p.Loops(fn).Stmt(n); l != nil {
			return l
		}
	}
	return nil
}

// CallName spells a call's callee: its full name, or the closure or value
// called.
func CallName(c *ssa.Call) string {
	if fn := c.Call.StaticCallee(); fn != nil {
		if obj, ok := fn.Object().(*types.Func); ok && obj != nil {
			return names.Of(obj)
		}
		return fn.Name()
	}
	if c.Call.IsInvoke() {
		return names.Of(c.Call.Method)
	}
	return c.Call.Value.Name()
}

// StmtKind spells a loop's statement: for, range, the label of a goto, or
// the node's type.
func StmtKind(n ast.Node) string {
	switch n := n.(type) {
	case *ast.ForStmt:
		return "for"
	case *ast.RangeStmt:
		return "range"
	case *ast.LabeledStmt:
		return "label " + n.Label.Name
	}
	return fmt.Sprintf("%T", n)
}
