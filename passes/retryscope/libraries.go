package retryscope

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/names"
)

// Import paths of the modelled libraries.
const (
	avastFamily    = "github.com/avast/retry-go"
	avastV4        = avastFamily + "/v4"
	avastV5        = avastFamily + "/v5"
	cenkaltiFamily = "github.com/cenkalti/backoff"
	cenkaltiV4     = cenkaltiFamily + "/v4"
	cenkaltiV5     = cenkaltiFamily + "/v5"
	sethvargo      = "github.com/sethvargo/go-retry"
	k8sWait        = "k8s.io/apimachinery/pkg/util/wait"
	clientGo       = "k8s.io/client-go/util/retry"
	failsafe       = "github.com/failsafe-go/failsafe-go"
	retrypolicy    = "github.com/failsafe-go/failsafe-go/retrypolicy"
	retryable      = "github.com/hashicorp/go-retryablehttp"
	jpillora       = "github.com/jpillora/backoff"
	rican7         = "github.com/Rican7/retry"
	idemRetry      = "github.com/idemlint/idemlint/runtime/retry"
)

// entries returns the names of the functions and methods of the library
// at path that call may take as entry points (or, for go-retryablehttp,
// as clients): call looks no further for any other name; the table
// (table.go) is the one list of them.
func entries(path string) []string {
	if l := registry[path]; l != nil {
		return l.Entries
	}
	return nil
}

// libraryCalls returns a test of the names by which a call in a package
// that imports the paths in direct, and whose transitive imports dependsOn
// tests, may be a LibraryCall scope's: an entry point of a library it
// imports, or of one with method entry points that it depends on, or a
// function of cfg.RetryFuncs whose package it depends on (any name, for a
// name that does not parse). With ops set, only the calls that take an
// operation (no Dials library's). It returns nil when no call can be.
func (cfg *Config) libraryCalls(direct []string, dependsOn func(func(string) bool) bool, ops bool) func(string) bool {
	names := make(map[string]bool)
	add := func(ns ...string) {
		for _, n := range ns {
			names[n] = true
		}
	}
	for _, path := range direct {
		if l := registry[path]; l != nil && !(ops && l.Dials) {
			add(l.Entries...)
		}
	}
	for path, l := range registry {
		if l.Methods && !(ops && l.Dials) && dependsOn(func(p string) bool { return p == path }) {
			add(l.Entries...)
		}
	}
	for _, name := range cfg.RetryFuncs {
		p, ok := funcPackage(name)
		if !ok {
			return func(string) bool { return true }
		}
		if dependsOn(func(path string) bool { return path == p }) {
			add(name[strings.LastIndex(name, ".")+1:])
		}
	}
	if len(names) == 0 {
		return nil
	}
	return func(name string) bool { return names[name] }
}

// funcPackage returns the package path of a function's full name
// ("example.com/pkg.F", "(*example.com/pkg.T).M").
func funcPackage(name string) (string, bool) {
	if strings.HasPrefix(name, "(") {
		end := strings.Index(name, ").")
		if end < 0 {
			return "", false
		}
		name = strings.TrimPrefix(name[1:end], "*")
	}
	slash := max(strings.LastIndex(name, "/"), 0)
	dot := strings.LastIndex(name[slash:], ".")
	if dot <= 0 {
		return "", false
	}
	return name[:slash+dot], true
}

// origin resolves a local variable to the value last assigned to it before
// pos, looking through parentheses and &. Other expressions are returned
// as they are.
func (m *model) origin(di *defIndex, e ast.Expr, before token.Pos) ast.Expr {
	return di.resolve(e, before, true)
}

// fieldSets returns the assignments v.F = x to the local variable e names.
func (m *model) fieldSets(di *defIndex, e ast.Expr) []fieldSet {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if o := m.info.Uses[id]; o != nil {
			return di.fields[o]
		}
	}
	return nil
}

func (m *model) intConst(e ast.Expr) (int64, bool) {
	tv, ok := m.info.Types[e]
	if !ok || tv.Value == nil {
		return 0, false
	}
	return constant.Int64Val(constant.ToInt(tv.Value))
}

// countCap returns the cap that the attempt count e, set at pos, gives: the
// constant's attempts (none for 0 when zeroUnlimited, as for libraries that
// then retry forever), or bounded when e is not a constant.
func (m *model) countCap(e ast.Expr, pos token.Pos, zeroUnlimited bool) Cap {
	n, ok := m.intConst(e)
	switch {
	case !ok:
		return Cap{Kind: CapBounded, Pos: pos}
	case n == 0 && zeroUnlimited:
		return Cap{Kind: CapNone, Pos: pos}
	}
	return Cap{Kind: CapKnown, N: int(n), Pos: pos}
}

func (m *model) isZero(e ast.Expr) bool {
	tv, ok := m.info.Types[e]
	if !ok || tv.Value == nil {
		return false
	}
	switch tv.Value.Kind() {
	case constant.Int, constant.Float, constant.Complex:
		return constant.Sign(tv.Value) == 0
	}
	return false // a string or a bool
}

// calleeName returns the full name of call's static callee, or "".
func (m *model) calleeName(call *ast.CallExpr) string {
	if fn := m.callee(call); fn != nil {
		return fn.FullName()
	}
	return ""
}

