package flow_test

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/passes/internal/flow"
	"github.com/idemlint/idemlint/passes/internal/flow/flowtest"
	"github.com/idemlint/idemlint/passes/internal/flow/modeldiff"
)

// describe reports each loop of the package as the testdata's wants spell
// it, and reports as an error every call, function and loop the index
// fails to map.
var describe = flowtest.Analyzer("flowdescribe", "describe the flow engine's loops",
	func(pass *analysis.Pass, p *flow.Package) error {
		if pass.ResultOf[flow.Analyzer].(*flow.Handle).Get() != p {
			return fmt.Errorf("a second Get built again")
		}
		if p == nil {
			return fmt.Errorf("no SSA for %s", pass.Pkg.Path())
		}
		calls := make(map[token.Pos]*ast.CallExpr)
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					calls[n.Lparen] = n
					if isCall(pass.TypesInfo, n) && p.CallOf(n) == nil {
						pass.Reportf(n.Lparen, "call %s has no SSA call", types.ExprString(n.Fun))
					}
				case *ast.FuncDecl, *ast.FuncLit:
					if p.Func(n) == nil {
						pass.Reportf(n.Pos(), "function has no SSA function")
					}
				case *ast.RangeStmt:
					if _, isFunc := pass.TypesInfo.TypeOf(n.X).Underlying().(*types.Signature); isFunc && p.Func(n) == nil {
						pass.Reportf(n.Pos(), "range over func has no yield closure")
					}
				}
				return true
			})
		}
		for _, fn := range p.Funcs {
			for _, l := range p.Loops(fn).Loops {
				if l.Syntax == nil {
					pass.Reportf(fn.Pos(), "loop %s of %s has no statement", l.Kind, fn.Name())
					continue
				}
				if p.Loops(fn).Stmt(l.Syntax) != l {
					pass.Reportf(l.Syntax.Pos(), "two loops have this statement")
				}
				outer := ""
				if o := p.Outer(l); o != nil && o.Syntax != nil {
					outer = " in " + modeldiff.StmtKind(o.Syntax)
				}
				pass.Reportf(l.Syntax.Pos(), "loop %s %s exits=%d back=%d ind=[%s] calls=[%s]%s",
					l.Kind, modeldiff.StmtKind(l.Syntax), len(l.Exits), len(l.Back), inductions(l), outcomes(l, calls), outer)
			}
		}
		return nil
	})

func isCall(info *types.Info, call *ast.CallExpr) bool {
	if tv, ok := info.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
		return false
	}
	return true
}

func inductions(l *flow.Loop) string {
	var out []string
	for _, ind := range l.Inductions {
		dir := "mixed"
		if ind.Up {
			dir = "up"
		} else if ind.Down {
			dir = "down"
		}
		s := strings.TrimPrefix(ind.Phi.Comment, "#") + ":" + dir
		if ind.Cell {
			s += " cell"
		}
		for _, b := range l.Bounds {
			if b.Var == ind {
				s += " " + operand(b.Cmp.X) + b.Cmp.Op.String() + operand(b.Cmp.Y)
			}
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

// operand spells an operand of a bound's comparison: the variable a phi or
// a parameter is, a constant, the function a call calls
func operand(v ssa.Value) string {
	switch v := v.(type) {
	case *ssa.Phi:
		return strings.TrimPrefix(v.Comment, "#")
	case *ssa.Parameter:
		return v.Name()
	case *ssa.Const:
		if v.Value != nil && v.Value.Kind() == constant.Int {
			return v.Value.ExactString()
		}
	case *ssa.BinOp:
		return operand(v.X)
	case *ssa.UnOp: // the load of a loop variable's cell
		if v.Op == token.MUL {
			return operand(v.X)
		}
	case *ssa.Call:
		if b, ok := v.Call.Value.(*ssa.Builtin); ok {
			return b.Name()
		}
	}
	return "?"
}

// outcomes lists the fallible and never-returning calls of the loop's
// blocks with what their failure does to the loop, then the calls that
// never return in the blocks its exits lead to
func outcomes(l *flow.Loop, calls map[token.Pos]*ast.CallExpr) string {
	var out []string
	blocks := slices.Clone(l.Blocks)
	for _, e := range l.Exits {
		blocks = append(blocks, e.To)
	}
	for _, b := range blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			name := "?"
			if syn := calls[call.Pos()]; syn != nil {
				name = types.ExprString(syn.Fun)
			}
			switch {
			case flow.NeverReturnsCall(call):
				out = append(out, name+":noreturn")
			case !l.Contains(b):
			case flow.Fallible(call):
				fail, _, found := flow.Outcome(call)
				switch {
				case !found:
					out = append(out, name+":untested")
				case l.Repeats(fail):
					out = append(out, name+":repeats")
				default:
					out = append(out, name+":leaves")
				}
			}
		}
	}
	return strings.Join(out, " ")
}

func TestHandle(t *testing.T) {
	h := flow.New(flow.Input{HasErrors: true})
	if h.Get() != nil || h.Err() == nil {
		t.Errorf("Get on a package with type errors = %v, %v; want nil and an error", h.Get(), h.Err())
	}
}

func TestShapes(t *testing.T) {
	t.Parallel() // each loads its packages from source: the loads overlap
	p, pass := flowtest.Run(t, describe, "shapes")
	if len(p.Funcs) == 0 {
		t.Fatal("no functions")
	}
	// the package-level literal belongs to the synthetic init
	found := false
	for _, fn := range p.Funcs {
		if _, ok := fn.Syntax().(*ast.FuncLit); ok && fn.Parent() != nil && fn.Parent().Synthetic != "" {
			found = true
		}
	}
	if !found {
		t.Error("the literal of var poll is not among the package's functions")
	}
	t.Run("queries", func(t *testing.T) { testQueries(t, p, pass) })
	t.Run("syntax", func(t *testing.T) { testSyntax(t, p) })
}

// testSyntax checks the way back from SSA to syntax: every call
// instruction's call expression is the one whose call it is (CallOf), and
// every function's declaration is its own or its enclosing one's.
func testSyntax(t *testing.T, p *flow.Package) {
	calls, lits := 0, 0
	for _, fn := range p.Funcs {
		fd := p.Decl(fn)
		switch syn := fn.Syntax().(type) {
		case *ast.FuncDecl:
			if fd != syn {
				t.Errorf("Decl(%s) = %v, want its own declaration", fn, fd)
			}
		case *ast.FuncLit:
			if fn.Parent() != nil && fn.Parent().Synthetic == "" {
				lits++
				if fd == nil || fd.Pos() > syn.Pos() || syn.End() > fd.End() {
					t.Errorf("Decl(%s) = %v, want the declaration the literal is written in", fn, fd)
				}
			}
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				ci, ok := instr.(ssa.CallInstruction)
				if !ok || !ci.Common().Pos().IsValid() {
					continue
				}
				calls++
				if call := p.CallExpr(ci); call == nil || p.CallOf(call) != ci {
					t.Errorf("CallExpr of the call at %s = %v, not its own", p.Fset.Position(ci.Pos()), call)
				}
			}
		}
	}
	if calls == 0 || lits == 0 {
		t.Errorf("%d calls and %d literals checked, want some of each", calls, lits)
	}
}

