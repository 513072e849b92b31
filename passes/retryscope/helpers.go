package retryscope

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/internal/prefilter"
	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/names"
)

// A retry helper is a function of the analysed code that retries one of
// its func parameters in a loop: retrykit.Do(ctx, func() error {...}), the
// most common retry in real services. A call of it is a LibraryCall scope
// whose body is the operation passed (a func literal, or a function of the
// package), with the helper loop's cap, deadline and waits. Helpers of the
// same package are read directly; exported helpers of other packages
// through helperFact.

// helper describes a retry helper's loop.
type helper struct {
	op       int // index of the operation among the call's arguments
	ctx      int // index of the context parameter the loop stops on, or -1
	cap      Cap
	deadline DeadlineKind
	waits    []WaitKind
	// wrapper is set on a helper that retries through another retry (a
	// library or helper call) rather than a loop of its own: see
	// Result.WrapperCalls.
	wrapper bool
	// capGate and stop, for a helper of this package: the parameter field
	// its cap requires positive, and the one holding the stop channel its
	// deadline comes from (argfields.go).
	capGate, stop *paramField
}

// helperFact is exported on an exported function or method that retries
// one of its func parameters.
type helperFact struct {
	Op       int
	Ctx      int
	Cap      CapKind
	N        int
	Deadline DeadlineKind
	Waits    []WaitKind
	Wrapper  bool
}

func (*helperFact) AFact() {}

// delayFact is exported on an exported function or method of one
// time.Duration result (a delay calculator: backoff.Duration(n)): the kind
// of what it returns with its parameters fixed, and which parameters its
// body reads (a caller's attempt counter passed there makes it grow).
type delayFact struct {
	Kind   WaitKind
	Params []bool
	// Fields, on a method whose randomness is added only when its
	// receiver sets one of these fields (if b.Jitter > 0 {...}), and Zero,
	// what it returns when none is set.
	Fields []string
	Zero   WaitKind
}

func (*delayFact) AFact() {}

func (f *delayFact) String() string {
	if len(f.Fields) > 0 {
		return fmt.Sprintf("delay %s, params %v, %s unless %v is set", f.Kind, f.Params, f.Zero, f.Fields)
	}
	return fmt.Sprintf("delay %s, params %v", f.Kind, f.Params)
}

func (f *helperFact) String() string {
	var waits []string
	for _, w := range f.Waits {
		waits = append(waits, w.String())
	}
	c := f.Cap.String()
	if f.Cap == CapKnown {
		c = fmt.Sprint(f.N)
	}
	through := ""
	if f.Wrapper {
		through = " through another retry"
	}
	return fmt.Sprintf("retries argument %d%s: cap=%s deadline=%s waits=%s", f.Op, through, c, f.Deadline, strings.Join(waits, ","))
}

// capWeakness orders the loops of one helper function by how little
// bounds them, the least bounded last: a helper with two loops (nats.go's
// retryWithBackoff: a range over the caller's custom intervals, else a
// loop capped by a count the caller may leave untaken) retries as its
// least bounded loop does, so that is the helper's.
func capWeakness(h *helper) int {
	switch {
	case h.cap.Kind == CapNone:
		return 5
	case h.capGate != nil:
		return 4
	case h.cap.Kind == CapBounded:
		return 3
	case h.cap.Kind == CapKnown:
		return 2
	}
	return 1 // unknown: checks stay silent
}

// helperCandidate is a call that may be a call of a retry helper: it
// passes a func value, and no library entry point took it.
type helperCandidate struct {
	di   *defIndex
	fn   ast.Node
	call *ast.CallExpr
}