// stripTypeParams removes the type parameter lists from a full name:
// "(pkg.Executor[R any]).Run" becomes "(pkg.Executor).Run".
func stripTypeParams(name string) string {
	var b strings.Builder
	depth := 0
	for _, r := range name {
		switch {
		case r == '[':
			depth++
		case r == ']':
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// inPkg reports whether the full name is of a function or method in path.
func inPkg(name, path string) (string, bool) {
	name = strings.TrimPrefix(name, "(")
	name = strings.TrimPrefix(name, "*")
	rest, ok := strings.CutPrefix(name, path+".")
	if !ok {
		return "", false
	}
	return rest, true
}

// call returns the retry scope a library call makes, or nil: none when
// it makes one attempt (oneAttempt).
func (m *model) call(di *defIndex, fn ast.Node, call *ast.CallExpr) *Scope {
	s := m.libraryCall(di, fn, call)
	if s == nil || oneAttempt(s.Cap) {
		return nil
	}
	return s
}

// libraryCall reads the retry scope a library call makes, or nil.
func (m *model) libraryCall(di *defIndex, fn ast.Node, call *ast.CallExpr) *Scope {
	callee := m.callee(call)
	if callee == nil || callee.Pkg() == nil {
		return nil
	}
	path := callee.Pkg().Path()
	if !slices.Contains(entries(path), callee.Name()) && (len(m.extra) == 0 || !m.extra[callee.FullName()]) {
		return nil
	}
	name := callee.FullName()
	s := &Scope{Kind: LibraryCall, Node: call, Func: fn, Pos: call.Fun.Pos(), Library: path, Entry: stripTypeParams(name), Name: names.Of(callee), Trigger: TriggerUnknown}
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
		s.Pos = sel.Sel.Pos()
	}
	op := -1
	lib := registry[path]
	if lib != nil && lib.model != nil && slices.Contains(lib.Entries, callee.Name()) {
		op = lib.model(m, di, s, call, callee)
		if op < 0 {
			return nil
		}
	}
	switch path {
	case avastV4:
		switch callee.Name() {
		case "Do", "DoWithData":
			op = 0
			m.avastOptions(di, s, call, call.Args[1:], call.Ellipsis.IsValid())
		}
	case avastV5:
		if callee.Name() == "Do" && callee.Signature().Recv() != nil {
			op = 0
			m.avastV5(di, s, call)
		}
	case cenkaltiV4:
		switch callee.Name() {
		case "Retry", "RetryNotify", "RetryWithData", "RetryNotifyWithData", "RetryNotifyWithTimer", "RetryNotifyWithTimerAndData":
			op = 0
			if len(call.Args) < 2 {
				return nil
			}
			bo := m.backoffValue(di, call.Args[1], 0)
			s.Cap, s.Deadline = bo.cap, bo.deadline
			s.Waits = []Wait{bo.waitAt(call)}
		}
	case cenkaltiV5:
		if callee.Name() == "Retry" && len(call.Args) >= 2 {
			op = 1
			m.cenkaltiV5(di, s, call)
		}
	case sethvargo:
		switch callee.Name() {
		case "Do", "DoValue":
			if len(call.Args) != 3 {
				return nil
			}
			op = 2
			bo := m.backoffValue(di, call.Args[1], 0)
			s.Cap, s.Deadline = bo.cap, bo.deadline
			if s.Deadline.Kind == DeadlineNone {
				s.Deadline = Deadline{Kind: m.ctxArgKind(di, call.Args[0]), Pos: call.Args[0].Pos()}
			}
			s.Waits = []Wait{bo.waitAt(call)}
		case "Constant", "Exponential", "Fibonacci":
			if len(call.Args) != 3 {
				return nil
			}
			op = 2
			k := WaitGrowth
			if callee.Name() == "Constant" {
				k = WaitConstant
			}
			s.Cap = Cap{Kind: CapNone}
			s.Deadline = Deadline{Kind: m.ctxArgKind(di, call.Args[0]), Pos: call.Args[0].Pos()}
			s.Waits = []Wait{{Kind: k, Pos: s.Pos, Node: call, Library: true, Setting: "retry." + callee.Name()}}
		}
	case k8sWait, clientGo:
		var b, ctx ast.Expr
		switch callee.Name() {
		case "PollUntilContextCancel":
			if path == k8sWait && m.pollRetry(di, s, call) {
				return s
			}
			return nil
		case "ExponentialBackoff":
			if path == k8sWait && len(call.Args) == 2 {
				b, op = call.Args[0], 1
			}
		case "ExponentialBackoffWithContext":
			if path == k8sWait && len(call.Args) == 3 {
				ctx, b, op = call.Args[0], call.Args[1], 2
			}
		case "RetryOnConflict":
			if path == clientGo && len(call.Args) == 2 {
				b, op = call.Args[0], 1
			}
		case "OnError":
			if path == clientGo && len(call.Args) == 3 {
				b, op = call.Args[0], 2
			}
		}
		if b == nil {
			return nil
		}
		bo := m.backoffValue(di, b, 0)
		if bo.cap.Kind == CapKnown && bo.cap.N == 0 {
			return nil // Steps 0: the condition is never called
		}
		s.Cap, s.Deadline = bo.cap, Deadline{Kind: DeadlineNone}
		if ctx != nil {
			s.Deadline = Deadline{Kind: m.ctxArgKind(di, ctx), Pos: ctx.Pos()}
		}
		s.Waits = []Wait{bo.waitAt(call)}
	case failsafe:
		switch callee.Name() {
		case "Run", "Get", "RunWithExecution", "GetWithExecution", "RunAsync", "GetAsync", "RunWithExecutionAsync", "GetWithExecutionAsync":
			if callee.Signature().Recv() == nil || len(call.Args) != 1 {
				return nil
			}
			if !m.failsafe(di, s, call) {
				return nil
			}
			op = 0
		}
	case retryable:
		switch callee.Name() {
		case "NewClient":
			if callee.Signature().Recv() == nil {
				m.retryableClient(di, s, call)
				return s
			}
		case "Get", "Head", "Post", "PostForm":
			if callee.Signature().Recv() == nil {
				// the package-level helpers send through a default client
				s.Kind = Client
				s.Cap = Cap{Kind: CapKnown, N: 5}
				s.Deadline = Deadline{Kind: DeadlineNone}
				s.Waits = []Wait{{Kind: WaitGrowth, Pos: s.Pos, Node: call, Library: true, Setting: "retryablehttp.DefaultBackoff"}}
				s.Trigger = TriggerStatus
				return s
			}
		}
	case idemRetry:
		// runtime/retry.Do(ctx, policy, op): capped (4 attempts by default)
		// and bounded in time (15 s by default), with full jitter.
		if (callee.Name() == "Do" || callee.Name() == "DoValue") && len(call.Args) == 3 {
			op = 2
			s.Cap = Cap{Kind: CapBounded, Pos: call.Args[1].Pos()}
			if lit, ok := m.origin(di, call.Args[1], call.Pos()).(*ast.CompositeLit); ok {
				s.Cap = Cap{Kind: CapKnown, N: 4, Pos: lit.Pos()}
				for _, elt := range lit.Elts {
					if kv, ok := elt.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "MaxAttempts" {
							if n, ok := m.intConst(kv.Value); ok && n > 0 {
								s.Cap = Cap{Kind: CapKnown, N: int(n), Pos: kv.Pos()}
							} else if !ok {
								s.Cap = Cap{Kind: CapBounded, Pos: kv.Pos()}
							}
						}
					}
				}
			}
			s.Deadline = Deadline{Kind: DeadlineLibrary, Pos: call.Args[1].Pos()}
			s.Waits = []Wait{{Kind: WaitJittered, Pos: s.Pos, Node: call, Library: true}}
		}
	case grpcPath:
		if callee.Signature().Recv() == nil {
			return m.grpcDial(di, s, call)
		}
		return nil
	case rican7:
		if callee.Name() == "Retry" && len(call.Args) >= 1 {
			op = 0
			m.rican7(di, s, call)
		}
	}
	if op < 0 {
		if !m.extra[name] {
			return nil
		}
		for i, a := range call.Args {
			if _, ok := m.info.TypeOf(a).Underlying().(*types.Signature); ok {
				op = i
				break
			}
		}
		if op < 0 {
			return nil
		}
		s.Cap, s.Deadline = Cap{Kind: CapUnknown}, Deadline{Kind: DeadlineUnknown}
		s.Waits = []Wait{{Kind: WaitUnknown, Pos: s.Pos, Node: call, Library: true}}
	}
	if op >= len(call.Args) {
		return nil
	}
	s.OpArg = op
	s.Body, s.Op = m.opBody(di, call.Args[op], call.Pos())
	return s
}

// options returns the arguments of call from the first'th on, the
// elements of a spread slice the model can list in place of the slice; it
// reports true (unknown) when a spread slice stays that it cannot list.
func (m *model) options(di *defIndex, call *ast.CallExpr, first int) ([]ast.Expr, bool) {
	opts := call.Args[first:]
	if !call.Ellipsis.IsValid() {
		return opts, false
	}
	return m.spread(di, opts, call.Pos())
}

// unknownOptions marks the cap, deadline and wait of s as unknown: an option
// the model cannot read may set any of them.
func unknownOptions(s *Scope, wait *Wait) {
	s.Cap, s.Deadline, wait.Kind = Cap{Kind: CapUnknown}, Deadline{Kind: DeadlineUnknown}, WaitUnknown
}

// spread returns the options of a call whose last argument is a spread
// slice (opts...): the other arguments and the elements the slice holds
// (sliceElems). It reports true (still spread) when the model cannot list
// them.
func (m *model) spread(di *defIndex, args []ast.Expr, before token.Pos) ([]ast.Expr, bool) {
	if len(args) == 0 {
		return args, true
	}
	elems, ok := m.sliceElems(di, args[len(args)-1], before, 0)
	if !ok {
		return args, true
	}
	return append(append([]ast.Expr(nil), args[:len(args)-1]...), elems...), false
}

// sliceElems lists the elements of the slice e holds before a position,
// wherever the package builds it: a slice literal (opts :=
// []retry.Option{...}), a local appended to (opts = append(opts, o), or
// append(opts, more...)), a package variable whose only value is one
// (var noRetry = []grpc.CallOption{...}), or the result of a function of
// the package every return of which is one (dialOptions()). Elements made
// in another function are returned as they are written there. It reports
// false when the model cannot list them: a parameter, a field, a value
// changed elsewhere.
func (m *model) sliceElems(di *defIndex, e ast.Expr, before token.Pos, depth int) ([]ast.Expr, bool) {
	if depth > maxDepth {
		return nil, false
	}
	switch v := m.origin(di, e, before).(type) {
	case *ast.CompositeLit:
		if t := m.info.TypeOf(v); t == nil {
			return nil, false
		} else if _, ok := t.Underlying().(*types.Slice); !ok {
			return nil, false
		}
		for _, e := range v.Elts {
			if _, ok := e.(*ast.KeyValueExpr); ok {
				return nil, false
			}
		}
		return v.Elts, true
	case *ast.CallExpr:
		if id, ok := ast.Unparen(v.Fun).(*ast.Ident); ok && len(v.Args) > 0 {
			if b, ok := m.info.Uses[id].(*types.Builtin); ok && b.Name() == "make" {
				if len(v.Args) >= 2 && m.isZero(v.Args[1]) {
					return []ast.Expr{}, true // make([]grpc.DialOption, 0, n)
				}
				return nil, false
			}
			if b, ok := m.info.Uses[id].(*types.Builtin); ok && b.Name() == "append" {
				elems, ok := m.sliceElems(di, v.Args[0], v.Pos(), depth+1)
				if !ok {
					return nil, false
				}
				more := v.Args[1:]
				if v.Ellipsis.IsValid() {
					if more, ok = m.sliceElems(di, more[len(more)-1], v.Pos(), depth+1); !ok {
						return nil, false
					}
				}
				return append(append([]ast.Expr(nil), elems...), more...), true
			}
		}
		fn := m.callee(v)
		fd := m.funcs[fn]
		if fn == nil || fd == nil || fn.Signature().Results().Len() != 1 {
			return nil, false
		}
		fdi := m.defIndex(fd)
		var elems []ast.Expr
		ok := true
		astq.InspectOwn(fd.Body, func(n ast.Node) bool {
			if ret, isRet := n.(*ast.ReturnStmt); isRet && ok {
				var es []ast.Expr
				if len(ret.Results) != 1 {
					ok = false
				} else if es, ok = m.sliceElems(fdi, ret.Results[0], ret.Pos(), depth+1); ok {
					elems = append(elems, es...)
				}
			}
			return ok
		})
		return elems, ok && elems != nil
	case *ast.Ident:
		o, _ := m.info.Uses[v].(*types.Var)
		if o != nil && local(o) {
			// var opts []grpc.DialOption: empty until appended to
			var last *def
			for i, d := range di.defs[o] {
				if d.pos < before && (last == nil || d.pos > last.pos) {
					last = &di.defs[o][i]
				}
			}
			if last != nil && last.op == token.VAR && last.rhs == nil && !m.addressTaken(o) {
				return []ast.Expr{}, true
			}
			return nil, false
		}
		// a package variable the package gives one value, and changes
		// nowhere (no other assignment, no &v)
		if o == nil || o.Pkg() != m.pass.Pkg || m.addressTaken(o) {
			return nil, false
		}
		defs := m.packageDefs().defs[o]
		if len(defs) != 1 || defs[0].op != token.VAR || defs[0].rhs == nil || defs[0].tuple >= 0 {
			return nil, false
		}
		return m.sliceElems(m.packageDefs(), defs[0].rhs, defs[0].pos+1, depth+1)
	}
	return nil, false
}

// opBody returns the body of the operation passed to a library, when it is
// declared in this package.
func (m *model) opBody(di *defIndex, e ast.Expr, before token.Pos) (*ast.BlockStmt, *types.Func) {
	e = m.origin(di, e, before)
	switch e := e.(type) {
	case *ast.FuncLit:
		return e.Body, nil
	case *ast.Ident:
		if fn, ok := m.info.Uses[e].(*types.Func); ok {
			if d := m.funcs[fn.Origin()]; d != nil {
				return d.Body, fn
			}
			return nil, fn
		}
	case *ast.SelectorExpr:
		if fn, ok := m.info.Uses[e.Sel].(*types.Func); ok {
			if d := m.funcs[fn.Origin()]; d != nil {
				return d.Body, fn
			}
			return nil, fn
		}
	case *ast.IndexExpr: // an explicit instantiation: op[T]
		return m.opBody(di, e.X, before)
	}
	return nil, nil
}

// backoff is what the model knows of a backoff value or policy.
type backoff struct {
	cap      Cap
	deadline Deadline
	wait     WaitKind
	waitPos  token.Pos
	waitNode ast.Node
	setting  string
}

func unknownBackoff() backoff {
	return backoff{cap: Cap{Kind: CapUnknown}, deadline: Deadline{Kind: DeadlineUnknown}, wait: WaitUnknown}
}

// waitAt turns the backoff's wait into a Wait, reported at the setting's
// position, or at the call when the wait is a default.
func (b backoff) waitAt(call *ast.CallExpr) Wait {
	w := Wait{Kind: b.wait, Pos: b.waitPos, Node: b.waitNode, Library: true, Setting: b.setting}
	if !w.Pos.IsValid() {
		w.Pos, w.Node = call.Pos(), call
	}
	return w
}

// backoffValue evaluates a backoff value of cenkalti/backoff v4 or v5,
// sethvargo/go-retry, or a k8s wait.Backoff.
func (m *model) backoffValue(di *defIndex, e ast.Expr, depth int) backoff {
	if depth > maxDepth {
		return unknownBackoff()
	}
	sets := m.fieldSets(di, e)
	v := m.origin(di, e, e.Pos())
	var b backoff
	switch v := v.(type) {
	case *ast.CompositeLit:
		b = m.backoffLit(v)
	case *ast.CallExpr:
		b = m.backoffCall(di, v, depth)
	case *ast.SelectorExpr:
		switch m.objName(v.Sel) {
		case clientGo + ".DefaultRetry":
			b = backoff{cap: Cap{Kind: CapKnown, N: 5}, deadline: Deadline{Kind: DeadlineNone}, wait: WaitJittered}
		case clientGo + ".DefaultBackoff":
			b = backoff{cap: Cap{Kind: CapKnown, N: 4}, deadline: Deadline{Kind: DeadlineNone}, wait: WaitJittered}
		default:
			return unknownBackoff()
		}
	default:
		return unknownBackoff()
	}
	for _, fs := range sets {
		m.applyField(&b, fs.field, fs.rhs, fs.pos)
	}
	return b
}

// objName returns the full name of the object id uses: "path.Name".
func (m *model) objName(id *ast.Ident) string {
	o := m.info.Uses[id]
	if o == nil || o.Pkg() == nil {
		return ""
	}
	return o.Pkg().Path() + "." + o.Name()
}

func (m *model) typePath(e ast.Expr) string {
	t := m.info.TypeOf(e)
	if t == nil {
		return ""
	}
	tn := astq.NamedOf(t)
	if tn == nil {
		return ""
	}
	return tn.Pkg().Path() + "." + tn.Name()
}

func (m *model) backoffLit(lit *ast.CompositeLit) backoff {
	b := backoff{cap: Cap{Kind: CapNone}, deadline: Deadline{Kind: DeadlineNone}}
	tname := m.typePath(lit)
	switch tname {
	case cenkaltiV4 + ".ExponentialBackOff", cenkaltiV5 + ".ExponentialBackOff":
		// A literal leaves MaxElapsedTime and RandomizationFactor at 0:
		// never stop, no jitter.
		b.wait, b.waitPos, b.waitNode, b.setting = WaitGrowth, lit.Pos(), lit, "backoff.ExponentialBackOff{}"
	case cenkaltiV4 + ".ConstantBackOff", cenkaltiV5 + ".ConstantBackOff":
		b.wait, b.waitPos, b.waitNode, b.setting = WaitConstant, lit.Pos(), lit, "backoff.ConstantBackOff"
	case cenkaltiV4 + ".ZeroBackOff", cenkaltiV5 + ".ZeroBackOff":
		b.wait, b.waitPos, b.waitNode, b.setting = WaitNone, lit.Pos(), lit, "backoff.ZeroBackOff"
	case cenkaltiV4 + ".StopBackOff", cenkaltiV5 + ".StopBackOff":
		b.cap, b.wait = Cap{Kind: CapKnown, N: 1, Pos: lit.Pos()}, WaitUnknown
	case k8sWait + ".Backoff":
		// Steps 0 means the condition is never called; Jitter 0 means none.
		b.cap = Cap{Kind: CapKnown, N: 0, Pos: lit.Pos()}
		b.wait, b.waitPos, b.waitNode, b.setting = WaitConstant, lit.Pos(), lit, "wait.Backoff without Jitter"
	default:
		return unknownBackoff()
	}
	factor := false
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return unknownBackoff() // positional fields: not worth guessing
		}
		key, _ := kv.Key.(*ast.Ident)
		if key == nil {
			continue
		}
		if key.Name == "Factor" && !m.isZero(kv.Value) {
			if n, ok := m.intConst(kv.Value); !ok || n != 1 {
				factor = true
			}
		}
		m.applyField(&b, key.Name, kv.Value, kv.Pos())
	}
	if tname == k8sWait+".Backoff" && b.wait == WaitConstant && factor {
		b.wait = WaitGrowth
	}
	return b
}

