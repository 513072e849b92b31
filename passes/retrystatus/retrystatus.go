package retrystatus

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/internal/suppress"
	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/check"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// Name is the check's name.
const Name = "retrystatus"

// Config configures the check: the retry model to read.
type Config = check.Config

// Analyzer is the check with the default configuration; New returns the
// check for a Config.
var Analyzer, New = check.Define(Documentation, run)

// The messages' fixes, short; the docs give the why (the answer to a
// permanent status will not change; the server said how long to wait).
const (
	fixText  = "retry only 408, 429, 502, 503 and 504, as retry.Classify does"
	fix429   = "honour it with retry.ParseRetryAfter or retry.ResponseError"
	fixAll   = "retry only 408, 429, 502, 503 and 504 instead"
	allError = "every status >= 400"
)

type checker struct {
	pass      *analysis.Pass
	info      *types.Info
	res       *retryscope.Result
	summaries map[sumKey]*summary  // the package's helpers, per status (summary.go)
	inert     map[*types.Func]bool // the package's functions that change nothing (walk.go's closer)
	// changedVars are the package-level variables the package changes.
	changedVars map[types.Object]bool
	// sets caches statusSet, which the walker asks for every status.
	sets map[setKey]setResult
}

func run(pass *analysis.Pass, res *retryscope.Result) {
	c := &checker{pass: pass, info: pass.TypesInfo, res: res, summaries: map[sumKey]*summary{}, inert: map[*types.Func]bool{}, sets: map[setKey]setResult{}}
	if grpcRelevant(pass.Pkg) {
		c.grpcSettings(res)
		c.grpcLoops(res)
		for _, f := range pass.Files {
			if ast.IsGenerated(f) {
				continue
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					c.grpcLibraryCall(call)
				}
				return true
			})
		}
	}
	if !relevant(pass.Pkg) {
		return
	}
	for _, f := range pass.Files {
		if ast.IsGenerated(f) {
			continue
		}
		c.loops(f, res)
		c.libraries(f)
	}
	for _, s := range res.Scopes() {
		if s.Kind == retryscope.LibraryCall && s.Body != nil && !suppress.GeneratedAt(pass, s.Pos) {
			c.operation(s)
		}
	}
}

// loops checks the retry loops of f: those of the retry model, and loops
// that the model leaves out because they retry on statuses only (they
// return on a transport error): a for loop, or a range over an integer,
// that leaves on some 2xx status and repeats on others.
func (c *checker) loops(f *ast.File, res *retryscope.Result) {
	var funcs []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			funcs = append(funcs, n)
			_, body := astq.Func(n)
			ast.Inspect(body, func(m ast.Node) bool {
				if m == body {
					return true
				}
				switch m := m.(type) {
				case *ast.FuncLit:
					return false // visited on its own
				case *ast.ForStmt:
					c.loop(n, m, m.Body, res.Of(m))
				case *ast.RangeStmt:
					// a range over a number, or over an attempt iterator
					// (the model's)
					if t, ok := c.info.Types[m.X]; ok && isInteger(t.Type) || res.Of(m) != nil {
						c.loop(n, m, m.Body, res.Of(m))
					}
				}
				return true
			})
		}
		return true
	})
}

func relevant(pkg *types.Package) bool {
	for _, p := range pkg.Imports() {
		if path := p.Path(); path == "net/http" || retryscope.DecidesOnErrors(path) {
			return true
		}
	}
	return false
}