// helpers finds the retry helpers of the package among its loop scopes,
// exports their facts, and adds a scope for every call of a helper (of
// this package, or of another through its fact).
func (m *model) helpers(cands []helperCandidate) {
	own := make(map[*types.Func]*helper)
	loopOf := make(map[*types.Func]*Scope) // the helper's loop, of the function's loops the least bounded
	var fns []*types.Func
	for _, s := range m.res.scopes {
		if s.Kind != Loop {
			continue
		}
		fd, ok := s.Func.(*ast.FuncDecl)
		if !ok || s.NotFor {
			continue // not a for loop: the prefilter does not look for these
		}
		fn, ok := m.info.Defs[fd.Name].(*types.Func)
		if !ok {
			continue
		}
		h := m.helperOf(fn, s)
		if h == nil {
			continue
		}
		if old := own[fn]; old == nil {
			fns = append(fns, fn)
		} else if capWeakness(h) <= capWeakness(old) {
			continue
		}
		own[fn], loopOf[fn] = h, s
	}
	var lf *LoopFilter
	for _, fn := range fns {
		h, s := own[fn], loopOf[fn]
		fd := s.Func.(*ast.FuncDecl)
		if !exportsHelpers(m.pass.Pkg.Path(), m.fileName()) || !ast.IsExported(fd.Name.Name) {
			continue
		}
		if lf == nil {
			lf = NewLoopFilter(m.pass.Files, m.depWaiters())
		}
		if !lf.MayOwnWait(s.Node.(ast.Stmt)) {
			continue // the prefilter could not have seen it: keep them in step
		}
		m.pass.ExportObjectFact(fn, &helperFact{Op: h.op, Ctx: h.ctx, Cap: h.cap.Kind, N: h.cap.N, Deadline: h.deadline, Waits: h.waits})
	}
	// A function that hands one of its func parameters to a retry (a
	// library call or a helper call of its own body) is a helper too:
	// go-containerregistry's retry.Retry(f, p, backoff) passes a closure
	// calling f to its vendored wait.ExponentialBackoff, and gcrane's
	// backoffErrors(bo, f) passes f to retry.Retry. The calls of a new
	// helper may make more, so the candidates are read again until none
	// is taken.
	ops := make(map[*Scope]int) // each retry's operation argument
	var check []*Scope
	for _, s := range m.res.scopes {
		if s.Kind == LibraryCall && s.Helper == nil {
			ops[s] = s.OpArg
			check = append(check, s)
		}
	}
	for pending := cands; ; {
		for _, s := range check {
			fn, h := m.wrapperOf(s, ops[s])
			if h == nil || own[fn] != nil {
				continue
			}
			own[fn] = h
			if exportsHelpers(m.pass.Pkg.Path(), m.fileName()) && fn.Exported() {
				m.pass.ExportObjectFact(fn, &helperFact{Op: h.op, Ctx: h.ctx, Cap: h.cap.Kind, N: h.cap.N, Deadline: h.deadline, Waits: h.waits, Wrapper: true})
			}
		}
		check = nil
		var rest []helperCandidate
		for _, c := range pending {
			callee := m.callee(c.call)
			if callee == nil || callee.Pkg() == nil {
				continue
			}
			h := own[callee]
			if h == nil && callee.Pkg() != m.pass.Pkg {
				var f helperFact
				if m.pass.ImportObjectFact(callee, &f) {
					h = &helper{op: f.Op, ctx: f.Ctx, cap: Cap{Kind: f.Cap, N: f.N}, deadline: f.Deadline, waits: f.Waits, wrapper: f.Wrapper}
				}
			}
			if h == nil || h.op >= len(c.call.Args) || c.call.Ellipsis.IsValid() {
				rest = append(rest, c)
				continue
			}
			s := m.helperCall(c, callee, h)
			if m.res.byNode[s.Node] != nil || m.res.wrapped[s.Node] != nil {
				continue
			}
			if h.wrapper {
				m.res.addWrapped(s)
			} else {
				m.res.add(s)
			}
			ops[s] = h.op
			check = append(check, s)
		}
		if len(check) == 0 {
			return
		}
		pending = rest
	}
}