// applyField applies a field setting to a backoff literal or variable.
func (m *model) applyField(b *backoff, field string, v ast.Expr, pos token.Pos) {
	switch field {
	case "MaxElapsedTime":
		if m.isZero(v) {
			b.deadline = Deadline{Kind: DeadlineNone}
		} else {
			b.deadline = Deadline{Kind: DeadlineLibrary, Pos: pos}
		}
	case "RandomizationFactor", "Jitter":
		if m.isZero(v) {
			if b.wait == WaitJittered {
				b.wait = WaitGrowth
			}
			b.waitPos, b.waitNode = pos, v
			b.setting = field + " = 0"
		} else if tv, ok := m.info.Types[v]; ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && !constant.BoolVal(tv.Value) {
			b.waitPos, b.waitNode = pos, v
		} else {
			b.wait = WaitJittered
		}
	case "Steps":
		b.cap = m.countCap(v, pos, false)
	}
}

func (m *model) backoffCall(di *defIndex, call *ast.CallExpr, depth int) backoff {
	callee := m.callee(call)
	if callee == nil || callee.Pkg() == nil {
		return unknownBackoff()
	}
	b := backoff{cap: Cap{Kind: CapNone}, deadline: Deadline{Kind: DeadlineNone}}
	last := func() backoff {
		if len(call.Args) == 0 {
			return unknownBackoff()
		}
		return m.backoffValue(di, call.Args[len(call.Args)-1], depth+1)
	}
	switch callee.Pkg().Path() {
	case cenkaltiV4, cenkaltiV5:
		switch callee.Name() {
		case "NewExponentialBackOff":
			b.wait = WaitJittered
			if callee.Pkg().Path() == cenkaltiV4 {
				b.deadline = Deadline{Kind: DeadlineLibrary, Pos: call.Pos()} // MaxElapsedTime 15 min
			}
			for _, o := range call.Args {
				oc, ok := ast.Unparen(o).(*ast.CallExpr)
				if !ok || len(oc.Args) != 1 {
					continue
				}
				// An option made by a call through a func value (opt(0.5))
				// has no static callee: the model cannot tell what it sets.
				fn := m.callee(oc)
				if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != callee.Pkg().Path() {
					return unknownBackoff()
				}
				switch fn.Name() {
				case "WithRandomizationFactor":
					m.applyField(&b, "RandomizationFactor", oc.Args[0], oc.Pos())
					if m.isZero(oc.Args[0]) {
						b.setting = "backoff.WithRandomizationFactor(0)"
					}
				case "WithMaxElapsedTime":
					m.applyField(&b, "MaxElapsedTime", oc.Args[0], oc.Pos())
				}
			}
		case "NewConstantBackOff":
			b.wait, b.waitPos, b.waitNode, b.setting = WaitConstant, call.Pos(), call, "backoff.NewConstantBackOff"
		case "WithMaxRetries":
			if len(call.Args) != 2 {
				return unknownBackoff()
			}
			b = m.backoffValue(di, call.Args[0], depth+1)
			if n, ok := m.intConst(call.Args[1]); ok {
				b.cap = Cap{Kind: CapKnown, N: int(n) + 1, Pos: call.Pos()}
			} else {
				b.cap = Cap{Kind: CapBounded, Pos: call.Pos()}
			}
		case "WithContext":
			if len(call.Args) != 2 {
				return unknownBackoff()
			}
			b = m.backoffValue(di, call.Args[0], depth+1)
			if b.deadline.Kind == DeadlineNone {
				b.deadline = Deadline{Kind: m.ctxArgKind(di, call.Args[1]), Pos: call.Pos()}
			}
		default:
			return unknownBackoff()
		}
	case sethvargo:
		switch callee.Name() {
		case "NewConstant":
			b.wait, b.waitPos, b.waitNode, b.setting = WaitConstant, call.Pos(), call, "retry.NewConstant"
		case "NewExponential", "NewFibonacci":
			b.wait, b.waitPos, b.waitNode, b.setting = WaitGrowth, call.Pos(), call, "retry."+callee.Name()
		case "WithJitter", "WithJitterPercent":
			b = last()
			if len(call.Args) == 2 && !m.isZero(call.Args[0]) {
				b.wait = WaitJittered
			}
		case "WithMaxRetries":
			b = last()
			if n, ok := m.intConst(call.Args[0]); ok {
				b.cap = Cap{Kind: CapKnown, N: int(n) + 1, Pos: call.Pos()}
			} else {
				b.cap = Cap{Kind: CapBounded, Pos: call.Pos()}
			}
		case "WithMaxDuration":
			b = last()
			b.deadline = Deadline{Kind: DeadlineLibrary, Pos: call.Pos()}
		case "WithCappedDuration":
			b = last()
		default:
			if strings.Contains(callee.Name(), "Jitter") {
				b = last()
				b.wait = WaitJittered
				return b
			}
			return unknownBackoff()
		}
	default:
		return unknownBackoff()
	}
	return b
}