// loop checks a loop; scope is the retry model's, when it found it a
// retry.
func (c *checker) loop(fn ast.Node, loop ast.Stmt, body *ast.BlockStmt, scope *retryscope.Scope) {
	if body == nil || len(body.List) == 0 {
		return
	}
	modelled := scope != nil
	u := c.newUnit(body)
	if len(u.holders) == 0 && !c.attemptCalls(u, body) {
		return
	}
	if c.indexesByCounter(loop) || c.requestVaries(loop, u) || !modelled && c.receivesItems(body) {
		return // a loop over items, or a request that changes with the counter
	}
	u.label = labelOf(fn, loop)
	u.sources = c.sources(fn, u)
	w := &walker{u: u, retried: map[guardRef]set{}, scope: scope}
	var st state
	if f, ok := loop.(*ast.ForStmt); ok {
		w.loopCond = f.Cond
		// for !done: done is false in the body, until the path sets it.
		if f.Cond != nil {
			x, v := ast.Unparen(f.Cond), true
			if n, ok := x.(*ast.UnaryExpr); ok && n.Op == token.NOT {
				x, v = ast.Unparen(n.X), false
			}
			if o, ok := c.objOf(x).(*types.Var); ok && isBool(o.Type()) && o.Parent() != nil && o.Parent() != o.Pkg().Scope() {
				st = st.withFlag(o, v, true)
			}
		}
	}
	w.stmts(body.List, st, nil, w.retry)
	if w.aborted {
		return
	}
	if !modelled {
		var ok set
		for code := 200; code < 300; code++ {
			ok.add(code)
		}
		if w.exits.and(ok).empty() {
			return // never leaves on success: not a retry
		}
	}
	decl := c.res.DeclAt(loop.Pos())
	keyed := c.keyed(decl)
	readsRetryAfter := c.readsRetryAfter(decl, u)
	for _, g := range w.order {
		c.report(g, w.retried[g], "retry loop retries", keyed, !readsRetryAfter)
	}
}

// assigned indexes the assignment statements in n (the model's def rule,
// retryscope.EachDef: each result of a multi-value call is that call):
// each variable's right-hand sides, and those of the variables that hold
// u's responses.
func (c *checker) assigned(n ast.Node, u *unit) (map[types.Object][]ast.Expr, []ast.Expr) {
	defs := map[types.Object][]ast.Expr{}
	var held []ast.Expr
	ast.Inspect(n, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		retryscope.EachDef(as, func(lhs ast.Expr, d retryscope.Def) {
			if o := c.objOf(lhs); o != nil && d.RHS() != nil {
				defs[o] = append(defs[o], d.RHS())
				if u.holders[o] {
					held = append(held, d.RHS())
				}
			}
		})
		return true
	})
	return defs, held
}

// sources returns the variables of fn the responses of u are made from,
// directly or through other variables.
func (c *checker) sources(fn ast.Node, u *unit) map[types.Object]bool {
	defs, roots := c.assigned(fn, u)
	out := map[types.Object]bool{}
	var visit func(e ast.Expr, depth int)
	visit = func(e ast.Expr, depth int) {
		ast.Inspect(e, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			o, ok := c.info.Uses[id].(*types.Var)
			if !ok || out[o] {
				return true
			}
			out[o] = true
			if depth < 4 {
				for _, d := range defs[o] {
					visit(d, depth+1)
				}
			}
			return true
		})
	}
	for _, r := range roots {
		visit(r, 0)
	}
	return out
}

// requestVaries reports whether the call that gets a response takes the
// loop's counter, directly or through variables assigned in the loop:
// http.Get(fmt.Sprintf(url, page)) asks for something new each time.
func (c *checker) requestVaries(loop ast.Stmt, u *unit) bool {
	counters := c.counters(loop)
	if len(counters) == 0 {
		return false
	}
	body := astq.LoopBody(loop)
	defs, sources := c.assigned(body, u)
	seen := map[types.Object]bool{}
	found := false
	var visit func(e ast.Expr, depth int)
	visit = func(e ast.Expr, depth int) {
		ast.Inspect(e, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || found {
				return !found
			}
			o := c.info.Uses[id]
			if counters[o] {
				found = true
			} else if o != nil && !seen[o] && depth < 4 {
				seen[o] = true
				for _, d := range defs[o] {
					visit(d, depth+1)
				}
			}
			return !found
		})
	}
	for _, src := range sources {
		visit(src, 0)
	}
	return found
}