// wrapperOf returns the helper that retry s (a library call, or a helper
// call) makes of the function declaring it, when the operation it retries
// is one of the function's func parameters: the parameter itself
// (retry.Retry(f, p, bo)), or a closure that calls it for its error
// (condition := func() (bool, error) { err = f(); ... }). The call must
// be in the function's own body, not in a closure of it.
func (m *model) wrapperOf(s *Scope, opArg int) (*types.Func, *helper) {
	fd, ok := s.Func.(*ast.FuncDecl)
	call, ok2 := s.Node.(*ast.CallExpr)
	if !ok || !ok2 || opArg < 0 || opArg >= len(call.Args) {
		return nil, nil
	}
	fn, ok := m.info.Defs[fd.Name].(*types.Func)
	if !ok {
		return nil, nil
	}
	params := fn.Signature().Params()
	param := func(e ast.Expr) int {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return -1
		}
		for i := range params.Len() {
			if m.info.Uses[id] == params.At(i) {
				if _, ok := params.At(i).Type().Underlying().(*types.Signature); ok {
					return i
				}
			}
		}
		return -1
	}
	op := param(call.Args[opArg])
	if op < 0 && s.Body != nil && fd.Body.Pos() <= s.Body.Pos() && s.Body.End() <= fd.Body.End() {
		ast.Inspect(s.Body, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && op < 0 && returnsError(m.info, c) {
				op = param(c.Fun)
			}
			return op < 0
		})
	}
	if op < 0 || fn.Signature().Variadic() && op == params.Len()-1 {
		return nil, nil
	}
	h := scopeHelper(s, op, params)
	h.cap, h.wrapper = Cap{Kind: s.Cap.Kind, N: s.Cap.N}, true
	return fn, h
}

// delays exports a delayFact for every exported function of the package
// whose one result is declared time.Duration and whose kind is known.
func (m *model) delays() {
	if !exportsHelpers(m.pass.Pkg.Path(), m.fileName()) {
		return
	}
	for _, f := range m.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !returnsDuration(f, fd) {
				continue
			}
			fn, ok := m.info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			c := &classifier{m: m, di: m.defIndex(fd), seen: map[types.Object]bool{}}
			k := c.returns(fd.Body, 0)
			if k == WaitUnknown {
				continue
			}
			params := fn.Signature().Params()
			deps := make([]bool, params.Len())
			for i := range params.Len() {
				p := params.At(i)
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok && m.info.Uses[id] == p {
						deps[i] = true
					}
					return !deps[i]
				})
			}
			f := &delayFact{Kind: k, Params: deps}
			if k == WaitJittered {
				if ifs, fields := m.fieldGuards(fd); len(ifs) > 0 {
					c0 := &classifier{m: m, di: m.defIndex(fd), seen: map[types.Object]bool{}, untaken: ifs}
					if k0 := c0.returns(fd.Body, 0); k0 != WaitJittered && k0 != WaitUnknown {
						f.Fields, f.Zero = fields, k0
					}
				}
			}
			m.pass.ExportObjectFact(fn, f)
		}
	}
}

// returnsDuration reports, from syntax alone (as the prefilter sees it),
// whether fd is exported and declares one result of type time.Duration.
func returnsDuration(f *ast.File, fd *ast.FuncDecl) bool {
	if !ast.IsExported(fd.Name.Name) || fd.Type.Results == nil || len(fd.Type.Results.List) != 1 || len(fd.Type.Results.List[0].Names) > 1 {
		return false
	}
	sel, ok := fd.Type.Results.List[0].Type.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Duration" {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	for _, imp := range f.Imports {
		if imp.Path.Value != `"time"` {
			continue
		}
		name := "time"
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if name == x.Name {
			return true
		}
	}
	return false
}

// mayReturnDuration reports, from a file's text, whether it may declare a
// function that returnsDuration accepts: a word Duration followed, past
// blanks and /* */ comments, by a brace, or by a parenthesis and then a
// brace (one named result). A line comment or a line break cannot stand
// there: the line would end with a semicolon before the body.
func mayReturnDuration(src []byte) bool {
	const word = "Duration"
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte(word))
		if j < 0 {
			return false
		}
		i += j + len(word)
		k := skipBlanks(src, i)
		if k < len(src) && src[k] == ')' {
			k = skipBlanks(src, k+1)
		}
		if k < len(src) && src[k] == '{' {
			return true
		}
	}
}

// skipBlanks returns the index of the first byte of src at or after i that
// is not a space, a tab or part of a /* */ comment.
func skipBlanks(src []byte, i int) int {
	for i < len(src) {
		switch {
		case src[i] == ' ' || src[i] == '\t':
			i++
		case bytes.HasPrefix(src[i:], []byte("/*")):
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				return len(src)
			}
			i += 2 + end + 2
		default:
			return i
		}
	}
	return i
}

