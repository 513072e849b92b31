package nojitter

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/internal/fiximport"
	"github.com/idemlint/idemlint/internal/suppress"
	"github.com/idemlint/idemlint/passes/internal/check"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// Name is the check's name.
const Name = "nojitter"

// Config configures the check: the retry model to read.
type Config = check.Config

// Analyzer is the check with the default configuration; New returns the
// check for a Config.
var Analyzer, New = check.Define(Documentation, run)

const runtimeFix = "use retry.Do, which waits with full jitter"

func run(pass *analysis.Pass, res *retryscope.Result) {
	seen := make(map[token.Pos]bool) // a helper's wait shared by several scopes is reported once
	for _, s := range res.Scopes() {
		if s.Helper != nil {
			continue // the waits of a retry helper's loop are reported there
		}
		for _, w := range s.Waits {
			msg := message(s, w)
			if msg == "" || seen[w.Pos] {
				continue
			}
			seen[w.Pos] = true
			d := analysis.Diagnostic{Pos: w.Pos, Message: msg}
			if w.Node != nil && w.Node.Pos() == w.Pos {
				if _, block := w.Node.(*ast.BlockStmt); !block {
					d.End = w.Node.End()
				}
			}
			if !w.Library && (w.Kind == retryscope.WaitConstant || w.Kind == retryscope.WaitGrowth) {
				d.SuggestedFixes = jitterFix(pass, w)
			}
			suppress.Report(pass, Name, d)
		}
	}
}

func message(s *retryscope.Scope, w retryscope.Wait) string {
	switch w.Kind {
	case retryscope.WaitConstant, retryscope.WaitGrowth:
		what := "constant wait"
		if w.Kind == retryscope.WaitGrowth {
			what = "deterministic backoff"
		}
		if w.Library {
			return fmt.Sprintf("%s without jitter (%s); %s", what, setting(s, w), libraryFix(s))
		}
		return what + " between retry attempts has no jitter; wait a random duration in [0, d), e.g. retry.Jitter(d)"
	case retryscope.WaitNone:
		if w.Library {
			return fmt.Sprintf("%s retries with no wait (%s); add a jittered backoff, or use retry.Do", s.Name, w.Setting)
		}
		if s.Cap.Kind != retryscope.CapKnown || s.Cap.N <= 3 {
			return "" // a few quick attempts, e.g. on a conflict, are fine
		}
		return fmt.Sprintf("retry loop makes %d attempts with no wait between them; add a jittered backoff, or use retry.Do", s.Cap.N)
	}
	return ""
}

// jitterFix wraps the duration of a time.Sleep, time.After, time.NewTimer or
// Timer.Reset in runtime/retry.Jitter, adding the import (as "retry", or an
// alias when that name is taken).
func jitterFix(pass *analysis.Pass, w retryscope.Wait) []analysis.SuggestedFix {
	call, ok := w.Node.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil
	}
	fn, _ := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
	if fn == nil {
		return nil
	}
	switch fn.FullName() {
	case "time.Sleep", "time.After", "time.NewTimer", "(*time.Timer).Reset":
	default:
		return nil
	}
	f := fiximport.File(pass, call.Pos())
	if f == nil {
		return nil
	}
	path, jitter := retryscope.JitterFunc()
	name, edits, ok := fiximport.Name(pass, f, path, call.Pos(), "retry", "idemretry", "jitterretry")
	if !ok {
		return nil
	}
	arg := call.Args[0]
	edits = append(edits,
		analysis.TextEdit{Pos: arg.Pos(), End: arg.Pos(), NewText: []byte(name + "." + jitter + "(")},
		analysis.TextEdit{Pos: arg.End(), End: arg.End(), NewText: []byte(")")},
	)
	return []analysis.SuggestedFix{{
		Message:   "Wait a random duration in [0, d) with runtime/retry.Jitter (changes behaviour)",
		TextEdits: edits,
	}}
}

func setting(s *retryscope.Scope, w retryscope.Wait) string {
	if w.Setting != "" {
		return w.Setting
	}
	return s.Name
}

func libraryFix(s *retryscope.Scope) string {
	if fix := s.JitterFix(); fix != "" {
		return fix
	}
	return runtimeFix
}