// avastOptions applies retry-go options to s. Defaults: 10 attempts, no
// deadline, exponential backoff plus random jitter.
func (m *model) avastOptions(di *defIndex, s *Scope, call *ast.CallExpr, opts []ast.Expr, spread bool) {
	s.Cap = Cap{Kind: CapKnown, N: 10}
	s.Deadline = Deadline{Kind: DeadlineNone}
	wait := Wait{Kind: WaitJittered, Pos: s.Pos, Node: call, Library: true, Setting: "retry-go default delay"}
	if spread {
		opts, spread = m.spread(di, opts, call.Pos())
	}
	if spread {
		unknownOptions(s, &wait)
	}
	for _, o := range opts {
		oc, ok := m.origin(di, o, o.Pos()).(*ast.CallExpr)
		var callee *types.Func
		if ok {
			callee = m.callee(oc)
		}
		if callee == nil || callee.Pkg() == nil || callee.Pkg().Path() != s.Library {
			// an option the model cannot read (a variable, a call through
			// a func value, a helper of another package) may set anything
			unknownOptions(s, &wait)
			continue
		}
		switch callee.Name() {
		case "Attempts":
			if len(oc.Args) == 1 {
				s.Cap = m.countCap(oc.Args[0], oc.Pos(), true)
			}
		case "UntilSucceeded":
			s.Cap = Cap{Kind: CapNone, Pos: oc.Pos()}
		case "Context":
			if len(oc.Args) == 1 {
				s.Deadline = Deadline{Kind: m.ctxArgKind(di, oc.Args[0]), Pos: oc.Pos()}
			}
		case "DelayType":
			if len(oc.Args) == 1 {
				k, setting := m.avastDelay(di, s.Library, oc.Args[0], 0)
				wait = Wait{Kind: k, Pos: oc.Pos(), Node: oc, Library: true, Setting: setting}
			}
		}
	}
	s.Waits = []Wait{wait}
}

