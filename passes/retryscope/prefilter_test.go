package retryscope_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sync/atomic"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/internal/prefilter"
	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// TestPrefilterSound checks the syntax-only answers of the model, over
// every check's test packages and the library stubs: each retry loop that
// waits passes LoopFilter.MayWait and LexiconMayWait, and each library call
// passes LibraryCalls and is in the lexicon's calls. A driver skips a
// dependency on their word (see nestedretry): a false "no" loses findings.
func TestPrefilterSound(t *testing.T) {
	var loops, ownLoops, calls, delays, waiters atomic.Int64 // the checker runs actions in parallel
	testgopath.ProbeTrees(t, retryscope.Analyzer, func(pass *analysis.Pass, res *retryscope.Result) {
		pp := prefilter.FromPass(pass.Pkg, pass.Fset, pass.Files)
		lex, err := pp.Lexicon()
		if err != nil {
			t.Error(err)
			return
		}
		srcs, err := pp.Source()
		if err != nil {
			t.Error(err)
			return
		}
		for i, f := range pass.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && retryscope.ReturnsDuration(f, fd) {
					delays.Add(1)
					if !retryscope.MayReturnDuration(srcs[i]) {
						t.Errorf("%s: mayReturnDuration rules out the file of %s", pass.Fset.Position(fd.Pos()), fd.Name.Name)
					}
				}
			}
		}
		// the dependencies' wait helpers, by name, as a driver's
		// FactNames gives them
		deps := depWaiters(pass.Pkg, res)
		pp.FactNames = func(...analysis.Fact) (map[string]bool, bool) { return deps, false }
		lf := retryscope.NewLoopFilter(pass.Files, deps)
		for _, f := range pass.Files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil || !fd.Name.IsExported() {
					continue
				}
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok && res.Waits(fn) {
					waiters.Add(1)
					if !prefilter.Lookup(retryscope.Analyzer)(pp) {
						t.Errorf("%s: the model's prefilter rules out the package of wait helper %s", pass.Fset.Position(fd.Pos()), fd.Name.Name)
					}
				}
			}
		}
		lib := retryscope.LibraryCalls(retryscope.Analyzer, pp)
		for _, s := range res.Scopes() {
			where := pass.Fset.Position(s.Pos)
			switch n := s.Node.(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				waits := false
				for _, w := range s.Waits {
					waits = waits || w.Kind != retryscope.WaitNone
				}
				if s.Kind == retryscope.JobHandler {
					// a consumer's receive loop: its broker redelivers,
					// and nestedretry takes it for no layer
					continue
				}
				if !waits || s.NotFor {
					// a goto or recursion retry: nestedretry takes it for
					// an outer layer only and exports no fact for it, nor
					// does the model (its prefilters need not see it)
					continue
				}
				loops.Add(1)
				if !lf.MayWait(n.(ast.Stmt)) {
					t.Errorf("%s: LoopFilter.MayWait rules out a retry loop that waits", where)
				}
				if !retryscope.LexiconMayWait(lex) && !retryscope.LexiconCallsWaiter(pp, lex) {
					t.Errorf("%s: LexiconMayWait rules out the package of a retry loop that waits", where)
				}
				own := false // a wait of its own (ownWait), not only the body's blocking
				for _, w := range s.Waits {
					if _, body := w.Node.(*ast.BlockStmt); !body {
						own = true
					}
				}
				if own {
					ownLoops.Add(1)
					if !lf.MayOwnWait(n.(ast.Stmt)) {
						t.Errorf("%s: LoopFilter.MayOwnWait rules out a retry loop with a wait of its own", where)
					}
					if !retryscope.LexiconMayOwnWait(lex) && !retryscope.LexiconCallsWaiter(pp, lex) {
						t.Errorf("%s: LexiconMayOwnWait rules out the package of a retry loop with a wait of its own", where)
					}
				}
			case *ast.CallExpr:
				if s.Kind != retryscope.LibraryCall && s.Kind != retryscope.Client {
					continue
				}
				if s.Helper != nil {
					// a call of a retry helper of the analysed code: the
					// prefilters see the helper by its fact's name or
					// by its own loop, not by a library table
					continue
				}
				calls.Add(1)
				name := prefilter.CallName(n)
				if lib == nil || !lib(name) {
					t.Errorf("%s: LibraryCalls rules out the library call %s", where, s.Entry)
				}
				if !lex.Calls[name] {
					t.Errorf("%s: the lexicon lacks the library call %s", where, name)
				}
			}
		}
	})
	if loops.Load() < 20 || ownLoops.Load() < 20 || calls.Load() < 20 || delays.Load() < 3 || waiters.Load() < 3 {
		t.Errorf("vacuous: %d waiting loops (%d with a wait of their own), %d library calls, %d delay functions, %d wait helpers", loops.Load(),
			ownLoops.Load(), calls.Load(), delays.Load(), waiters.Load())
	}
	t.Logf("%d waiting loops (%d with a wait of their own), %d library calls, %d delay functions, %d wait helpers checked", loops.Load(),
		ownLoops.Load(), calls.Load(), delays.Load(), waiters.Load())
}