// testQueries asks the engine's questions of one function of the shapes
// package and checks each answer against the syntax.
func testQueries(t *testing.T, p *flow.Package, pass *analysis.Pass) {
	var decl *ast.FuncDecl
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "forBreakOnSuccess" {
				decl = fd
			}
		}
	}
	if decl == nil {
		t.Fatal("no forBreakOnSuccess in shapes")
	}
	forStmt := decl.Body.List[1].(*ast.ForStmt)
	sendCall := forStmt.Body.List[0].(*ast.AssignStmt).Rhs[0].(*ast.CallExpr)

	fn := p.Func(decl)
	if fn == nil || fn.Syntax() != decl {
		t.Fatalf("Func(forBreakOnSuccess) = %v", fn)
	}
	loop := p.Loops(fn).Stmt(forStmt)
	if loop == nil || loop.Syntax != forStmt || loop.Kind != flow.Natural || loop.Parent != nil {
		t.Fatalf("the loop of forBreakOnSuccess's for statement = %+v", loop)
	}
	call, ok := p.CallOf(sendCall).(*ssa.Call)
	if !ok || call.Pos() != sendCall.Lparen || p.LoopOf(call) != loop {
		t.Fatalf("CallOf(send()) = %v, want a call in the for loop at its Lparen", p.CallOf(sendCall))
	}
	fail, okEdge, found := flow.Outcome(call)
	if !found {
		t.Fatal("send()'s error is compared with nil in place, but Outcome found no test")
	}
	if !loop.IsExit(okEdge) || loop.Repeats(okEdge) {
		t.Errorf("send()'s success edge %v: exit %t, repeats %t; want an exit (the break)",
			okEdge, loop.IsExit(okEdge), loop.Repeats(okEdge))
	}
	if !loop.Repeats(fail) {
		t.Errorf("send()'s failure edge %v does not repeat the loop", fail)
	}
	// the one bound: attempt >= max, against the parameter
	if len(loop.Bounds) != 1 {
		t.Fatalf("bounds = %d, want 1 (attempt >= max)", len(loop.Bounds))
	}
	b := loop.Bounds[0]
	if param, ok := b.Bound.(*ssa.Parameter); !ok || param.Name() != "max" || b.Cmp.Op != token.GEQ {
		t.Errorf("bound = %v %v, want >= the parameter max", b.Cmp.Op, b.Bound)
	}
	if !loop.IsExit(b.Exit) || b.Exit.From.Succs[0] != b.Exit.To {
		t.Errorf("the bound's exit %v is not the true branch of its comparison", b.Exit)
	}
	// every path from the failure to the next pass goes through the bound
	if loop.RepeatsAvoiding(fail, func(blk *ssa.BasicBlock) bool { return blk == b.Exit.From }) {
		t.Error("the failure repeats the loop without passing the attempt >= max test")
	}
	if !loop.RepeatsAvoiding(fail, func(blk *ssa.BasicBlock) bool { return blk == okEdge.To }) {
		t.Error("avoiding the block after the loop stops the failure from repeating it")
	}
	if got := loop.RepeatingCalls(); len(got) != 1 || got[0] != call {
		t.Errorf("RepeatingCalls = %v, want [send()]", got)
	}
}
