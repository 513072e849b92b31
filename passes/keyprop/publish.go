package keyprop

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/keys"
)

// publishFact marks a function that publishes to JetStream with no
// Nats-Msg-Id, itself or through the functions it calls: whatever key its
// caller holds, the stream stores each of its messages again when the call
// is repeated. Via is the call that publishes.
type publishFact struct{ Via string }

func (*publishFact) AFact() {}

func (f *publishFact) String() string {
	return "publishes to JetStream with no Nats-Msg-Id through " + f.Via
}

// publishers returns the package's functions that publish to JetStream
// with no message id when they are called, directly or through a call of one (of this package,
// to a fixed point, or of another, by its fact), each with the call that
// does; the exported ones export a publishFact.
func publishers(pass *analysis.Pass, decls map[*types.Func]*ast.FuncDecl) map[*types.Func]string {
	out := make(map[*types.Func]string)
	if !mayPublish(pass) {
		return out
	}
	via := func(fn *types.Func) (string, bool) {
		if v, ok := out[fn]; ok {
			return v, true
		}
		if fn.Pkg() != pass.Pkg {
			var f publishFact
			if pass.ImportObjectFact(fn, &f) {
				return f.Via, true
			}
		}
		return "", false
	}
	for changed := true; changed; {
		changed = false
		for fn, decl := range decls {
			if _, ok := out[fn]; ok {
				continue
			}
			called := make(map[*ast.FuncLit]bool)
			ast.Inspect(decl.Body, func(n ast.Node) bool {
				if lit, ok := n.(*ast.FuncLit); ok {
					// a function literal the function returns or hands
					// on publishes when it is called, not when fn is; one
					// called where it stands (go func() { ... }()) is fn's
					return called[lit]
				}
				call, ok := n.(*ast.CallExpr)
				if !ok || out[fn] != "" {
					return out[fn] == ""
				}
				if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
					called[lit] = true
				}
				if pub := keys.JetStreamPublish(pass.TypesInfo, decl.Body, call); pub != nil {
					if !pub.Opaque && len(pub.IDs) == 0 {
						out[fn] = types.ExprString(call.Fun)
						changed = true
					}
					return true
				}
				if g, ok := pass.TypesInfo.Uses[astq.CalleeIdent(call)].(*types.Func); ok && g != fn {
					if _, ok := via(g); ok {
						out[fn] = types.ExprString(call.Fun)
						changed = true
					}
				}
				return true
			})
		}
	}
	exported := false
	for fn, v := range out {
		if fn.Exported() {
			pass.ExportObjectFact(fn, &publishFact{Via: v})
			exported = true
		}
	}
	if exported {
		pass.ExportPackageFact(new(publishersFact))
	}
	return out
}

// publishersFact marks a package that has functions with a publishFact.
type publishersFact struct{}

func (*publishersFact) AFact() {}

func (*publishersFact) String() string { return "publishers" }

// mayPublish reports whether the package can hold a function that
// publishes to JetStream: it imports nats.go, or a package with
// publishers.
func mayPublish(pass *analysis.Pass) bool {
	for _, imp := range pass.Pkg.Imports() {
		if keys.NATSPackage(imp.Path()) || pass.ImportPackageFact(imp, new(publishersFact)) {
			return true
		}
	}
	return false
}

// publishesWithoutID reports whether fn publishes to JetStream with no
// message id (a publishFact, or a function of this package found so).
func (c *checker) publishesWithoutID(fn *types.Func) bool {
	if _, ok := c.publishes[fn]; ok {
		return true
	}
	var f publishFact
	return fn.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(fn, &f)
}