// receivesItems reports whether body takes values from a channel (for
// object := range objectsCh, or v := <-ch) of something other than a
// signal (struct{}, a time): each pass works on new items, as minio-go's
// removeObjects sends a new batch per pass. It is asked only of loops the
// retry model does not find a retry.
func (c *checker) receivesItems(body *ast.BlockStmt) bool {
	items := func(e ast.Expr) bool {
		t := c.info.TypeOf(e)
		if t == nil {
			return false
		}
		ch, ok := t.Underlying().(*types.Chan)
		if !ok {
			return false
		}
		switch el := ch.Elem().Underlying().(type) {
		case *types.Struct:
			if el.NumFields() == 0 {
				return false
			}
		}
		if n, ok := types.Unalias(ch.Elem()).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" {
			return false
		}
		return true
	}
	return astq.Find(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.RangeStmt:
			return items(n.X)
		case *ast.AssignStmt:
			for _, r := range n.Rhs {
				if u, ok := ast.Unparen(r).(*ast.UnaryExpr); ok && u.Op == token.ARROW && items(u.X) {
					return true
				}
			}
		}
		return false
	})
}

// indexesByCounter reports whether a loop indexes something with its
// counter (the variable its post statement steps, or a range key).
func (c *checker) indexesByCounter(loop ast.Stmt) bool {
	counters := c.counters(loop)
	found := false
	ast.Inspect(astq.LoopBody(loop), func(n ast.Node) bool {
		if ix, ok := n.(*ast.IndexExpr); ok && counters[c.objOf(ix.Index)] {
			found = true
		}
		return !found
	})
	return found
}

// counters returns the variables a loop steps: those its post statement
// assigns, or its range key.
func (c *checker) counters(loop ast.Stmt) map[types.Object]bool {
	counters := map[types.Object]bool{}
	switch l := loop.(type) {
	case *ast.ForStmt:
		if l.Post != nil {
			ast.Inspect(l.Post, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.IncDecStmt:
					counters[c.objOf(n.X)] = true
				case *ast.AssignStmt:
					for _, lhs := range n.Lhs {
						counters[c.objOf(lhs)] = true
					}
				}
				return true
			})
		}
	case *ast.RangeStmt:
		if l.Key != nil {
			counters[c.objOf(l.Key)] = true
		}
	}
	delete(counters, nil)
	return counters
}

// report reports the statuses a guard retries that it should not.
func (c *checker) report(g guardRef, retried set, what string, keyed, check429 bool) {
	var msgs []string
	if bad := retried.and(permanent(keyed)); !bad.empty() {
		msgs = append(msgs, what+" "+describe(bad, keyed)+"; "+fixText)
	}
	if check429 && retried.has(429) {
		msgs = append(msgs, what+" 429 without reading Retry-After; "+fix429)
	}
	for _, m := range msgs {
		suppress.Report(c.pass, Name, analysis.Diagnostic{Pos: g.pos, End: g.end, Message: m})
	}
}

// libraries checks the retry conditions given to retry libraries in f.
func (c *checker) libraries(f *ast.File) {
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			c.libraryCall(n)
		case *ast.AssignStmt:
			// client.CheckRetry = func(...) (bool, error) {...}
			for i, lhs := range n.Lhs {
				sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
				if ok && len(n.Lhs) == len(n.Rhs) && c.predicateField(sel.Sel) {
					c.predicate(n.Rhs[i], n.Pos(), "CheckRetry policy retries", false)
				}
			}
		case *ast.CompositeLit:
			for _, elt := range n.Elts {
				kv, ok := elt.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				if key, ok := kv.Key.(*ast.Ident); ok && c.predicateField(key) {
					c.predicate(kv.Value, n.Pos(), "CheckRetry policy retries", false)
				}
			}
		}
		return true
	})
}

// predicateField reports whether id is a field that holds a retry
// predicate (retryablehttp's Client.CheckRetry).
func (c *checker) predicateField(id *ast.Ident) bool {
	v, ok := c.info.Uses[id].(*types.Var)
	return ok && retryscope.PredicateField(v)
}