// avastDelay classifies a retry-go DelayTypeFunc of the version at lib.
func (m *model) avastDelay(di *defIndex, lib string, e ast.Expr, depth int) (WaitKind, string) {
	e = m.origin(di, e, e.Pos())
	switch e := e.(type) {
	case *ast.SelectorExpr, *ast.Ident:
		id := astq.NameIdent(e)
		fn, ok := m.info.Uses[id].(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != lib {
			return WaitUnknown, ""
		}
		switch fn.Name() {
		case "BackOffDelay":
			return WaitGrowth, "retry.BackOffDelay"
		case "FixedDelay":
			return WaitConstant, "retry.FixedDelay"
		case "RandomDelay", "FullJitterBackoffDelay":
			return WaitJittered, "retry." + fn.Name()
		}
	case *ast.CallExpr:
		if depth < 3 && m.callee(e) != nil && m.callee(e).Name() == "CombineDelay" {
			k := WaitKind(0)
			var names []string
			for _, a := range e.Args {
				ak, n := m.avastDelay(di, lib, a, depth+1)
				k = combine(k, ak)
				names = append(names, n)
			}
			return k, "retry.CombineDelay(" + strings.Join(names, ", ") + ")"
		}
	}
	return WaitUnknown, ""
}

// avastV5 models retry.New(opts...).Do(op).
func (m *model) avastV5(di *defIndex, s *Scope, call *ast.CallExpr) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return
	}
	recv, ok := m.origin(di, sel.X, call.Pos()).(*ast.CallExpr)
	if !ok {
		s.Cap, s.Deadline = Cap{Kind: CapUnknown}, Deadline{Kind: DeadlineUnknown}
		s.Waits = []Wait{{Kind: WaitUnknown, Pos: s.Pos, Node: call, Library: true}}
		return
	}
	m.avastOptions(di, s, call, recv.Args, recv.Ellipsis.IsValid())
}

