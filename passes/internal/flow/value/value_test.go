package value_test

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/passes/internal/flow"
	"github.com/idemlint/idemlint/passes/internal/flow/flowtest"
	"github.com/idemlint/idemlint/passes/internal/flow/value"
)

// describe reports, at each call of the testdata's sink, the origins of its
// argument, and at each call of source, what its result reaches.
var describe = flowtest.Analyzer("valuedescribe", "describe the value flow",
	func(pass *analysis.Pass, p *flow.Package) error {
		if p == nil {
			return fmt.Errorf("no SSA for %s", pass.Pkg.Path())
		}
		vf := value.Of(p)
		if value.Of(p) != vf {
			return fmt.Errorf("a second Of built again")
		}
		sink, _ := pass.Pkg.Scope().Lookup("sink").(*types.Func)
		source, _ := pass.Pkg.Scope().Lookup("source").(*types.Func)
		ranged, _ := pass.Pkg.Scope().Lookup("ranged").(*types.Func)
		origins := func(v ssa.Value) string {
			var got []string
			for _, o := range vf.Origins(v, &value.Query{Interproc: true}) {
				got = append(got, origin(o))
			}
			slices.Sort(got)
			return strings.Join(slices.Compact(got), ", ")
		}
		for _, f := range pass.Files {
			// stored values, from the syntax of their store (Expr)
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.AssignStmt:
					if len(n.Lhs) == 1 && len(n.Rhs) == 1 {
						if _, plain := n.Lhs[0].(*ast.Ident); !plain {
							pass.Reportf(n.Pos(), "stored: %s", origins(vf.Expr(pass.TypesInfo, n, n.Rhs[0])))
						}
					}
				case *ast.KeyValueExpr:
					if id, ok := n.Key.(*ast.Ident); ok && id.Name == "ID" {
						pass.Reportf(n.Pos(), "stored: %s", origins(vf.Expr(pass.TypesInfo, n, n.Value)))
					}
				}
				return true
			})
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				id, ok := ast.Unparen(call.Fun).(*ast.Ident)
				if !ok {
					return true
				}
				switch pass.TypesInfo.Uses[id] {
				case ranged:
					rng, key := vf.Ranged(vf.Arg(call, 0), nil)
					switch {
					case rng == nil:
						pass.Reportf(call.Pos(), "ranged: none")
					case key:
						pass.Reportf(call.Pos(), "ranged: key of %s", origin(rng.X))
					default:
						pass.Reportf(call.Pos(), "ranged: value of %s", origin(rng.X))
					}
				case sink:
					got := origins(vf.Arg(call, 0))
					if e := origins(vf.Expr(pass.TypesInfo, call, call.Args[0])); e != got {
						pass.Reportf(call.Pos(), "Expr gives %s, Arg %s", e, got)
					}
					pass.Reportf(call.Pos(), "origins: %s", got)
				case source:
					v := vf.ValueOf(pass.TypesInfo, call)
					r := vf.Reaches(v, &value.Query{Interproc: true})
					var got []string
					for _, fv := range r.Fields {
						got = append(got, "field "+fv.Name())
					}
					for _, k := range r.Keys {
						got = append(got, "key "+k.Value.ExactString())
					}
					for _, u := range vf.Uses(v, nil) {
						if c, ok := u.Instr.(*ssa.Call); ok && value.Callee(c) == sink {
							got = append(got, "call sink")
						}
					}
					pass.Reportf(call.Pos(), "uses: %s", strings.Join(got, ", "))
				}
				return true
			})
		}
		return nil
	})

func origin(o ssa.Value) string {
	switch o := o.(type) {
	case *ssa.Const:
		return "const " + o.Value.ExactString()
	case *ssa.Call:
		if fn := value.Callee(o); fn != nil {
			if fn.Pkg() != nil && fn.Pkg().Name() != "values" {
				return "call " + fn.Pkg().Name() + "." + fn.Name()
			}
			return "call " + fn.Name()
		}
		return "call ?"
	case *ssa.Parameter:
		return "param " + o.Name()
	case *ssa.Alloc:
		return "alloc " + o.Comment
	case *ssa.FieldAddr:
		return "field " + value.FieldVar(o.X.Type(), o.Field).Name()
	case *ssa.Field:
		return "field " + value.FieldVar(o.X.Type(), o.Field).Name()
	}
	return fmt.Sprintf("%T", o)
}