// helperOf returns the helper that loop scope s makes of fn, when the loop
// calls one of fn's func parameters (the attempt) and waits.
func (m *model) helperOf(fn *types.Func, s *Scope) *helper {
	if !ownWait(s.Waits) {
		return nil
	}
	sig := fn.Signature()
	if sig.Variadic() {
		return nil
	}
	params := sig.Params()
	op := -1
	ast.Inspect(s.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || op >= 0 {
			return op < 0
		}
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		if !ok || !returnsError(m.info, call) {
			return true
		}
		for i := range params.Len() {
			if m.info.Uses[id] == params.At(i) {
				op = i
			}
		}
		return true
	})
	if op < 0 {
		return nil
	}
	h := scopeHelper(s, op, params)
	h.cap, h.capGate, h.stop = s.Cap, s.capGate, s.Deadline.stop
	return h
}

// scopeHelper returns the helper that retry scope s makes of the function
// with params whose op'th parameter is the operation: the scope's deadline
// and waits, and the context parameter when the caller's context bounds it.
func scopeHelper(s *Scope, op int, params *types.Tuple) *helper {
	h := &helper{op: op, ctx: -1, deadline: s.Deadline.Kind}
	if h.deadline == DeadlineCaller {
		for i := range params.Len() {
			if isContext(params.At(i).Type()) {
				h.ctx = i
				break
			}
		}
	}
	for _, w := range s.Waits {
		h.waits = append(h.waits, w.Kind)
	}
	return h
}

// helperCall is the scope of a call of retry helper callee.
func (m *model) helperCall(c helperCandidate, callee *types.Func, h *helper) *Scope {
	call := c.call
	s := &Scope{Kind: LibraryCall, Node: call, Func: c.fn, Pos: call.Fun.Pos(), Library: callee.Pkg().Path(),
		Entry: stripTypeParams(callee.FullName()), Name: names.In(callee, m.pass.Pkg), Trigger: TriggerUnknown, Helper: callee}
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
		s.Pos = sel.Sel.Pos()
	}
	s.Cap = Cap{Kind: h.cap.Kind, N: h.cap.N, Pos: s.Pos}
	s.Deadline = Deadline{Kind: h.deadline, Pos: s.Pos}
	if h.deadline == DeadlineCaller && h.ctx >= 0 && h.ctx < len(call.Args) {
		s.Deadline = Deadline{Kind: m.ctxArgKind(c.di, call.Args[h.ctx]), Pos: call.Args[h.ctx].Pos()}
	}
	if g := h.capGate; g != nil && g.param < len(call.Args) {
		if v := m.argField(c.di, call.Args[g.param], g.field); v != nil && m.nonPositive(v) {
			s.Cap, s.CapArg = Cap{Kind: CapNone, Pos: v.Pos()}, v
		}
	}
	if st := h.stop; st != nil && h.deadline == DeadlineCaller && st.param < len(call.Args) {
		// cancel: c.subscription.done: a signal of the package's own
		if v := m.argField(c.di, call.Args[st.param], st.field); v != nil && stopSignal(m.info.TypeOf(v)) {
			if _, ok := ast.Unparen(v).(*ast.SelectorExpr); ok {
				s.Deadline = Deadline{Kind: DeadlineNone, Pos: v.Pos()}
			}
		}
	}
	for _, k := range h.waits {
		s.Waits = append(s.Waits, Wait{Kind: k, Pos: s.Pos, Node: call, Library: true, Setting: s.Name})
	}
	s.Body, s.Op = m.opBody(c.di, call.Args[h.op], call.Pos())
	return s
}

// mayHelp reports whether call passes a func value: it may call a retry
// helper.
func (m *model) mayHelp(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if t := m.info.TypeOf(a); t != nil {
			if _, ok := t.Underlying().(*types.Signature); ok {
				return true
			}
		}
	}
	return false
}

func (m *model) fileName() string {
	if len(m.pass.Files) == 0 {
		return ""
	}
	return m.pass.Fset.File(m.pass.Files[0].Pos()).Name()
}

// exportsHelpers reports whether a package, by its path and the name of
// one of its files, may export helper facts: every package but the
// standard library's.
func exportsHelpers(path, file string) bool {
	return !IsStd(path, file)
}

