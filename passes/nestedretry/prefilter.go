package nestedretry

import (
	"go/ast"
	"math"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/internal/prefilter"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// Prefilter returns the check's prefilter (mayExport) for the check built
// on the retry model scope. The suite registers it for the analyzer it
// builds (analyzers.New); the analyzer New returns has none by itself.
func Prefilter(scope *analysis.Analyzer) prefilter.Func {
	return func(p *prefilter.Package) bool { return mayExport(scope, p) }
}

// mayExport is the check's prefilter: whether it may export a retriesFact
// in the dependency p, read from p's syntax and import graph only. A fact
// marks an exported function whose body reaches a retry layer, so p may
// have one only when the code that summary walks from an exported
// function (see reachable) holds a retry loop that may wait
// (retryscope.LoopFilter), a call that may be a retry library's
// (retryscope.LibraryCalls), a call of a client that retries by itself (by
// one of its method names, in a package that depends on the client's), or
// a call of a function of a dependency that has a fact (by name). The
// standard library and the modelled packages export none (see Run).
func mayExport(scope *analysis.Analyzer, p *prefilter.Package) bool {
	if modelled(p.Path) || skipStd && len(p.Files) > 0 && retryscope.IsStd(p.Path, p.Files[0]) {
		return false
	}
	lex, err := p.Lexicon()
	if err != nil {
		return true
	}
	// First what the syntax and the import list tell: a loop that may
	// wait, a goto or recursion retry, a call of a client of a package p
	// imports. Most packages kept are kept here, before the types of p's
	// imports are read (what the rest needs, and what unitchecker reads
	// again when p is analysed).
	cheap := retryscope.ClientCalls(p, true)
	mayWait := retryscope.LexiconMayWait(lex)
	var lf *retryscope.LoopFilter
	if mayWait || lexiconCalls(lex, cheap) {
		files, err := p.Syntax()
		if err != nil {
			return true
		}
		lf = retryscope.LoopFilterOf(p, files)
		if walkFinds(files, lf, mayWait, cheap) {
			return true
		}
	}
	// Then what needs the imports' types and facts: calls by the name of
	// a function with a fact, of a retry library, of a client of a package
	// p depends on.
	// The names of the functions with a fact of the check's or of the
	// model's that make a scope (a helper's): a call of one may make a
	// layer.
	names, packageFacts := p.FactNames(append(factTypes(), retryscope.LayerFacts()...)...)
	if packageFacts {
		return true
	}
	var calls []func(string, int) bool
	if lib := retryscope.LibraryCalls(scope, p); lib != nil {
		calls = append(calls, func(name string, _ int) bool { return lib(name) })
	}
	calls = append(calls, retryscope.ClientCalls(p, false)...)
	if len(names) > 0 {
		calls = append(calls, func(name string, _ int) bool { return names[name] })
	}
	if !lexiconCalls(lex, calls) {
		return false
	}
	files, err := p.Syntax()
	if err != nil {
		return true
	}
	if lf == nil {
		lf = retryscope.LoopFilterOf(p, files)
	}
	return walkFinds(files, lf, false, calls)
}

// walkFinds reports whether the code that summary can walk from the
// package's exported functions (see reachable) holds a goto or recursion
// retry or a rescheduling (lf.MayJumpBack), a loop that lf says may wait
// (looked for only when loops is set), or a call by a name and number of
// arguments that one of calls accepts.
func walkFinds(files []*ast.File, lf *retryscope.LoopFilter, loops bool, calls []func(string, int) bool) bool {
	found := false
	reachable(files, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			found = lf.MayJumpBack(n) // a goto or a recursion retry, a rescheduling
		case *ast.ForStmt, *ast.RangeStmt:
			found = loops && lf.MayWait(n.(ast.Stmt))
		case *ast.CallExpr:
			name := prefilter.CallName(n)
			for _, call := range calls {
				if name != "" && call(name, len(n.Args)) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// lexiconCalls reports whether some name the lexicon may call by matches
// one of calls, whatever the number of arguments.
func lexiconCalls(lex *prefilter.Lexicon, calls []func(string, int) bool) bool {
	for name := range lex.Calls {
		for _, call := range calls {
			if call(name, math.MaxInt) {
				return true
			}
		}
	}
	return false
}

// reachable calls visit on each function declaration that summary can walk
// to and on the nodes of the code it can walk
// from the package's exported functions and methods, until visit returns
// false: their bodies, and the bodies of the functions and methods of the
// package they call (by name), without the closures that the index skips
// for being stored in a composite literal or returned (closures assigned
// to variables stay: they are reached where they are called), and without
// go statements. A package-level variable that holds a function literal
// (var get = func(...) {...}) is walked like a function where it is
// called.
func reachable(files []*ast.File, visit func(ast.Node) bool) {
	decls := make(map[string][]ast.Node) // *ast.FuncDecl or *ast.FuncLit
	var work []ast.Node
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Body != nil {
					decls[d.Name.Name] = append(decls[d.Name.Name], d)
					if d.Name.IsExported() {
						work = append(work, d)
					}
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					vs, ok := spec.(*ast.ValueSpec)
					if !ok || len(vs.Values) != len(vs.Names) {
						continue
					}
					for i, v := range vs.Values {
						if lit, ok := ast.Unparen(v).(*ast.FuncLit); ok {
							decls[vs.Names[i].Name] = append(decls[vs.Names[i].Name], lit)
						}
					}
				}
			}
		}
	}
	done := make(map[ast.Node]bool)
	for _, fd := range work {
		done[fd] = true
	}
	stop := false
	for len(work) > 0 && !stop {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		var body *ast.BlockStmt
		switch fn := fn.(type) {
		case *ast.FuncDecl:
			if !visit(fn) {
				return
			}
			body = fn.Body
		case *ast.FuncLit:
			body = fn.Body
		}
		stored := make(map[*ast.FuncLit]bool)
		ast.Inspect(body, func(n ast.Node) bool {
			if stop {
				return false
			}
			switch n := n.(type) {
			case *ast.GoStmt:
				return false
			case *ast.FuncLit:
				if stored[n] {
					return false
				}
			case *ast.CompositeLit:
				for _, elt := range n.Elts {
					if kv, ok := elt.(*ast.KeyValueExpr); ok {
						elt = kv.Value
					}
					if lit, ok := ast.Unparen(elt).(*ast.FuncLit); ok {
						stored[lit] = true
					}
				}
			case *ast.ReturnStmt:
				for _, r := range n.Results {
					if lit, ok := ast.Unparen(r).(*ast.FuncLit); ok {
						stored[lit] = true
					}
				}
			case *ast.CallExpr:
				for _, callee := range decls[prefilter.CallName(n)] {
					if !done[callee] {
						done[callee] = true
						work = append(work, callee)
					}
				}
			}
			if n != nil && !visit(n) {
				stop = true
			}
			return !stop
		})
	}
}