// cenkaltiV5 models backoff.Retry(ctx, op, opts...). Defaults: no attempt
// cap, 15 minutes max elapsed time, exponential backoff with jitter.
func (m *model) cenkaltiV5(di *defIndex, s *Scope, call *ast.CallExpr) {
	s.Cap = Cap{Kind: CapNone}
	s.Deadline = Deadline{Kind: DeadlineLibrary, Pos: call.Pos()}
	wait := Wait{Kind: WaitJittered, Pos: s.Pos, Node: call, Library: true}
	opts, unknown := m.options(di, call, 2)
	if unknown {
		unknownOptions(s, &wait)
	}
	for _, o := range opts {
		oc, ok := m.origin(di, o, o.Pos()).(*ast.CallExpr)
		if !ok || m.callee(oc) == nil || len(oc.Args) != 1 {
			continue
		}
		switch m.callee(oc).Name() {
		case "WithMaxTries":
			s.Cap = m.countCap(oc.Args[0], oc.Pos(), true)
		case "WithMaxElapsedTime":
			if m.isZero(oc.Args[0]) {
				s.Deadline = Deadline{Kind: DeadlineNone, Pos: oc.Pos()}
			} else {
				s.Deadline = Deadline{Kind: DeadlineLibrary, Pos: oc.Pos()}
			}
		case "WithBackOff":
			bo := m.backoffValue(di, oc.Args[0], 0)
			wait = bo.waitAt(oc)
			if bo.cap.Kind == CapKnown {
				s.Cap = bo.cap
			}
		}
	}
	if s.Deadline.Kind == DeadlineNone {
		s.Deadline = Deadline{Kind: m.ctxArgKind(di, call.Args[0]), Pos: call.Args[0].Pos()}
	}
	s.Waits = []Wait{wait}
}