// IsStd reports whether the package of path, one of whose files is named
// file, is in the standard library: its first path element has no dot and
// the file is under GOROOT/src.
func IsStd(path, file string) bool {
	if i := strings.IndexByte(path, '/'); i >= 0 {
		path = path[:i]
	}
	if strings.Contains(path, ".") {
		return false
	}
	root := goroot()
	return root != "" && strings.HasPrefix(file, filepath.Join(root, "src")+string(filepath.Separator))
}

func goroot() string {
	if g := os.Getenv("GOROOT"); g != "" {
		return g
	}
	return build.Default.GOROOT
}

// mayExportHelpers is the prefilter of the model's facts: a package can
// export a fact only when it is not the standard library's and an exported
// function of it has a loop that LoopFilter.MayOwnWait accepts (a helper) or
// declares one time.Duration result (a delay function), or it calls a
// method by the name of a message ack and depends on its broker client (a
// consumer helper: mayAck).
//
// A wrapper (a function handing its func parameter to another retry: see
// Result.WrapperCalls) needs a call of a retry library or of a function
// with a fact, by name: with either in the lexicon, the package is kept.
func (cfg *Config) mayExportHelpers(p *prefilter.Package) bool {
	if len(p.Files) > 0 && !exportsHelpers(p.Path, p.Files[0]) {
		return false
	}
	lex, err := p.Lexicon()
	if err != nil || mayAck(p, lex) {
		return true // a consumer helper acks
	}
	if mayExportWaits(p, lex) {
		return true // a wait helper
	}
	if !LexiconMayOwnWait(lex) && !LexiconCallsWaiter(p, lex) {
		srcs, err := p.Source()
		if err != nil {
			return true
		}
		// No loop may wait (LexiconMayOwnWait is necessary for MayOwnWait): only
		// a delay function, in a file that imports time and names Duration
		// (returnsDuration), may have a fact.
		fset := token.NewFileSet()
		for i, src := range srcs {
			if !bytes.Contains(src, []byte(`"time"`)) || !mayReturnDuration(src) {
				continue
			}
			f, err := parser.ParseFile(fset, p.Files[i], src, parser.SkipObjectResolution)
			if err != nil {
				return true
			}
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && returnsDuration(f, fd) {
					return true // a delay function
				}
			}
		}
		return mayWrap(cfg, p, lex)
	}
	files, err := p.Syntax()
	if err != nil {
		return true
	}
	lf := LoopFilterOf(p, files)
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue // any function: an exported wrapper may call it
			}
			if returnsDuration(f, fd) {
				return true // a delay function
			}
			if astq.Find(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.ForStmt, *ast.RangeStmt:
					return lf.MayOwnWait(n.(ast.Stmt))
				}
				return false
			}) {
				return true
			}
		}
	}
	return mayWrap(cfg, p, lex)
}

// LayerFacts are the model's facts whose call may make a retry layer: a
// retry helper's (helperFact) and a consumer helper's (consumerHelperFact)
// make a scope (scopeFacts), and a wait helper's (waitFact) may make a
// loop one that waits, in a package whose own tokens name no wait
// (LexiconMayWait cannot see it). A delay function's (delayFact) only
// classifies a wait. A prefilter that looks for calls that may make a
// layer asks FactNames for these.
func LayerFacts() []analysis.Fact { return append(scopeFacts(), new(waitFact)) }

// scopeFacts are the model's facts whose call makes a scope.
func scopeFacts() []analysis.Fact { return []analysis.Fact{new(helperFact), new(consumerHelperFact)} }

// mayWrap reports whether the package may hold a retry wrapper: a call,
// by name, of a retry library entry point or of a function on which a
// dependency has a fact (a helper's). A helper of its own that an
// exported function wraps is a loop that may wait, which the caller looks
// for in every function.
func mayWrap(cfg *Config, p *prefilter.Package, lex *prefilter.Lexicon) bool {
	lib := cfg.libraryCalls(p.Imports, p.DependsOn, true)
	names, _ := p.FactNames(scopeFacts()...) // the model has no package fact
	for name := range lex.Calls {
		if lib != nil && lib(name) || names[name] {
			return true
		}
	}
	return false
}