func TestValues(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), describe, "values")
}

// TestBudget checks one step limit ends the whole query and says so.
func TestBudget(t *testing.T) {
	p, pass := flowtest.Run(t, describe, "values")
	vf := value.Of(p)
	fn := p.Func(funcDecl(pass, "cycle"))
	var phi ssa.Value
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if ph, ok := instr.(*ssa.Phi); ok && phi == nil {
				phi = ph
			}
		}
	}
	if phi == nil {
		t.Fatal("cycle has no phi")
	}
	q := &value.Query{Limit: 1}
	if got := vf.Origins(phi, q); len(got) != 0 || !q.Exhausted {
		t.Errorf("limit 1: got %d origins, exhausted %v; want none, exhausted", len(got), q.Exhausted)
	}
	q = &value.Query{}
	if got := vf.Origins(phi, q); len(got) != 2 || q.Exhausted {
		t.Errorf("no limit: got %v, exhausted %v; want the two constants", got, q.Exhausted)
	}
}

func funcDecl(pass *analysis.Pass, name string) *ast.FuncDecl {
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == name && fd.Recv == nil {
				return fd
			}
		}
	}
	return nil
}

// TestAnswers checks the answers checks ask for over perPass's three
// sinks: made on each pass of the loop (In), from a call of mint
// (FromCall), constant (Const).
func TestAnswers(t *testing.T) {
	p, pass := flowtest.Run(t, describe, "values")
	vf := value.Of(p)
	fn := p.Func(funcDecl(pass, "perPass"))
	mint := pass.Pkg.Scope().Lookup("mint").(*types.Func)
	sink := pass.Pkg.Scope().Lookup("sink").(*types.Func)
	type answer struct{ inLoop, fromMint, constant bool }
	var got []answer
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || value.Callee(call) != sink {
				continue
			}
			loop := p.LoopOf(call)
			if loop == nil {
				t.Fatalf("sink call at %s is in no loop", p.Fset.Position(call.Pos()))
			}
			arg := call.Call.Args[0]
			got = append(got, answer{
				inLoop:   len(value.In(vf.Origins(arg, nil), loop)) > 0,
				fromMint: len(vf.FromCall(arg, mint, nil)) > 0,
				constant: vf.Const(arg, nil),
			})
		}
	}
	want := []answer{{true, true, false}, {false, true, false}, {false, false, true}}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// TestFieldLoads checks the reads of a field, by *types.Var, are indexed
// where they are made: client.token is read once, in (*client).send.
func TestFieldLoads(t *testing.T) {
	p, pass := flowtest.Run(t, describe, "values")
	vf := value.Of(p)
	client := pass.Pkg.Scope().Lookup("client").Type().Underlying().(*types.Struct)
	var token *types.Var
	for f := range client.Fields() {
		if f.Name() == "token" {
			token = f
		}
	}
	loads := vf.FieldLoads(token)
	if len(loads) != 1 {
		t.Fatalf("got %d loads of client.token, want 1", len(loads))
	}
	ld := loads[0].(ssa.Instruction)
	if fn := ld.Parent(); fn.Name() != "send" || fn.Signature.Recv() == nil {
		t.Errorf("client.token read in %s, want (*client).send", fn)
	}
	if n := len(vf.Uses(loads[0], nil)); n != 1 {
		t.Errorf("the read has %d uses, want 1 (the sink's argument)", n)
	}
}

// TestCellStores checks a captured variable's stores are its cell's, the
// closure's included: key is stored "before" in captured and mint()'s
// result in its closure.
func TestCellStores(t *testing.T) {
	p, pass := flowtest.Run(t, describe, "values")
	vf := value.Of(p)
	fn := p.Func(funcDecl(pass, "captured"))
	var cell *ssa.Alloc
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if a, ok := instr.(*ssa.Alloc); ok && a.Comment == "key" {
				cell = a
			}
		}
	}
	if cell == nil {
		t.Fatal("captured has no cell for key")
	}
	var in []string
	for _, st := range vf.CellStores(cell) {
		in = append(in, st.Parent().Name()+":"+origin(st.Val))
	}
	slices.Sort(in)
	if want := []string{`captured$1:call mint`, `captured:const "before"`}; !slices.Equal(in, want) {
		t.Errorf("stores of key: %v, want %v", in, want)
	}
}