// failsafe models failsafe.With(policies...).Run(op); it reports false when
// no retry policy is among the policies.
func (m *model) failsafe(di *defIndex, s *Scope, call *ast.CallExpr) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	var ctx ast.Expr
	recv := m.origin(di, sel.X, call.Pos())
	for range maxDepth {
		rc, ok := recv.(*ast.CallExpr)
		if !ok {
			return false
		}
		callee := m.callee(rc)
		if callee == nil || callee.Pkg() == nil || callee.Pkg().Path() != failsafe {
			return false
		}
		if callee.Name() == "With" || callee.Name() == "NewExecutor" {
			found := false
			for _, p := range rc.Args {
				if b, ok := m.retryPolicy(di, p); ok {
					found = true
					s.Cap, s.Deadline = b.cap, b.deadline
					s.Waits = []Wait{b.waitAt(rc)}
				}
			}
			if found && ctx != nil && s.Deadline.Kind == DeadlineNone {
				s.Deadline = Deadline{Kind: m.ctxArgKind(di, ctx), Pos: ctx.Pos()}
			}
			return found
		}
		if callee.Name() == "WithContext" && len(rc.Args) == 1 {
			ctx = rc.Args[0]
		}
		rsel, ok := rc.Fun.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		recv = m.origin(di, rsel.X, rc.Pos())
	}
	return false
}

// retryPolicy evaluates a failsafe-go retry policy: NewWithDefaults, or a
// builder chain ending in Build. Defaults: 3 attempts, no delay.
func (m *model) retryPolicy(di *defIndex, e ast.Expr) (backoff, bool) {
	v := m.origin(di, e, e.Pos())
	b := backoff{cap: Cap{Kind: CapKnown, N: 3}, deadline: Deadline{Kind: DeadlineNone}, wait: WaitNone, setting: "failsafe-go's default"}
	var chain []*ast.CallExpr
	for range 32 {
		c, ok := v.(*ast.CallExpr)
		if !ok {
			return b, false
		}
		callee := m.callee(c)
		if callee == nil || callee.Pkg() == nil || (callee.Pkg().Path() != retrypolicy && callee.Pkg().Path() != failsafe) {
			return b, false
		}
		if callee.Signature().Recv() == nil {
			if callee.Name() != "NewWithDefaults" && callee.Name() != "NewBuilder" {
				return b, false
			}
			b.waitPos, b.waitNode = c.Pos(), c
			break
		}
		chain = append(chain, c)
		sel, ok := c.Fun.(*ast.SelectorExpr)
		if !ok {
			return b, false
		}
		v = m.origin(di, sel.X, c.Pos())
	}
	jitter := false
	for i := len(chain) - 1; i >= 0; i-- {
		c := chain[i]
		arg := func(n int) ast.Expr {
			if n < len(c.Args) {
				return c.Args[n]
			}
			return nil
		}
		switch m.callee(c).Name() {
		case "WithMaxRetries", "WithMaxAttempts":
			extra := 1
			if m.callee(c).Name() == "WithMaxAttempts" {
				extra = 0
			}
			if n, ok := m.intConst(arg(0)); ok {
				if n < 0 {
					b.cap = Cap{Kind: CapNone, Pos: c.Pos()}
				} else {
					b.cap = Cap{Kind: CapKnown, N: int(n) + extra, Pos: c.Pos()}
				}
			} else {
				b.cap = Cap{Kind: CapBounded, Pos: c.Pos()}
			}
		case "WithMaxDuration":
			b.deadline = Deadline{Kind: DeadlineLibrary, Pos: c.Pos()}
		case "WithDelay":
			b.wait, b.waitPos, b.waitNode, b.setting = WaitConstant, c.Pos(), c, "retrypolicy WithDelay"
			if m.isZero(arg(0)) {
				b.wait = WaitNone
			}
		case "WithBackoff", "WithBackoffFactor":
			b.wait, b.waitPos, b.waitNode, b.setting = WaitGrowth, c.Pos(), c, "retrypolicy WithBackoff"
		case "WithRandomDelay", "WithRandomDelayFactor":
			b.wait, b.setting = WaitJittered, ""
		case "WithJitter", "WithJitterFactor":
			jitter = true
		}
	}
	if jitter && b.wait != WaitNone {
		b.wait = WaitJittered
	}
	return b, true
}

// retryableClient models retryablehttp.NewClient(): 4 retries (5 attempts),
// exponential backoff without jitter, no overall deadline; field
// assignments on the client change them (retryableSetting), on the local
// it is assigned to here, and on the struct field the package stores it
// in (storedClientSettings).
func (m *model) retryableClient(di *defIndex, s *Scope, call *ast.CallExpr) {
	s.Kind = Client
	s.Cap = Cap{Kind: CapKnown, N: 5, Pos: call.Pos()}
	s.Deadline = Deadline{Kind: DeadlineNone}
	s.Trigger = TriggerStatus
	s.Waits = []Wait{{Kind: WaitGrowth, Pos: call.Pos(), Node: call, Library: true, Setting: "retryablehttp.DefaultBackoff"}}
	for o, defs := range di.defs {
		for _, d := range defs {
			if d.rhs != call {
				continue
			}
			for _, fs := range di.fields[o] {
				m.retryableSetting(di, s, fs.field, fs.rhs, fs.pos)
			}
		}
	}
}