func (c *checker) libraryCall(call *ast.CallExpr) {
	fn := astq.Callee(c.info, call)
	if fn == nil || fn.Pkg() == nil {
		return
	}
	if retryscope.OwnLibrary(c.pass.Pkg.Path()) {
		return // the library's own calls of its options
	}
	if p, ok := retryscope.PredicateOption(fn); ok {
		for _, a := range call.Args {
			c.predicate(a, call.Pos(), p.Text+" retries", p.OnError)
		}
	}
	if retryscope.RetryAllOption(fn) {
		sel, _ := call.Fun.(*ast.SelectorExpr)
		pos := call.Pos()
		if sel != nil {
			pos = sel.Sel.Pos()
		}
		suppress.Report(c.pass, Name, analysis.Diagnostic{Pos: pos, End: call.End(),
			Message: fn.Name() + " retries " + allError + "; " + fixAll})
	}
}

// predicate checks a retry predicate: a function literal, or a function of
// the package, whose first boolean result says whether to retry.
func (c *checker) predicate(e ast.Expr, at token.Pos, what string, errArg bool) {
	var ft *ast.FuncType
	var body *ast.BlockStmt
	switch f := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		ft, body = f.Type, f.Body
	case *ast.Ident, *ast.SelectorExpr:
		id := astq.NameIdent(f)
		fn, ok := c.info.Uses[id].(*types.Func)
		if !ok {
			return
		}
		d := c.funcDecl(fn)
		if d == nil || d.Body == nil {
			return
		}
		ft, body = d.Type, d.Body
	default:
		return
	}
	if ft.Results == nil || len(ft.Results.List) == 0 {
		return
	}
	u := c.newUnit(body)
	var holder, errParam types.Object
	for _, field := range ft.Params.List {
		for _, n := range field.Names {
			o := c.info.Defs[n]
			if o == nil {
				continue
			}
			if isError(o.Type()) && errParam == nil {
				errParam = o
			} else if holder == nil && hasStatus(o.Type()) {
				holder = o
			}
		}
	}
	if holder != nil {
		u.holders[holder] = true
		if errParam != nil {
			u.paired[errParam] = true
		}
	} else if errArg && errParam != nil {
		u.nonNil[errParam] = true
	}
	if len(u.holders) == 0 {
		return
	}
	w := &walker{u: u, retried: map[guardRef]set{}, predicate: true}
	st := state{present: true, set: all()}
	for p := range u.paired {
		st = st.withErr(p, errNil)
	}
	w.stmts(body.List, st, nil, func(state) {})
	if w.aborted {
		return
	}
	keyed := c.keyed(c.res.DeclAt(at))
	for _, g := range w.order {
		// Whether a library waits for Retry-After is its own business: 429
		// is reported in hand-written loops only.
		c.report(g, w.retried[g], what, keyed, false)
	}
}

// hasStatus reports whether t (or what it points to) has a StatusCode
// integer field or method.
func hasStatus(t types.Type) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "StatusCode")
	switch o := obj.(type) {
	case *types.Var:
		return isInteger(o.Type())
	case *types.Func:
		r := o.Signature().Results()
		return o.Signature().Params().Len() == 0 && r.Len() == 1 && isInteger(r.At(0).Type())
	}
	return false
}

// funcDecl returns the declaration of a function of the package.
func (c *checker) funcDecl(fn *types.Func) *ast.FuncDecl {
	if fn.Pkg() != c.pass.Pkg {
		return nil
	}
	for _, f := range c.pass.Files {
		if fn.Pos() < f.FileStart || fn.Pos() > f.FileEnd {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && c.info.Defs[fd.Name] == fn {
				return fd
			}
		}
	}
	return nil
}

