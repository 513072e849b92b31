// Package flow is the flow engine below the retry model: it builds one
// package's SSA form (golang.org/x/tools/go/ssa) inside a pass, lazily, and
// answers control-flow questions of it: the loops of a function (natural
// loops from dominators and back edges, strongly connected components where
// a goto makes the graph irreducible, the yield closure of a range-over-func
// loop), their exits, their induction variables and the exits that compare
// one with a bound, reachability from an edge, the calls that never
// return (the table and the package's own functions), the attempts of a
// loop (the calls whose results decide whether the pass goes on to the
// next one, Loop.Attempts) and the call-graph cycles that start a
// function again (recursion, time.AfterFunc: Package.Cycles). The model's
// precision filters are policies over that answer, in package policy. An index maps SSA back to syntax (calls by Lparen, functions by
// Syntax(), loops to their for, range or labelled statement) so that
// positions, messages and fixes stay on the AST.
//
// The engine never requires buildssa or ctrlflow: their facts would make
// every driver analyse every dependency from source. A pass makes a Handle
// and calls Get only when it has a question (the model asks for packages
// whose prefilter finds a candidate); Get builds once.
//
// What go/ssa gives and hides, with measured costs, is in
// ../shared/reference/ssa-core.md; docs/architecture.md says what the
// engine answers and what it does not yet.
package flow

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// A Handle builds the SSA form of one pass's package the first time Get is
// called.
type Handle struct {
	once sync.Once
	in   Input
	pkg  *Package
	err  error
}

// Input is what the engine needs of a package: a pass has it all.
type Input struct {
	Fset      *token.FileSet
	Pkg       *types.Package
	Files     []*ast.File
	Info      *types.Info
	HasErrors bool // the package has type errors: the engine builds nothing
}

// Analyzer gives the passes that require it one Handle on their package,
// so that they share one build. Its run builds nothing, and it has no
// facts, so requiring it sends no dependency to analysis (unlike buildssa,
// whose ctrlflow facts do).
var Analyzer = &analysis.Analyzer{
	Name:       "idemlint_flow",
	Doc:        "idemlint_flow: a handle on the package's SSA form and loops, built on first use",
	URL:        "https://github.com/idemlint/idemlint/blob/main/docs/architecture.md#the-flow-engine",
	ResultType: reflect.TypeFor[*Handle](),
	Run:        func(pass *analysis.Pass) (any, error) { return ForPass(pass), nil },
}

// ForPass returns a handle on pass's package. It builds nothing.
func ForPass(pass *analysis.Pass) *Handle {
	return New(Input{
		Fset:      pass.Fset,
		Pkg:       pass.Pkg,
		Files:     pass.Files,
		Info:      pass.TypesInfo,
		HasErrors: len(pass.TypeErrors) > 0,
	})
}

// New returns a handle on the package in. It builds nothing.
func New(in Input) *Handle { return &Handle{in: in} }

// Get returns the package's SSA form with its index, building it on the
// first call; nil when the package has type errors or the builder failed
// (Err says why).
func (h *Handle) Get() *Package {
	h.once.Do(func() { h.pkg, h.err = build(h.in) })
	return h.pkg
}

// Err returns why Get returned nil, once it has been called.
func (h *Handle) Err() error { return h.err }

// Package is one package's SSA form and the engine's index of it.
type Package struct {
	SSA   *ssa.Package
	Fset  *token.FileSet
	Funcs []*ssa.Function // the source functions, literals and yield closures, in source order

	calls  map[token.Pos]ssa.CallInstruction
	bySyn  map[ast.Node]*ssa.Function
	info   *types.Info
	mu     sync.Mutex
	forest map[*ssa.Function]*Forest

	noReturn map[*types.Func]bool // the package's own functions that never return

	files []*ast.File
	memo  sync.Map // indexes other packages build once over this one (Memo)
}

