package unboundedretry

import (
	"fmt"
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/internal/suppress"
	"github.com/idemlint/idemlint/passes/internal/check"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// Name is the check's name.
const Name = "unboundedretry"

// Config configures the check.
type Config struct {
	// Scope is the retry model pass to read; nil means retryscope.Analyzer.
	Scope *analysis.Analyzer
	// StrictContext also reports retries bounded only by a caller's context.
	StrictContext bool
}

// Analyzer is the check with the default configuration.
var Analyzer = New(&Config{})

// New returns the check for cfg. The analyzer reads cfg when it runs.
func New(cfg *Config) *analysis.Analyzer {
	a := check.New(check.Spec{Doc: Documentation, Scope: cfg.Scope,
		Run: func(pass *analysis.Pass, res *retryscope.Result) { run(pass, res, cfg.StrictContext) }})
	a.Flags.BoolVar(&cfg.StrictContext, "strict-context", cfg.StrictContext, "also report retries bounded only by a caller's context")
	return a
}

func run(pass *analysis.Pass, res *retryscope.Result, strict bool) {
	for _, s := range res.Scopes() {
		// A retry helper's call has its loop's bounds: the helper's own
		// loop is the finding, unless the call's arguments leave its cap
		// untaken.
		if s.Kind == retryscope.Client || s.Helper != nil && s.CapArg == nil || s.Cap.Kind != retryscope.CapNone {
			continue
		}
		var missing string
		fixText := fix(s)
		if s.CapArg != nil {
			fixText = "pass a positive count and set a deadline"
		}
		switch s.Deadline.Kind {
		case retryscope.DeadlineNone:
			missing = "no attempt cap and no deadline"
			if s.CapArg != nil {
				missing += " with these arguments"
			}
		case retryscope.DeadlineCaller:
			if u := s.Deadline.Unbounded; u != nil {
				missing = "no attempt cap and no deadline when called from " + caller(res, u)
				fixText = "cap it and set a deadline"
				break
			}
			if !strict {
				continue
			}
			missing = "no cap or deadline of its own"
		default:
			continue
		}
		suppress.Report(pass, Name, analysis.Diagnostic{
			Pos:     s.Pos,
			End:     end(s),
			Message: fmt.Sprintf("%s has %s; %s", what(s), missing, fixText),
		})
	}
}

// caller names the function of the package that reaches the retry with
// the context ctx, which has no deadline.
func caller(res *retryscope.Result, ctx ast.Expr) string {
	if fd := res.DeclAt(ctx.Pos()); fd != nil {
		return fd.Name.Name
	}
	return "the package"
}

func what(s *retryscope.Scope) string {
	if s.Kind == retryscope.Loop {
		return "retry loop"
	}
	return s.Name
}

func fix(s *retryscope.Scope) string {
	if f := s.BoundFix(); f != "" {
		return f
	}
	return "cap it and set a deadline, or use retry.Do"
}

// end returns the end of the report's range: the for keyword, the label
// a goto jumps back to, or the function name of a library call, a
// recursion or a rescheduling.
func end(s *retryscope.Scope) token.Pos {
	switch n := s.Node.(type) {
	case *ast.ForStmt:
		return n.For + 3
	case *ast.RangeStmt:
		return n.For + 3
	case *ast.LabeledStmt:
		return n.Label.End() // a goto back to the label
	case *ast.CallExpr:
		return n.Fun.End()
	}
	return s.Pos
}