// keyed reports whether fn sends an idempotency key: a 409 may then be
// the in-progress answer to an earlier attempt, worth retrying.
func (c *checker) keyed(fn *ast.FuncDecl) bool {
	if fn == nil {
		return false
	}
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case ast.Expr:
			if s, ok := astq.StringConst(c.info, n); ok {
				switch strings.ToLower(s) {
				case "idempotency-key", "x-idempotency-key":
					found = true
				}
			}
			if id, ok := n.(*ast.Ident); ok {
				switch id.Name {
				case "IdempotencyKeyHeader", "IdempotencyKey", "NewIdempotencyKey":
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// readsRetryAfter reports whether fn reads a Retry-After delay: the header
// name, runtime/retry.ParseRetryAfter, a StatusError's RetryAfter, or a
// call that hands the response to code outside the standard library.
func (c *checker) readsRetryAfter(fn *ast.FuncDecl, u *unit) bool {
	if fn == nil {
		return true
	}
	found := false
	var visit func(n ast.Node, depth int) bool
	visit = func(n ast.Node, depth int) bool {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if n.Sel.Name == "RetryAfter" {
					found = true
				}
			case *ast.CallExpr:
				f := astq.Callee(c.info, n)
				if f == nil {
					break
				}
				if retryscope.ReadsRetryAfter(f) {
					found = true
					break
				}
				if retryscope.ResponseError(f) {
					break // carries the delay in StatusError.RetryAfter: read when that is
				}
				if retryscope.SetMember(f) {
					break // retryable.Has(resp.StatusCode) reads the set
				}
				if f.Pkg() == c.pass.Pkg && !c.takesResponse(u, n) && (depth > 0 && c.handsResponse(n) || depth == 0 && c.summaryOf(f, 0, ownResponse) != nil) {
					// c.upload(b) gets its own response; report(res) in it is given it
					if d := c.funcDecl(f); d != nil && depth < 2 {
						visit(d, depth+1)
					}
					break
				}
				if !c.takesResponse(u, n) || f.Pkg() == nil {
					break
				}
				switch {
				case f.Pkg() == c.pass.Pkg:
					if d := c.funcDecl(f); d != nil && depth < 2 {
						visit(d, depth+1)
					}
				case !std(f.Pkg().Path()):
					found = true // a helper the check cannot see into
				}
			case ast.Expr:
				if s, ok := astq.StringConst(c.info, n); ok && strings.EqualFold(s, "retry-after") {
					found = true
				}
			}
			return !found
		})
		return found
	}
	return visit(fn, 0)
}

// handsResponse reports whether call passes a variable of a type with a
// status (an *http.Response) as an argument.
func (c *checker) handsResponse(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if o, ok := c.objOf(a).(*types.Var); ok && hasStatus(o.Type()) {
			return true
		}
	}
	return false
}

// takesResponse reports whether call passes a holder or one of its fields
// (resp.Header) as an argument.
func (c *checker) takesResponse(u *unit, call *ast.CallExpr) bool {
	for _, a := range call.Args {
		a = ast.Unparen(a)
		if sel, ok := a.(*ast.SelectorExpr); ok {
			a = sel.X
		}
		if o := c.objOf(a); o != nil && u.holders[o] {
			return true
		}
	}
	return false
}

func std(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// nonNilError reports whether e is an error value that is never nil: a
// call of errors.New or fmt.Errorf, a composite literal or its address, a
// package-level error variable.
func (c *checker) nonNilError(e ast.Expr) bool {
	if tv, ok := c.info.Types[e]; ok && tv.Type != nil && !types.IsInterface(tv.Type) && !isNil(c.info, e) {
		// return errResp, a value of a concrete type (even a nil pointer):
		// the error interface that holds it is not nil
		return true
	}
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		if fn := astq.Callee(c.info, e); fn != nil {
			switch fn.FullName() {
			case "errors.New", "fmt.Errorf":
				return true
			}
		}
	case *ast.CompositeLit:
		return true
	case *ast.UnaryExpr:
		_, lit := ast.Unparen(e.X).(*ast.CompositeLit)
		return e.Op == token.AND && lit
	case *ast.Ident, *ast.SelectorExpr:
		id := astq.NameIdent(e)
		// A sentinel: a package-level errFoo or ErrFoo.
		v, ok := c.info.Uses[id].(*types.Var)
		if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
			return false
		}
		return strings.HasPrefix(v.Name(), "err") || strings.HasPrefix(v.Name(), "Err")
	}
	return false
}

func (c *checker) objOf(e ast.Expr) types.Object {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || id.Name == "_" {
		return nil
	}
	if o := c.info.Defs[id]; o != nil {
		return o
	}
	return c.info.Uses[id]
}