// depWaiters returns the names of the functions and methods of pkg's
// imports that wait when called (Result.Waits: their wait facts).
func depWaiters(pkg *types.Package, res *retryscope.Result) map[string]bool {
	names := make(map[string]bool)
	for _, imp := range pkg.Imports() {
		scope := imp.Scope()
		for _, name := range scope.Names() {
			switch o := scope.Lookup(name).(type) {
			case *types.Func:
				if res.Waits(o) {
					names[o.Name()] = true
				}
			case *types.TypeName:
				if n, ok := o.Type().(*types.Named); ok {
					for m := range n.Methods() {
						if res.Waits(m) {
							names[m.Name()] = true
						}
					}
				}
			}
		}
	}
	return names
}

// TestMayReturnDuration checks the text test of a delay function's file on
// the signatures it must accept and the declarations it need not.
func TestMayReturnDuration(t *testing.T) {
	accept := []string{
		"func F() time.Duration {",
		"func F(n int) (d time.Duration) {",
		"func (b *B) F() time.Duration /* why */ {",
		"func F[T any](x T) t.Duration\t{",
		"func F() time.Duration { return time.Second }",
		"x := durationpb.Duration{Seconds: 1}", // a literal: more than needed
	}
	reject := []string{
		"func F() (time.Duration, error) {",
		"type T struct{ D time.Duration }",
		"var d time.Duration = 3",
		"func F(d time.Duration) error {",
		"func F() time.Duration /* unterminated {",
	}
	for _, src := range accept {
		if !retryscope.MayReturnDuration([]byte(src)) {
			t.Errorf("%q ruled out", src)
		}
	}
	for _, src := range reject {
		if retryscope.MayReturnDuration([]byte(src)) {
			t.Errorf("%q kept", src)
		}
	}
}

// TestLoopFilter checks the loops LoopFilter rules out, none of which the
// model takes for a retry that waits: it is what lets a driver skip most
// dependencies.
func TestLoopFilter(t *testing.T) {
	const src = `package p

import "time"

func op() error { return nil }
func next() (int, error) { return 0, nil }
type Delay int

func f(items []int, rows interface{ Next() bool; Scan() error }) error {
	for _, it := range items { // a range with a value variable
		if op() == nil { time.Sleep(time.Duration(it)) }
	}
	for rows.Next() { // an exit on every error
		err := rows.Scan()
		if err != nil {
			return err
		}
		time.Sleep(time.Second)
	}
	for i := 0; i < 3; i++ { // the same, in the if's init
		if _, err := next(); err != nil {
			return err
		}
		time.Sleep(time.Second)
	}
	for { // no comparison with nil
		op()
		time.Sleep(time.Second)
	}
	for i := 0; i < 3; i++ { // no wait: a conversion is no call of a function
		if err := op(); err == nil {
			return nil
		}
		_ = Delay(i)
	}
	for { // builtins and conversions are no attempts
		m := make(map[int]int)
		b := []byte("x")
		if m == nil || b == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return nil
}
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	lf := retryscope.NewLoopFilter([]*ast.File{f}, nil)
	n := 0
	ast.Inspect(f, func(node ast.Node) bool {
		switch l := node.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			n++
			if lf.MayWait(l.(ast.Stmt)) {
				t.Errorf("loop %d: MayWait = true, want false", n)
			}
		}
		return true
	})
	if n != 6 {
		t.Fatalf("%d loops, want 6", n)
	}
}

// TestMayJumpBack holds MayJumpBack to its look-alikes: a method that
// delegates to another's of its name, and a recursion whose only blocking
// word is its own name (syscall wrappers: Setrlimit, Waitid), have no wait
// of their own and are no retries; a recursion after a sleep, one after a
// wait helper of the package, a goto after a timer and a rescheduling are.
func TestMayJumpBack(t *testing.T) {
	src := `package p

import "time"

type T struct{ inner *T }
type Limits struct{}

func send() error { return nil }

func pause(d time.Duration) { time.Sleep(d) }

func (t *T) String() string { return t.inner.String() }

func Setrlimit(n int) error { return (&Limits{}).Setrlimit(n) }

func (l *Limits) Setrlimit(n int) error { return nil }

func Waitid(n int) error { return Waitid(n - 1) }

func retry(n int) error {
	if err := send(); err != nil && n > 0 {
		time.Sleep(time.Second)
		return retry(n - 1)
	}
	return nil
}

func retryHelper(n int) error {
	if err := send(); err != nil && n > 0 {
		pause(time.Second)
		return retryHelper(n - 1)
	}
	return nil
}

func retryGoto() error {
	n := 0
again:
	if err := send(); err != nil && n < 3 {
		n++
		<-time.After(time.Second)
		goto again
	}
	return nil
}

func (t *T) attempt() {
	if err := send(); err != nil {
		time.AfterFunc(time.Second, t.attempt)
	}
}
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	lf := retryscope.NewLoopFilter([]*ast.File{f}, nil)
	want := map[string]bool{"String": false, "Setrlimit": false, "Waitid": false, "retry": true, "retryHelper": true,
		"retryGoto": true, "attempt": true, "send": false, "pause": false}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		if got, w := lf.MayJumpBack(fd), want[fd.Name.Name]; got != w {
			t.Errorf("MayJumpBack(%s) = %v, want %v", fd.Name.Name, got, w)
		}
	}
}