// retryableSetting applies to a go-retryablehttp client's scope s the
// assignment of rhs (read in di) to its field (at pos): RetryMax sets its
// cap, Backoff its wait.
func (m *model) retryableSetting(di *defIndex, s *Scope, field string, rhs ast.Expr, pos token.Pos) {
	m.res.clientSetting(s, field, rhs)
	switch field {
	case "RetryMax":
		s.Cap = m.retryMaxCap(di, rhs, pos)
		m.res.clientCap(rhs, s.Cap)
	case "Backoff":
		k := WaitUnknown
		if sel, ok := ast.Unparen(rhs).(*ast.SelectorExpr); ok {
			switch m.objName(sel.Sel) {
			case retryable + ".DefaultBackoff":
				k = WaitGrowth
			case retryable + ".LinearJitterBackoff", retryable + ".RateLimitLinearJitterBackoff":
				k = WaitJittered
			}
		}
		s.Waits = []Wait{{Kind: k, Pos: pos, Node: rhs, Library: true, Setting: "Backoff"}}
	}
}

// retryMaxCap is the cap a go-retryablehttp RetryMax value (read in di)
// gives: a constant's, or the default the package gives the field of its
// own the value is read from (c.RetryMax = cfg.MaxRetries, capDefault);
// bounded otherwise (a parameter, a computed value: the users' choice).
func (m *model) retryMaxCap(di *defIndex, rhs ast.Expr, pos token.Pos) Cap {
	if n, ok := m.intConst(rhs); ok {
		return Cap{Kind: CapKnown, N: int(n) + 1, Pos: pos}
	}
	if f := m.fieldOf(m.origin(di, rhs, pos)); f != nil {
		if n, ok := m.capDefault(f); ok {
			return Cap{Kind: CapKnown, N: int(n) + 1, Pos: pos}
		}
	}
	return Cap{Kind: CapBounded, Pos: pos}
}

// clientLit models &retryablehttp.Client{...}: a literal retries only when
// it sets RetryMax.
func (m *model) clientLit(di *defIndex, fn ast.Node, lit *ast.CompositeLit) *Scope {
	if m.typePath(lit) != retryable+".Client" {
		return nil
	}
	s := &Scope{Kind: Client, Node: lit, Func: fn, Pos: lit.Pos(), Library: retryable, Entry: retryable + ".Client", Name: "retryablehttp.Client",
		Deadline: Deadline{Kind: DeadlineNone}, Trigger: TriggerStatus}
	wait := Wait{Kind: WaitUnknown, Pos: lit.Pos(), Node: lit, Library: true}
	retries := false
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		m.res.clientSetting(s, kv.Key.(*ast.Ident).Name, kv.Value)
		switch kv.Key.(*ast.Ident).Name {
		case "RetryMax":
			c := m.retryMaxCap(di, kv.Value, kv.Pos())
			m.res.clientCap(kv.Value, c)
			if !oneAttempt(c) {
				retries = true
				s.Cap = c
			}
		case "Backoff":
			if sel, ok := ast.Unparen(kv.Value).(*ast.SelectorExpr); ok {
				switch m.objName(sel.Sel) {
				case retryable + ".DefaultBackoff":
					wait = Wait{Kind: WaitGrowth, Pos: kv.Pos(), Node: kv, Library: true, Setting: "retryablehttp.DefaultBackoff"}
				case retryable + ".LinearJitterBackoff", retryable + ".RateLimitLinearJitterBackoff":
					wait = Wait{Kind: WaitJittered, Pos: kv.Pos(), Node: kv, Library: true}
				}
			}
		}
	}
	if !retries {
		return nil
	}
	s.Waits = []Wait{wait}
	return s
}

// rican7 models retry.Retry(action, strategies...): with no limit it
// retries forever, with no wait it retries at once.
func (m *model) rican7(di *defIndex, s *Scope, call *ast.CallExpr) {
	s.Cap, s.Deadline = Cap{Kind: CapNone}, Deadline{Kind: DeadlineNone}
	wait := Wait{Kind: WaitNone, Pos: s.Pos, Node: call, Library: true, Setting: "no wait strategy"}
	opts, unknown := m.options(di, call, 1)
	if unknown {
		unknownOptions(s, &wait)
	}
	for _, a := range opts {
		oc, ok := m.origin(di, a, a.Pos()).(*ast.CallExpr)
		if !ok || m.callee(oc) == nil {
			unknownOptions(s, &wait)
			continue
		}
		switch m.callee(oc).Name() {
		case "Limit":
			s.Cap = m.countCap(oc.Args[0], oc.Pos(), false)
		case "Delay", "Wait":
			wait = Wait{Kind: WaitConstant, Pos: oc.Pos(), Node: oc, Library: true, Setting: "strategy." + m.callee(oc).Name()}
		case "Backoff":
			wait = Wait{Kind: WaitGrowth, Pos: oc.Pos(), Node: oc, Library: true, Setting: "strategy.Backoff"}
		case "BackoffWithJitter":
			wait = Wait{Kind: WaitJittered, Pos: oc.Pos(), Node: oc, Library: true}
		default:
			s.Cap, s.Deadline = Cap{Kind: CapUnknown}, Deadline{Kind: DeadlineUnknown}
		}
	}
	s.Waits = []Wait{wait}
}

// jpilloraKind classifies (*backoff.Backoff).Duration: jittered only when
// the Backoff sets Jitter: true.
func (m *model) jpilloraKind(di *defIndex, call *ast.CallExpr) WaitKind {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return WaitUnknown
	}
	lit, ok := m.origin(di, sel.X, call.Pos()).(*ast.CompositeLit)
	if !ok {
		return WaitUnknown
	}
	k := WaitGrowth
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Jitter" {
				if tv, ok := m.info.Types[kv.Value]; !ok || tv.Value == nil || constant.BoolVal(tv.Value) {
					k = WaitJittered
				}
			}
		}
	}
	for _, fs := range m.fieldSets(di, sel.X) {
		if fs.field == "Jitter" {
			k = WaitJittered
		}
	}
	return k
}