func labelOf(fn ast.Node, loop ast.Node) string {
	label := ""
	ast.Inspect(fn, func(n ast.Node) bool {
		if l, ok := n.(*ast.LabeledStmt); ok && l.Stmt == loop {
			label = l.Label.Name
		}
		return label == ""
	})
	return label
}

// operation checks the operation a retry library repeats: the statuses
// for which it returns an error that the library retries.
func (c *checker) operation(s *retryscope.Scope) {
	call, ok := s.Node.(*ast.CallExpr)
	if !ok {
		return
	}
	var rules opRules
	decl := c.res.DeclAt(s.Pos)
	fix := s.StatusFix()
	if fix == "" || s.OpArg >= len(call.Args) {
		return
	}
	for _, p := range s.Predicated() {
		if call.Ellipsis.IsValid() || c.mentions(decl, p) {
			return // a predicate decides (checked on its own) or options the check cannot see
		}
	}
	if policy, field := s.Policy(); field != "" && (len(call.Args) != 3 || !c.defaultPolicy(policy, field)) {
		return
	}
	if stops := s.Permanent(); len(stops) > 0 {
		rules.stops = make(map[string]bool)
		for _, f := range stops {
			rules.stops[f] = true
		}
	}
	if wraps := s.Retryable(); len(wraps) > 0 {
		rules.wrap = wraps[0]
	}
	// The operation's error result.
	var ft *ast.FuncType
	switch f := ast.Unparen(call.Args[s.OpArg]).(type) {
	case *ast.FuncLit:
		ft = f.Type
	default:
		if s.Op != nil {
			if d := c.funcDecl(s.Op); d != nil {
				ft = d.Type
			}
		} else if decl != nil {
			// op := func() error {...}; retry.Do(op)
			ast.Inspect(decl, func(n ast.Node) bool {
				if lit, ok := n.(*ast.FuncLit); ok && lit.Body == s.Body {
					ft = lit.Type
				}
				return ft == nil
			})
		}
	}
	if ft == nil {
		return
	}
	if ft.Results == nil {
		return
	}
	n := 0
	errIdx := -1
	for _, field := range ft.Results.List {
		k := max(len(field.Names), 1)
		if t := c.info.TypeOf(field.Type); t != nil && isError(t) {
			errIdx = n + k - 1
		}
		n += k
	}
	if errIdx != n-1 {
		return
	}
	u := c.newUnit(s.Body)
	if len(u.holders) == 0 {
		return
	}
	w := &walker{u: u, retried: map[guardRef]set{}, predicate: true, decision: errIdx, op: &rules}
	w.stmts(s.Body.List, state{}, nil, func(state) {})
	if w.aborted {
		return
	}
	keyed := c.keyed(decl)
	readsRetryAfter := c.readsRetryAfter(decl, u)
	what := s.Name + " retries"
	for _, g := range w.order {
		retried := w.retried[g]
		if bad := retried.and(permanent(keyed)); !bad.empty() {
			suppress.Report(c.pass, Name, analysis.Diagnostic{Pos: g.pos, End: g.end,
				Message: what + " " + describe(bad, keyed) + "; " + fix})
		}
		if !readsRetryAfter && retried.has(429) {
			suppress.Report(c.pass, Name, analysis.Diagnostic{Pos: g.pos, End: g.end,
				Message: what + " 429 without reading Retry-After; " + fix429})
		}
	}
}

// defaultPolicy reports whether a policy argument (runtime/retry's
// Policy) is a literal that leaves field (Retryable) nil.
func (c *checker) defaultPolicy(e ast.Expr, field string) bool {
	lit := astq.StructLit(e)
	if lit == nil {
		return false
	}
	v, keyed := astq.KeyedValue(c.pass.TypesInfo, lit, func(_ *types.Var, k *ast.Ident) bool { return k.Name == field })
	return keyed && v == nil
}

// mentions reports whether fn uses an identifier named name.
func (c *checker) mentions(fn *ast.FuncDecl, name string) bool {
	if fn == nil {
		return true
	}
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}
