package flow

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/passes/internal/names"
)

// neverReturn lists, by full name (types.Func.FullName), the functions and
// methods whose call never returns to its caller: it exits the process,
// ends the goroutine, or panics on every path. The builder cuts the
// control-flow graph after a call of one (ssa.Program.SetNoReturn), so a
// failure branch that ends in one leaves the loop. Keep it in sync with
// what a driver cannot learn from a dependency's code: ctrlflow's facts are
// not computed here (see ../shared/reference/ssa-core.md, §5).
var neverReturn = []string{
	"os.Exit",
	"runtime.Goexit",
	"syscall.Exit",

	"log.Fatal", "log.Fatalf", "log.Fatalln",
	"log.Panic", "log.Panicf", "log.Panicln",
	"(*log.Logger).Fatal", "(*log.Logger).Fatalf", "(*log.Logger).Fatalln",
	"(*log.Logger).Panic", "(*log.Logger).Panicf", "(*log.Logger).Panicln",

	// t.Fatal and the like are promoted from the embedded testing.common
	"(*testing.common).FailNow",
	"(*testing.common).Fatal", "(*testing.common).Fatalf",
	"(*testing.common).SkipNow",
	"(*testing.common).Skip", "(*testing.common).Skipf",

	"k8s.io/klog.Fatal", "k8s.io/klog.Fatalf", "k8s.io/klog.Fatalln", "k8s.io/klog.FatalDepth",
	"k8s.io/klog.Exit", "k8s.io/klog.Exitf", "k8s.io/klog.Exitln", "k8s.io/klog.ExitDepth",
	"k8s.io/klog/v2.Fatal", "k8s.io/klog/v2.Fatalf", "k8s.io/klog/v2.Fatalln", "k8s.io/klog/v2.FatalDepth",
	"k8s.io/klog/v2.Exit", "k8s.io/klog/v2.Exitf", "k8s.io/klog/v2.Exitln", "k8s.io/klog/v2.ExitDepth",

	"(*go.uber.org/zap.Logger).Fatal", "(*go.uber.org/zap.Logger).Panic",
	"(*go.uber.org/zap.SugaredLogger).Fatal", "(*go.uber.org/zap.SugaredLogger).Fatalf",
	"(*go.uber.org/zap.SugaredLogger).Fatalw", "(*go.uber.org/zap.SugaredLogger).Fatalln",
	"(*go.uber.org/zap.SugaredLogger).Panic", "(*go.uber.org/zap.SugaredLogger).Panicf",
	"(*go.uber.org/zap.SugaredLogger).Panicw", "(*go.uber.org/zap.SugaredLogger).Panicln",

	"github.com/sirupsen/logrus.Fatal", "github.com/sirupsen/logrus.Fatalf", "github.com/sirupsen/logrus.Fatalln",
	"github.com/sirupsen/logrus.Panic", "github.com/sirupsen/logrus.Panicf", "github.com/sirupsen/logrus.Panicln",
	"(*github.com/sirupsen/logrus.Logger).Fatal", "(*github.com/sirupsen/logrus.Logger).Fatalf",
	"(*github.com/sirupsen/logrus.Logger).Fatalln", "(*github.com/sirupsen/logrus.Logger).Exit",
	"(*github.com/sirupsen/logrus.Logger).Panic", "(*github.com/sirupsen/logrus.Logger).Panicf",
	"(*github.com/sirupsen/logrus.Logger).Panicln",
	"(*github.com/sirupsen/logrus.Entry).Fatal", "(*github.com/sirupsen/logrus.Entry).Fatalf",
	"(*github.com/sirupsen/logrus.Entry).Fatalln",
	"(*github.com/sirupsen/logrus.Entry).Panic", "(*github.com/sirupsen/logrus.Entry).Panicf",
	"(*github.com/sirupsen/logrus.Entry).Panicln",
}

// NeverReturns reports whether a call of fn never returns to its caller:
// fn is one of the functions the engine knows exit the process, end the
// goroutine or always panic. It is the predicate the engine gives
// ssa.Program.SetNoReturn.
func NeverReturns(fn *types.Func) bool {
	return fn != nil && names.IsFull(fn.Origin(), neverReturn...)
}

// ownNoReturn returns the functions and methods of the package whose every
// path ends in a call that never returns (NeverReturns, panic, or another
// of these): a body with no return statement (outside its function
// literals) whose last statement ends in such a call (terminal), found to
// a fixed point so that a helper of a helper counts. The builder is told
// of them (SetNoReturn), so that a failure branch that calls the
// package's own fatal helper leaves the loop.
func ownNoReturn(files []*ast.File, info *types.Info) map[*types.Func]bool {
	var decls []*ast.FuncDecl
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && !returns(fd.Body) {
				decls = append(decls, fd)
			}
		}
	}
	own := make(map[*types.Func]bool)
	for changed := true; changed; {
		changed = false
		for _, fd := range decls {
			obj, _ := info.Defs[fd.Name].(*types.Func)
			if obj == nil || own[obj] {
				continue
			}
			if terminal(info, own, fd.Body) {
				own[obj] = true
				changed = true
			}
		}
	}
	return own
}

// returns reports whether body holds a return statement of its own.
func returns(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
		}
		return !found
	})
	return found
}

// terminal reports whether every path through s ends in a call that never
// returns: s is such a call, a block whose last statement is terminal, or
// an if with an else whose both branches are.
func terminal(info *types.Info, own map[*types.Func]bool, s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.BlockStmt:
		return len(s.List) > 0 && terminal(info, own, s.List[len(s.List)-1])
	case *ast.IfStmt:
		return s.Else != nil && terminal(info, own, s.Body) && terminal(info, own, s.Else)
	case *ast.ExprStmt:
		call, ok := ast.Unparen(s.X).(*ast.CallExpr)
		if !ok {
			return false
		}
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
			if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "panic" {
				return true
			}
		}
		fn, _ := typeutil.Callee(info, call).(*types.Func)
		return fn != nil && (own[fn.Origin()] || NeverReturns(fn))
	}
	return false
}

// NeverReturns reports whether a call of fn never returns: one of the
// engine's table (NeverReturns) or a function of the package whose every
// path ends in such a call (ownNoReturn).
func (p *Package) NeverReturns(fn *types.Func) bool {
	return fn != nil && (NeverReturns(fn) || p.noReturn[fn.Origin()])
}