func build(in Input) (p *Package, err error) {
	if in.HasErrors || in.Pkg == nil || in.Info == nil {
		return nil, fmt.Errorf("flow: %s has type errors", pathOf(in.Pkg))
	}
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, fmt.Errorf("flow: building SSA of %s: %v", pathOf(in.Pkg), r)
		}
	}()
	prog := ssa.NewProgram(in.Fset, ssa.BuilderMode(0))
	own := ownNoReturn(in.Files, in.Info)
	prog.SetNoReturn(func(fn *types.Func) bool { return NeverReturns(fn) || own[fn.Origin()] })
	for _, imp := range in.Pkg.Imports() {
		prog.CreatePackage(imp, nil, nil, true)
	}
	sp := prog.CreatePackage(in.Pkg, in.Files, in.Info, false)
	sp.Build()

	p = &Package{
		SSA:    sp,
		Fset:   in.Fset,
		calls:  make(map[token.Pos]ssa.CallInstruction),
		bySyn:  make(map[ast.Node]*ssa.Function),
		info:   in.Info,
		forest: make(map[*ssa.Function]*Forest),

		noReturn: own,
		files:    in.Files,
	}
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		p.Funcs = append(p.Funcs, fn)
		p.index(fn)
		for _, anon := range fn.AnonFuncs {
			add(anon)
		}
	}
	for _, f := range in.Files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			obj, _ := in.Info.Defs[fd.Name].(*types.Func)
			if fn := prog.FuncValue(obj); obj != nil && fn != nil {
				add(fn)
			}
		}
	}
	// literals in package-level var initialisers belong to the synthetic init
	if init, ok := sp.Members["init"].(*ssa.Function); ok {
		for _, anon := range init.AnonFuncs {
			add(anon)
		}
	}
	return p, nil
}

func pathOf(pkg *types.Package) string {
	if pkg == nil {
		return "<nil package>"
	}
	return pkg.Path()
}

// index records fn's syntax and its calls by Lparen.
func (p *Package) index(fn *ssa.Function) {
	if syn := fn.Syntax(); syn != nil {
		p.bySyn[syn] = fn
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok {
				if pos := c.Common().Pos(); pos.IsValid() {
					p.calls[pos] = c
				}
			}
		}
	}
}

// Call returns the call instruction (a *ssa.Call, *ssa.Go or *ssa.Defer)
// of the call expression whose Lparen is lparen; nil for a conversion, a
// call of a builtin folded away, or code the builder dropped as
// unreachable.
func (p *Package) Call(lparen token.Pos) ssa.CallInstruction { return p.calls[lparen] }

// CallOf returns the call instruction of call; see Call.
func (p *Package) CallOf(call *ast.CallExpr) ssa.CallInstruction { return p.calls[call.Lparen] }

// Decl returns the function declaration that holds fn: its own, or for a
// function literal (or a yield closure) the one it is written in; nil for
// the literals of package-level variables.
func (p *Package) Decl(fn *ssa.Function) *ast.FuncDecl {
	for fn != nil && fn.Parent() != nil {
		fn = fn.Parent()
	}
	if fn == nil {
		return nil
	}
	fd, _ := fn.Syntax().(*ast.FuncDecl)
	return fd
}

type callExprs struct{}

// CallExpr returns the call expression of the call instruction c (the
// one whose Lparen is c's position): the way back from Call and CallOf.
// The index of the package's call expressions is built on first use.
func (p *Package) CallExpr(c ssa.CallInstruction) *ast.CallExpr {
	idx := p.Memo(callExprs{}, func() any {
		m := make(map[token.Pos]*ast.CallExpr)
		for _, f := range p.files {
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					m[call.Lparen] = call
				}
				return true
			})
		}
		return m
	}).(map[token.Pos]*ast.CallExpr)
	return idx[c.Common().Pos()]
}

// Func returns the function whose syntax is n: a *ast.FuncDecl, a
// *ast.FuncLit, or the *ast.RangeStmt of a range-over-func loop (its yield
// closure); nil for any other node.
func (p *Package) Func(n ast.Node) *ssa.Function { return p.bySyn[n] }
