package policy

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/passes/internal/flow"
	"github.com/idemlint/idemlint/passes/internal/names"
)

// RepeatsOnSuccess rejects an attempt whose pass repeats when it
// succeeded and leaves when it failed: a batch or a read loop that stops
// on the first error, not a retry of a failure.
func RepeatsOnSuccess(_ *Context, _ *flow.Loop, a *flow.Attempt) bool { return a.OnSuccess }

// JobScope rejects the attempts of a loop the model treats as a job scope
// (a consumer's delivery loop, in the handler its broker redelivers to):
// the framework's redelivery is the retry, reported on the job.
func JobScope(c *Context, l *flow.Loop, _ *flow.Attempt) bool {
	return c.Know.JobScope != nil && l.Syntax != nil && c.Know.JobScope(l.Syntax)
}

// Ticker rejects the attempts of a loop whose pass starts on a tick: its
// header receives from a time.Ticker's channel or time.Tick's (for range
// t.C, or a select with a case <-t.C). The ticker's period paces the work; a failure waits for the next
// round, it is not retried.
func Ticker(_ *Context, l *flow.Loop, _ *flow.Attempt) bool {
	if l.Header == nil {
		return false
	}
	for _, instr := range l.Header.Instrs {
		switch instr := instr.(type) {
		case *ssa.UnOp:
			if instr.Op == token.ARROW && tickerChan(instr.X) {
				return true
			}
		case *ssa.Select:
			for _, st := range instr.States {
				if st.Dir == types.RecvOnly && tickerChan(st.Chan) {
					return true
				}
			}
		}
	}
	return false
}

// tickerChan reports whether ch is a ticker's channel: the C field of a
// time.Ticker, or what time.Tick returns.
func tickerChan(ch ssa.Value) bool {
	switch ch := ch.(type) {
	case *ssa.UnOp:
		if fa, ok := ch.X.(*ssa.FieldAddr); ok && ch.Op == token.MUL {
			return isNamed(fa.X.Type(), "time", "Ticker")
		}
	case *ssa.Call:
		return staticIs(ch.Common(), "time.Tick")
	}
	return false
}

// timerChan reports whether ch is the C field of a time.Timer.
func timerChan(ch ssa.Value) bool {
	load, ok := ch.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	return ok && isNamed(fa.X.Type(), "time", "Timer")
}

// EINTR rejects an attempt whose pass repeats only through a test of its
// error against a system call's errno (err == syscall.EINTR, EAGAIN, or
// errors.Is(err, syscall.EADDRINUSE)): every way from the failure to the
// next pass passes such a test. A system call restarted, as the
// runtime's poller does, not an operation retried.
func EINTR(_ *Context, l *flow.Loop, a *flow.Attempt) bool {
	if errnoTest(a.If) {
		return true
	}
	found := false
	avoid := func(b *ssa.BasicBlock) bool {
		ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if ok && errnoTest(ifi) {
			found = true
			return true
		}
		return false
	}
	return !l.RepeatsAvoiding(a.Again, avoid) && found
}

// errnoTest reports whether ifi tests an error against an errno: a
// comparison with one, or errors.Is given one.
func errnoTest(ifi *ssa.If) bool {
	switch cond := ifi.Cond.(type) {
	case *ssa.BinOp:
		return isErrno(cond.X) || isErrno(cond.Y)
	case *ssa.UnOp:
		if cond.Op == token.NOT {
			if call, ok := cond.X.(*ssa.Call); ok {
				return errorsIsErrno(call)
			}
		}
	case *ssa.Call:
		return errorsIsErrno(cond)
	}
	return false
}

func errorsIsErrno(call *ssa.Call) bool {
	return staticIs(call.Common(), "errors.Is") && len(call.Call.Args) == 2 && isErrno(call.Call.Args[1])
}

func isErrno(v ssa.Value) bool {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	return isNamed(v.Type(), "syscall", "Errno") || isNamed(v.Type(), "golang.org/x/sys/unix", "Errno")
}

// NextItem rejects an attempt whose call works on another item each pass:
// one of its operands (the function value called among them, the
// elements and fields of a composite literal the pass builds, and the
// arguments of a call whose result it is) is an
// element the loop ranges over (a slice, array
// or map element, a channel or select receive), or a value the loop's
// header takes from a call each pass (b = next(b)) or advances by anything
// but a constant count (page = page + "x"). A failure is skipped for the next
// item, not retried.
func NextItem(_ *Context, l *flow.Loop, a *flow.Attempt) bool {
	seen := make(map[ssa.Value]bool)
	var item func(v ssa.Value, depth int) bool
	item = func(v ssa.Value, depth int) bool {
		if v == nil || seen[v] || depth > 8 {
			return false
		}
		seen[v] = true
		instr, ok := v.(ssa.Instruction)
		if !ok || instr.Block() == nil || !l.Contains(instr.Block()) {
			return false
		}
		switch v := v.(type) {
		case *ssa.Next:
			return true
		case *ssa.Lookup:
			return true
		case *ssa.UnOp:
			if v.Op == token.ARROW {
				return true
			}
			return item(v.X, depth+1)
		case *ssa.IndexAddr:
			return inducted(l, v.Index) || item(v.X, depth+1)
		case *ssa.Index:
			return inducted(l, v.Index) || item(v.X, depth+1)
		case *ssa.Extract:
			if _, ok := v.Tuple.(*ssa.Select); ok {
				return true // a value a select received
			}
			return item(v.Tuple, depth+1)
		case *ssa.FieldAddr:
			return item(v.X, depth+1)
		case *ssa.Field:
			return item(v.X, depth+1)
		case *ssa.ChangeType:
			return item(v.X, depth+1)
		case *ssa.Convert:
			return item(v.X, depth+1)
		case *ssa.MakeInterface:
			return item(v.X, depth+1)
		case *ssa.ChangeInterface:
			return item(v.X, depth+1)
		case *ssa.TypeAssert:
			return item(v.X, depth+1)
		case *ssa.BinOp:
			return item(v.X, depth+1) || item(v.Y, depth+1)
		case *ssa.Alloc:
			// a local variable, or a composite literal the pass builds
			// ([]string{it}, &req{Item: it}): what the loop stores in it
			// or in its elements and fields
			if stores(v, func(val ssa.Value) bool { return item(val, depth+1) }) {
				return true
			}
			for _, r := range *v.Referrers() {
				switch r := r.(type) {
				case *ssa.IndexAddr:
					if stores(r, func(val ssa.Value) bool { return item(val, depth+1) }) {
						return true
					}
				case *ssa.FieldAddr:
					if stores(r, func(val ssa.Value) bool { return item(val, depth+1) }) {
						return true
					}
				}
			}
		case *ssa.Slice:
			return item(v.X, depth+1)
		case *ssa.Call:
			// a value the pass builds from the item: a request made for
			// the ranged URL (http.NewRequest(ctx, "GET", u, nil)), a
			// decoder of its content (json.NewDecoder(bytes.NewReader(e.Content))),
			// what a view of it answers (meta.Accessor(event.Object)'s
			// GetResourceVersion())
			if v == a.Call {
				return false
			}
			if takesFromQueue(v) {
				return true
			}
			if v.Call.IsInvoke() && item(v.Call.Value, depth+1) {
				return true // a method of a value made from the item: meta.GetResourceVersion()
			}
			for _, arg := range v.Call.Args {
				if item(arg, depth+1) {
					return true
				}
			}
			return false
		case *ssa.Phi:
			if v.Block() != l.Header {
				// a value merged within the pass (a batch grown in
				// an inner loop): an item when one of its values is
				for _, e := range v.Edges {
					if item(e, depth+1) {
						return true
					}
				}
				return false
			}
			for i, e := range v.Edges {
				if !l.Contains(v.Block().Preds[i]) {
					continue
				}
				if call, ok := e.(*ssa.Call); ok && call != a.Call {
					return true // the header's next value: b = next(b)
				}
				if _, ok := e.(*ssa.BinOp); ok && !inducted(l, v) {
					return true // advanced each pass, not counted: page = page + "x"
				}
			}
		}
		return false
	}
	for _, arg := range a.Call.Call.Args {
		if item(arg, 0) {
			return true
		}
	}
	// the receiver of a method called through an interface, or the
	// function value called: the next function of a list is the next item
	return a.Call.Call.StaticCallee() == nil && item(a.Call.Call.Value, 0)
}

// stores reports whether a store to addr stores a value of which is true.
// takesFromQueue reports whether call takes items from a queue the
// receiver holds in a field (batch := w.q.takeInto(buf, n)): a method on a
// field's value that cannot fail and returns a slice of items (not of
// bytes: content, not items). A queue worker's next pass takes the next
// batch.
func takesFromQueue(call *ssa.Call) bool {
	cc := call.Common()
	var recv ssa.Value
	switch {
	case cc.IsInvoke():
		recv = cc.Value
	case cc.StaticCallee() != nil && cc.StaticCallee().Signature.Recv() != nil && len(cc.Args) > 0:
		recv = cc.Args[0]
	default:
		return false
	}
	load, ok := recv.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	if _, ok := load.X.(*ssa.FieldAddr); !ok {
		return false
	}
	sl, ok := call.Type().Underlying().(*types.Slice)
	if !ok {
		return false
	}
	if b, ok := sl.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Byte {
		return false
	}
	return true
}

func stores(addr ssa.Value, of func(ssa.Value) bool) bool {
	for _, r := range *addr.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == addr && of(st.Val) {
			return true
		}
	}
	return false
}

// inducted reports whether index is an induction variable of l, or one of
// its stepped values.
func inducted(l *flow.Loop, index ssa.Value) bool {
	for _, ind := range l.Inductions {
		if ind.Is(index) {
			return true
		}
	}
	return false
}

// ContextQuery rejects an attempt that is (context.Context).Err: a query
// of the context's cancellation, not an operation.
func ContextQuery(_ *Context, _ *flow.Loop, a *flow.Attempt) bool {
	return a.Call.Call.IsInvoke() && names.IsFull(a.Call.Call.Method, "(context.Context).Err")
}

// Poller rejects an attempt whose pass never leaves the loop after a
// success: every way from its error's nil test on success leads to the
// next pass, waiting on the way, and resets no count of failures (a
// reconnect loop sets attempt = 0 once connected: its waits are sized by
// the failures, a retry's). The loop runs every period whatever the
// call returned (a poller that processes every round); its failures are
// skipped for the next round, not retried.
func Poller(c *Context, l *flow.Loop, a *flow.Attempt) bool {
	if a.Test != flow.ErrNil || a.OnSuccess || !l.Repeats(a.Leave) || leaves(l, a.Leave) || resets(l, a.Leave) {
		return false
	}
	onSuccess := *a
	onSuccess.Again, onSuccess.Leave = a.Leave, a.Again
	return c.WaitsAgain(l, &onSuccess)
}

// resets reports whether a pass that takes e sets a variable of the loop
// back to a constant: a phi at l's header takes, on a back edge, a
// constant set on the way from e (directly, or stepped after a phi that
// merges it: attempt = 0 before the loop's attempt++).
func resets(l *flow.Loop, e flow.Edge) bool {
	if l.Header == nil {
		return false
	}
	from := l.PassFrom(e.To)
	// resetBy reports whether v, a value a back edge gives the header's
	// phi (stepped, merged by phis in the loop), is a constant set on the
	// way from e
	seen := make(map[ssa.Value]bool)
	var resetBy func(v ssa.Value) bool
	resetBy = func(v ssa.Value) bool {
		if seen[v] {
			return false
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.BinOp:
			return l.Contains(v.Block()) && resetBy(v.X)
		case *ssa.Phi:
			if !l.Contains(v.Block()) || v.Block() == l.Header {
				return false
			}
			for i, in := range v.Edges {
				if _, isConst := in.(*ssa.Const); isConst && from[v.Block().Preds[i]] {
					return true
				}
				if resetBy(in) {
					return true
				}
			}
		}
		return false
	}
	for _, instr := range l.Header.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		if flagOnly(phi) {
			continue // failed before or not: no count
		}
		for i, v := range phi.Edges {
			pred := l.Header.Preds[i]
			if l.IsBack(flow.Edge{From: pred, To: l.Header}) {
				if _, isConst := v.(*ssa.Const); (isConst && from[pred]) || resetBy(v) {
					return true
				}
			}
		}
	}
	return false
}

// flagOnly reports whether phi, a variable of a loop's header, is only
// stepped and compared with zero (errCount > 0, go-redis's subscription
// readers): it says whether a failure came before, it counts nothing (no
// bound, no wait sized by it).
func flagOnly(phi *ssa.Phi) bool {
	seen := map[ssa.Value]bool{}
	var only func(v ssa.Value) bool
	only = func(v ssa.Value) bool {
		if seen[v] {
			return true
		}
		seen[v] = true
		refs := v.Referrers()
		if refs == nil {
			return true
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.Phi:
				if !only(r) {
					return false
				}
			case *ssa.BinOp:
				switch r.Op {
				case token.ADD, token.SUB:
					if _, isConst := r.Y.(*ssa.Const); !isConst || !only(r) {
						return false
					}
				case token.GTR, token.LSS, token.EQL, token.NEQ, token.GEQ, token.LEQ:
					c, isConst := r.Y.(*ssa.Const)
					if r.X != v {
						c, isConst = r.X.(*ssa.Const)
					}
					if !isConst || c.Value == nil || c.Value.String() != "0" {
						return false
					}
				default:
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	if _, ok := phi.Type().Underlying().(*types.Basic); !ok {
		return false
	}
	return only(phi)
}

// leaves reports whether a pass that takes e can leave l before its next
// pass: an exit of l is reached from e without taking a back edge.
func leaves(l *flow.Loop, e flow.Edge) bool {
	if l.IsExit(e) {
		return true
	}
	for b := range l.PassFrom(e.To) {
		for _, s := range b.Succs {
			if l.IsExit(flow.Edge{From: b, To: s}) {
				return true
			}
		}
	}
	return false
}

// PredicateInScope rejects an attempt decided by anything but a nil test
// of its error in a loop held by another loop that the policies keep: a
// poll for a state inside a retry (a registration awaited before the
// request is sent again) paces the poll, it is not a retry of its own.
func PredicateInScope(c *Context, l *flow.Loop, a *flow.Attempt) bool {
	if a.Test == flow.ErrNil {
		return false
	}
	for o := c.Pkg.Outer(l); o != nil; o = c.Pkg.Outer(o) {
		if len(c.Judge(o).Kept) > 0 {
			return true
		}
	}
	return false
}

// ReadsInput rejects an attempt that is a method of a reader (a type with
// io.Reader's Read: each call reads what comes next), a function given a
// reader and a buffer to fill (io.ReadFull, readsFrom), or the Accept of a
// listener (its result a net.Conn: each call takes the next connection):
// a failure there is waited out, not retried. A reader's method is given
// at most what shapes a read (a buffer to fill, a size, a limit, a
// delimiter, a deadline); one given anything else (a topic's name, a key,
// a request) names what it asks for: a request and its reply, not the
// next input (readArgs).
func ReadsInput(_ *Context, _ *flow.Loop, a *flow.Attempt) bool {
	var fn *types.Func
	if a.Call.Call.IsInvoke() {
		fn = a.Call.Call.Method
	} else if callee := a.Call.Call.StaticCallee(); callee != nil {
		fn, _ = callee.Object().(*types.Func)
	}
	if fn == nil {
		// a function value (minio-go's var readFull = func(r io.Reader,
		// buf []byte) ...): by its signature
		return !a.Call.Call.IsInvoke() && readsFrom(a.Call.Call.Signature())
	}
	if fn.Signature().Recv() == nil {
		return readsFrom(fn.Signature())
	}
	recv := fn.Signature().Recv().Type()
	if types.Implements(recv, reader) || types.Implements(types.NewPointer(recv), reader) {
		return readArgs(fn.Signature())
	}
	res := fn.Signature().Results()
	return fn.Name() == "Accept" && res.Len() == 2 && isNamed(res.At(0).Type(), "net", "Conn")
}

// readsFrom reports whether a function of signature sig reads from a
// reader it is given into a buffer it is given (io.ReadFull(r, buf),
// io.ReadAtLeast, a package's readFull(reader, buf)): its other
// parameters shape the read (readArgs).
func readsFrom(sig *types.Signature) bool {
	var rd, buf bool
	var rest []*types.Var
	for p := range sig.Params().Variables() {
		t := p.Type()
		switch {
		case !rd && !isByteSlice(t) && (types.Implements(t, reader) || types.Implements(types.NewPointer(t), reader)):
			rd = true
		case isByteSlice(t):
			buf = true
			rest = append(rest, p)
		default:
			rest = append(rest, p)
		}
	}
	return rd && buf && readArgs(types.NewSignatureType(nil, nil, nil, types.NewTuple(rest...), nil, false))
}

func isByteSlice(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// readsError reports whether a's decision reads an error its result
// carries: through errors.Is or errors.As, or a comparison of an error
// read from the result itself (not through another call: a predicate's
// own error is no reply's).
func readsError(a *flow.Attempt) bool {
	if flow.IsErrorsIsAs(a.Pred) {
		return true
	}
	if a.Pred != nil {
		return false
	}
	cmp, ok := a.If.Cond.(*ssa.BinOp)
	if !ok || (cmp.Op != token.EQL && cmp.Op != token.NEQ) {
		return false
	}
	return isError(cmp.X.Type()) || isError(cmp.Y.Type())
}

// isError reports whether t is an error: the error interface or a type
// that implements it (an error code).
func isError(t types.Type) bool {
	if _, ok := t.Underlying().(*types.Interface); ok {
		return types.Identical(t, errorType)
	}
	return types.Implements(t, errorIface) || types.Implements(types.NewPointer(t), errorIface)
}

var (
	errorType  = types.Universe.Lookup("error").Type()
	errorIface = errorType.Underlying().(*types.Interface)
)

// readArgs reports whether each parameter of sig is a read's: a byte
// slice to fill, a number or a deadline (a time.Time).
func readArgs(sig *types.Signature) bool {
	for p := range sig.Params().Variables() {
		if isNamed(p.Type(), "time", "Time") {
			continue
		}
		switch t := p.Type().Underlying().(type) {
		case *types.Basic:
			if t.Info()&types.IsNumeric == 0 {
				return false
			}
		case *types.Slice:
			if b, ok := t.Elem().Underlying().(*types.Basic); !ok || b.Kind() != types.Byte {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// reader is io.Reader, built here so that a package need not import io.
var reader = func() *types.Interface {
	bytes := types.NewSlice(types.Typ[types.Byte])
	sig := types.NewSignatureType(nil, nil, nil,
		types.NewTuple(types.NewParam(token.NoPos, nil, "p", bytes)),
		types.NewTuple(types.NewParam(token.NoPos, nil, "n", types.Typ[types.Int]),
			types.NewParam(token.NoPos, nil, "err", types.Universe.Lookup("error").Type())), false)
	return types.NewInterfaceType([]*types.Func{types.NewFunc(token.NoPos, nil, "Read", sig)}, nil).Complete()
}()

// PollForState rejects an attempt decided by a predicate or a comparison
// on a result that is no response (Knowledge.Response): a job's state, a
// count, a status string. The loop waits for a state, it does not retry
// a failed request. A type assertion on the result (a typed failure
// reply) is a failed result, not a state, and so is an error the result
// carries (a reply's error code), read with errors.Is or errors.As or
// compared: a state is never an error (readsError). A call's own bool
// result is a state too when every failure of the call leaves the loop
// (done, err := check(): a condition polled until done).
func PollForState(c *Context, l *flow.Loop, a *flow.Attempt) bool {
	if a.Test == flow.BoolResult {
		// done, err := check(): a state when the call's every failure
		// leaves the loop (a condition's contract); a bool with no such
		// test asks for another attempt (again, err := f()). A loop with
		// an exit of its own, or a cycle, is a retry helper's: it counts
		// or times its polls (wait.ExponentialBackoff's steps, sarama's
		// attempts remaining)
		repeats, found := l.RepeatsOnFailure(a.Call)
		return found && !repeats && l.Site() == nil && leavesOnlyOn(l, a)
	}
	if a.Test != flow.Predicate && a.Test != flow.ResultTest {
		return false
	}
	if ex, ok := a.If.Cond.(*ssa.Extract); ok {
		if _, ok := ex.Tuple.(*ssa.TypeAssert); ok {
			return false
		}
	}
	if readsError(a) {
		return false
	}
	res := a.Call.Call.Signature().Results()
	for i := 0; i < res.Len()-1; i++ { // the last is the error
		if c.Know.Response != nil && c.Know.Response(res.At(i).Type()) {
			return false
		}
	}
	return true
}

// FailureRejoins rejects an attempt whose pass goes on to the next one
// whether it failed or not, and whose failure, after what it does of its
// own (logs it, reports it, reconnects once), goes on to where the
// success goes, with no wait of its own: a periodic task (etcd's
// autoSync, a health check), a dispatcher serving a trigger channel. The
// failure is handled, not retried: the next call comes as it would after
// a success. A failure that waits on its own way (a backoff), or goes to
// the next pass by a way of its own (continue after setting a shorter
// wait), is a retry.
func FailureRejoins(c *Context, l *flow.Loop, a *flow.Attempt) bool {
	if a.Test != flow.ErrNil || a.Leave.To == nil || !l.Repeats(a.Leave) || l.Site() != nil {
		return false
	}
	// the block the success goes on to, which the failure's every way must
	// reach; when the success goes straight to the next pass, the
	// failure's ways must go there too
	straight := l.IsBack(a.Leave)
	ok := map[*ssa.BasicBlock]bool{a.Leave.To: !straight}
	if successLeaves(l, a) {
		return false // a retry until a success that leaves (a status retried)
	}
	recv := receivedFields(l)
	// every way of the failure reaches it, waiting nowhere, or leaves the
	// loop
	seen := make(map[*ssa.BasicBlock]bool)
	stack := []*ssa.BasicBlock{a.Again.To}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] || ok[b] || !l.Contains(b) {
			continue
		}
		seen[b] = true
		for _, instr := range b.Instrs {
			if c.waitsAt(instr) {
				return false
			}
			if sel, isSel := instr.(*ssa.Select); isSel && sel.Blocking {
				return false
			}
			if signals(instr, recv, 1) {
				return false // the failure signals the loop itself (sarama's triggerRedispatch)
			}
		}
		for _, s := range b.Succs {
			if l.IsBack(flow.Edge{From: b, To: s}) {
				if straight {
					continue // to the next pass, as the success
				}
				return false // a way of its own to the next pass
			}
			stack = append(stack, s)
		}
	}
	return true
}

// successLeaves reports whether an exit of l is reached from a's success
// before the next pass and not through the loop's header or its count's
// bound: the success is judged further (a status) and may leave.
func successLeaves(l *flow.Loop, a *flow.Attempt) bool {
	if l.IsBack(a.Leave) {
		return false
	}
	seen := make(map[*ssa.BasicBlock]bool)
	stack := []*ssa.BasicBlock{a.Leave.To}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] || b == l.Header {
			continue
		}
		seen[b] = true
		for _, s := range b.Succs {
			e := flow.Edge{From: b, To: s}
			switch {
			case l.IsBack(e), boundExit(l, e):
			case !l.Contains(s):
				if aborts(s) {
					continue // a panic or a call that never returns (t.Fatal) is no success
				}
				return true
			default:
				stack = append(stack, s)
			}
		}
		if len(b.Succs) == 0 && !aborts(b) {
			return true // a return
		}
	}
	return false
}

// aborts reports whether b ends in a panic: the builder's after a call
// that never returns (t.Fatal, log.Fatal, os.Exit), or the code's own.
func aborts(b *ssa.BasicBlock) bool {
	_, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Panic)
	return ok
}

// boundExit reports whether e is an exit of l on its induction variable's
// bound (a range over an integer tests its bound after the pass): the
// loop's own count, taken after a failure as after a success, judges
// nothing.
func boundExit(l *flow.Loop, e flow.Edge) bool {
	for _, b := range l.Bounds {
		if b.Exit == e {
			return true
		}
	}
	return false
}

// receivedFields are the struct fields of the channels l receives from
// (a receive, a select's receive case).
func receivedFields(l *flow.Loop) map[*types.Var]bool {
	out := make(map[*types.Var]bool)
	for _, b := range l.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.UnOp:
				if instr.Op == token.ARROW {
					if f := chanField(instr.X); f != nil {
						out[f] = true
					}
				}
			case *ssa.Select:
				for _, st := range instr.States {
					if st.Dir == types.RecvOnly {
						if f := chanField(st.Chan); f != nil {
							out[f] = true
						}
					}
				}
			}
		}
	}
	return out
}

// chanField is the struct field a channel value is loaded from, or nil.
func chanField(ch ssa.Value) *types.Var {
	load, ok := ch.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	st, ok := typeparamsDeref(fa.X.Type()).Underlying().(*types.Struct)
	if !ok || fa.Field >= st.NumFields() {
		return nil
	}
	return st.Field(fa.Field)
}

func typeparamsDeref(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// signals reports whether instr sends on a channel field of fields, by
// itself or in a function of the package it calls (to depth calls).
func signals(instr ssa.Instruction, fields map[*types.Var]bool, depth int) bool {
	if len(fields) == 0 {
		return false
	}
	switch instr := instr.(type) {
	case *ssa.Send:
		return fields[chanField(instr.Chan)]
	case *ssa.Select:
		for _, st := range instr.States {
			if st.Dir == types.SendOnly && fields[chanField(st.Chan)] {
				return true
			}
		}
	case ssa.CallInstruction:
		callee := instr.Common().StaticCallee()
		if depth == 0 || callee == nil || callee.Pkg == nil || callee.Pkg != instr.Parent().Pkg {
			return false
		}
		for _, b := range callee.Blocks {
			for _, in := range b.Instrs {
				if signals(in, fields, depth-1) {
					return true
				}
			}
		}
	}
	return false
}

// leavesOnlyOn reports whether every exit of l is taken on a's own
// results (at its decision's branch or at its error's nil test), on a
// stop (stopTest: a context, a clock, a stop channel) or on what another
// call of the pass answered (onOtherResult: consul's lock poll returns
// when its read of the lock fails or finds it held), not on a count.
func leavesOnlyOn(l *flow.Loop, a *flow.Attempt) bool {
	fail, _, found := flow.Outcome(a.Call)
	for _, x := range l.Exits {
		if x.From != a.If.Block() && (!found || x.From != fail.From) && !stopTest(x.From) && !onOtherResult(l, x.From, a.Call) {
			return false
		}
	}
	return true
}

// onOtherResult reports whether the branch that ends b reads the results
// of a call of l other than call, and no induction variable of l: an exit
// on what the pass read (a failed read, a lock found held), not on how
// often it came round.
func onOtherResult(l *flow.Loop, b *ssa.BasicBlock, call *ssa.Call) bool {
	ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	seen := make(map[ssa.Value]bool)
	result, counted := false, false
	var walk func(v ssa.Value)
	walk = func(v ssa.Value) {
		if v == nil || seen[v] || counted {
			return
		}
		seen[v] = true
		if inducted(l, v) {
			counted = true
			return
		}
		switch v := v.(type) {
		case *ssa.Call:
			if v != call && v.Block() != nil && l.Contains(v.Block()) && !returnsBoolOnly(v) {
				result = true
			}
		case *ssa.Extract:
			walk(v.Tuple)
		case *ssa.UnOp:
			walk(v.X)
		case *ssa.BinOp:
			walk(v.X)
			walk(v.Y)
		case *ssa.FieldAddr:
			walk(v.X)
		case *ssa.Field:
			walk(v.X)
		case *ssa.Phi:
			counted = true // a value carried across passes: a count or a flag
		}
	}
	walk(ifi.Cond)
	return result && !counted
}

// returnsBoolOnly reports whether call's one result is a bool: a
// predicate over what it is given, not a result of the pass.
func returnsBoolOnly(call *ssa.Call) bool {
	b, ok := call.Type().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// StatusInPlace rejects an attempt whose every failure leaves the loop
// (its error's nil test never leads to the next pass) and whose next pass
// is decided by its other results read in place: a comparison
// (resp.StatusCode != 200), or a predicate given only what was read of
// them (transientCode(resp.StatusCode)), not the response or the error
// itself (shouldRetry(resp), Datadog's CallAPI). A loop that gives up on
// every transport error and repeats until the status is right is more
// often a poll for a result than a retry (docs/architecture.md, Loops);
// retrystatus reads the statuses it repeats on by itself. An error the
// result carries (a reply's error code) is a failed result, not a status.
func StatusInPlace(c *Context, l *flow.Loop, a *flow.Attempt) bool {
	if a.Test != flow.ResultTest && a.Test != flow.Predicate {
		return false
	}
	if ex, ok := a.If.Cond.(*ssa.Extract); ok {
		if _, ok := ex.Tuple.(*ssa.TypeAssert); ok {
			return false // a typed failure reply, as PollForState
		}
	}
	if readsError(a) {
		return false // the reply's own error is a failed result, as PollForState
	}
	if repeats, found := l.RepeatsOnFailure(a.Call); !found || repeats {
		return false
	}
	return !predicateOnResult(c, l, a.Call)
}

// predicateOnResult reports whether a branch of l tests a bool-returning
// call (or its negation) given, as it is, a result of call that is its
// error or a response (Knowledge.Response): shouldRetry(resp).
func predicateOnResult(c *Context, l *flow.Loop, call *ssa.Call) bool {
	tup, ok := call.Type().(*types.Tuple)
	if !ok {
		return false
	}
	var uses []ssa.Instruction
	for _, r := range *call.Referrers() {
		ex, ok := r.(*ssa.Extract)
		if !ok || (ex.Index != tup.Len()-1 && (c.Know.Response == nil || !c.Know.Response(ex.Type()))) {
			continue
		}
		uses = append(uses, *ex.Referrers()...)
		for _, u := range *ex.Referrers() {
			if mi, ok := u.(*ssa.MakeInterface); ok {
				uses = append(uses, *mi.Referrers()...)
			}
		}
	}
	for _, u := range uses {
		pred, ok := u.(*ssa.Call)
		if !ok || pred.Block() == nil || !l.Contains(pred.Block()) {
			continue
		}
		if staticIs(pred.Common(), "errors.Is", "errors.As") {
			continue // holds only for an error
		}
		// the call's bool result, alone or beside others (d, again :=
		// backoffFor(res, n))
		vals := []ssa.Value{pred}
		if _, ok := pred.Type().(*types.Tuple); ok {
			vals = nil
			for _, r := range *pred.Referrers() {
				if ex, ok := r.(*ssa.Extract); ok {
					vals = append(vals, ex)
				}
			}
		}
		for _, v := range vals {
			if t, ok := v.Type().Underlying().(*types.Basic); ok && t.Kind() == types.Bool && branches(l, v) {
				return true
			}
		}
	}
	return false
}

// branches reports whether v, or its negation, is the condition of a
// branch of l.
func branches(l *flow.Loop, v ssa.Value) bool {
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.If:
			if l.Contains(r.Block()) {
				return true
			}
		case *ssa.UnOp:
			if r.Op == token.NOT && branches(l, r) {
				return true
			}
		}
	}
	return false
}

// PredicateMustWait rejects an attempt decided by anything but a nil test
// of its error (a predicate, a bool result, a comparison on a result, an
// errors.Is) when the pass does not wait before the attempt is made
// again: such a loop reads input more often than it retries.
func PredicateMustWait(c *Context, l *flow.Loop, a *flow.Attempt) bool {
	return a.Test != flow.ErrNil && !c.WaitsAgain(l, a)
}

// WaitsOrCounts rejects an attempt that is made again with no wait and
// no count: the loop has no exit on an induction variable (Bounds) and no
// wait lies between a failure and the attempt's next call. Neither
// waiting nor counting is more often a read loop than a retry. A cycle of
// the call graph must wait: a call of itself with no wait is a walk.
//
// A loop that waits before it makes the call again after a failed result
// (a branch on a result beside the error: resp.StatusCode == 404) waits,
// though its transport errors come round at once: a retry.
func WaitsOrCounts(c *Context, l *flow.Loop, a *flow.Attempt) bool {
	if c.WaitsAgain(l, a) || c.waitsOnResult(l, a) {
		return false
	}
	if l.Site() != nil {
		return !countsByParam(l)
	}
	return len(l.Bounds) == 0
}

// countsByParam reports whether cycle l's call of itself passes one of
// the function's parameters stepped by a constant (retriesLeft-1) that
// the function compares (retriesLeft <= 0): a recursion that counts its
// attempts (rollbar-go's doSend), not a walk.
func countsByParam(l *flow.Loop) bool {
	site := l.Site()
	if site == nil || site.Call.StaticCallee() != l.Fn {
		return false
	}
	for i, arg := range site.Call.Args {
		step, ok := arg.(*ssa.BinOp)
		if !ok || (step.Op != token.SUB && step.Op != token.ADD) || i >= len(l.Fn.Params) {
			continue
		}
		p := l.Fn.Params[i]
		if step.X != ssa.Value(p) {
			continue
		}
		if _, ok := step.Y.(*ssa.Const); !ok {
			continue
		}
		for _, r := range *p.Referrers() {
			if cmp, ok := r.(*ssa.BinOp); ok && flow.IsComparison(cmp.Op) {
				for _, u := range *cmp.Referrers() {
					if _, ok := u.(*ssa.If); ok {
						return true
					}
				}
			}
		}
	}
	return false
}

// waitsOnResult reports whether a pass waits before a's call again on
// the way from an edge, leading to the next pass, of a branch of l that
// reads a result of the call beside its error (through fields, loads and
// operators).
func (c *Context) waitsOnResult(l *flow.Loop, a *flow.Attempt) bool {
	tup, ok := a.Call.Type().(*types.Tuple)
	if !ok || l.Site() != nil {
		return false
	}
	var work []ssa.Value
	seen := make(map[ssa.Value]bool)
	for _, r := range *a.Call.Referrers() {
		if ex, ok := r.(*ssa.Extract); ok && ex.Index < tup.Len()-1 {
			work = append(work, ex)
		}
	}
	for len(work) > 0 && len(seen) < 64 {
		v := work[0]
		work = work[1:]
		if seen[v] {
			continue
		}
		seen[v] = true
		for _, r := range *v.Referrers() {
			if r.Block() == nil || !l.Contains(r.Block()) {
				continue
			}
			switch r := r.(type) {
			case *ssa.If:
				b := r.Block()
				for _, s := range b.Succs {
					e := flow.Edge{From: b, To: s}
					again := *a
					again.Again = e
					if l.Repeats(e) && c.WaitsAgain(l, &again) {
						return true
					}
				}
			case *ssa.FieldAddr, *ssa.Field, *ssa.UnOp, *ssa.BinOp:
				work = append(work, r.(ssa.Value))
			}
		}
	}
	return false
}

// FailureLeavesPass rejects the attempt of a call-graph cycle whose
// failure does not leave the pass: the code the failure path runs without
// calling the function again is also run on success (a call on both
// sides), so the call after it is made whatever the attempt did.
func FailureLeavesPass(_ *Context, l *flow.Loop, a *flow.Attempt) bool {
	site := l.Site()
	if site == nil {
		return false
	}
	fromAgain := reach(a.Again.To, site.Block())
	fromLeave := reach(a.Leave.To, site.Block())
	for b := range fromAgain {
		if fromLeave[b] && b != site.Block() && holdsCall(b) {
			return true
		}
	}
	return false
}

// reach returns the blocks reached from b without passing stop.
func reach(b, stop *ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	seen := make(map[*ssa.BasicBlock]bool)
	stack := []*ssa.BasicBlock{b}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == nil || seen[b] {
			continue
		}
		seen[b] = true
		if b != stop {
			stack = append(stack, b.Succs...)
		}
	}
	return seen
}

func holdsCall(b *ssa.BasicBlock) bool {
	for _, instr := range b.Instrs {
		if _, ok := instr.(ssa.CallInstruction); ok {
			return true
		}
	}
	return false
}

// Nested rejects an attempt of a loop held by another loop (or, for a
// yield closure, the loop around its range statement) that retries the
// same call: the outer loop is the retry, the inner one a step of it (a
// label a goto jumps back to, inside a counted loop). An outer loop that
// retries what the inner loop ended with (its decision past the inner
// loop) retries the inner retry: both are retries (nestedretry).
func Nested(c *Context, l *flow.Loop, a *flow.Attempt) bool {
	for o := c.Pkg.Outer(l); o != nil; o = c.Pkg.Outer(o) {
		for _, oa := range o.Attempts() {
			if oa.Call == a.Call && !oa.OnSuccess && l.Contains(oa.If.Block()) {
				return true
			}
		}
	}
	return false
}

// WaitsAgain reports whether a pass that takes a's Again edge waits before
// it makes a's call again: a call that waits (Knowledge.Waits: a time
// function, a library's, or a function whose wait summary says so), a receive from a
// timer's or a ticker's channel, or a blocking select on the way from the edge to the loop's next pass and on to the call; for a
// range-over-func loop, an iterator of the package that waits between its
// yields; for a Reschedule, time.AfterFunc's delay.
func (c *Context) WaitsAgain(l *flow.Loop, a *flow.Attempt) bool {
	switch l.Kind {
	case flow.Reschedule:
		return true // time.AfterFunc's delay
	case flow.Yield:
		if c.iteratorWaits(l) {
			return true
		}
	}
	start := a.Again.To
	if start == nil {
		return false
	}
	seen := make(map[*ssa.BasicBlock]bool)
	stack := []*ssa.BasicBlock{start}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] || !l.Contains(b) {
			continue
		}
		seen[b] = true
		for _, instr := range b.Instrs {
			if b == a.Call.Block() && instr == ssa.Instruction(a.Call) {
				break
			}
			if c.waitsAt(instr) {
				return true
			}
			if sel, ok := instr.(*ssa.Select); ok && sel.Blocking {
				return true // blocks until a case is ready: a wait of unknown length
			}
		}
		if b == a.Call.Block() || (l.Site() != nil && b == l.Site().Block()) {
			continue // the attempt, or the call that starts the next pass
		}
		stack = append(stack, b.Succs...)
	}
	return false
}

// iteratorWaits reports whether the iterator a range-over-func loop
// ranges over is a function of the package that waits between its yields
// (waitsIn): the function given the loop's yield closure, or the function
// that a call of the package returns there (for range retryTimer(ctx, n)).
func (c *Context) iteratorWaits(l *flow.Loop) bool {
	parent := l.Fn.Parent()
	if parent == nil {
		return false
	}
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok || !givenClosure(call.Common(), l.Fn) {
				continue
			}
			for _, it := range returnedFuncs(call.Common().Value) {
				if c.waitsIn(it) {
					return true
				}
			}
		}
	}
	return false
}

// givenClosure reports whether fn, or a closure of it, is an argument of cc.
func givenClosure(cc *ssa.CallCommon, fn *ssa.Function) bool {
	for _, arg := range cc.Args {
		if arg == ssa.Value(fn) {
			return true
		}
		if mc, ok := arg.(*ssa.MakeClosure); ok && mc.Fn == ssa.Value(fn) {
			return true
		}
	}
	return false
}

// returnedFuncs returns the functions v may be: v itself, or what the
// static callee that made v returns (a function or closure literal).
func returnedFuncs(v ssa.Value) []*ssa.Function {
	switch v := v.(type) {
	case *ssa.Function:
		return []*ssa.Function{v}
	case *ssa.MakeClosure:
		if fn, ok := v.Fn.(*ssa.Function); ok {
			return []*ssa.Function{fn}
		}
	case *ssa.Call:
		callee := v.Call.StaticCallee()
		if callee == nil {
			return nil
		}
		var out []*ssa.Function
		for _, b := range callee.Blocks {
			if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && len(ret.Results) == 1 {
				r := ret.Results[0]
				if ct, ok := r.(*ssa.ChangeType); ok {
					r = ct.X // a func literal returned as iter.Seq
				}
				switch r := r.(type) {
				case *ssa.Function:
					out = append(out, r)
				case *ssa.MakeClosure:
					if fn, ok := r.Fn.(*ssa.Function); ok {
						out = append(out, fn)
					}
				}
			}
		}
		return out
	}
	return nil
}

// waitsAt reports whether instr waits: a call that waits (waits), or a
// receive, alone or in a select, from a timer's or a ticker's channel
// (<-timer.C after a NewTimer or a Reset).
func (c *Context) waitsAt(instr ssa.Instruction) bool {
	switch instr := instr.(type) {
	case ssa.CallInstruction:
		return c.waits(instr.Common())
	case *ssa.UnOp:
		return instr.Op == token.ARROW && (tickerChan(instr.X) || timerChan(instr.X))
	case *ssa.Select:
		for _, st := range instr.States {
			if st.Dir == types.RecvOnly && (tickerChan(st.Chan) || timerChan(st.Chan)) {
				return true
			}
		}
	}
	return false
}

// waits reports whether the call cc waits: its static callee is a
// function Knowledge.Waits names, or a function literal of the package
// (which has no summary of its own) with an instruction that waits.
func (c *Context) waits(cc *ssa.CallCommon) bool {
	fn := cc.StaticCallee()
	if fn == nil {
		return false
	}
	if fn.Object() == nil && fn.Parent() != nil {
		return c.waitsIn(fn) // a literal, read in place
	}
	obj, ok := fn.Object().(*types.Func)
	return ok && c.Know.Waits != nil && c.Know.Waits(obj)
}

// waitsIn reports whether an instruction of fn waits (waitsAt).
func (c *Context) waitsIn(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c.waitsAt(instr) {
				return true
			}
		}
	}
	return false
}

func isNamed(t types.Type, path, name string) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}

func staticIs(cc *ssa.CallCommon, full ...string) bool {
	fn := cc.StaticCallee()
	if fn == nil {
		return false
	}
	obj, ok := fn.Object().(*types.Func)
	return ok && names.IsFull(obj, full...)
}

// TakesNextItem rejects the attempt of a worker, a poller, a subscription
// reader or a queue drainer: a loop that never leaves on success (its
// exits past a success, and its loop condition, test only a stop: a
// context, a clock, a stop channel), does not count its failures (no
// variable of the loop set back to a constant), and whose attempt takes
// an item (takesItem). The pass after a failure takes the next item, as
// the pass after a success does: the failure's wait paces the source, it
// does not back off a retried call.
func TakesNextItem(_ *Context, l *flow.Loop, a *flow.Attempt) bool {
	if a.Test != flow.ErrNil || a.OnSuccess || l.Header == nil || resetsAnywhere(l) || !takesItem(l, a) {
		return false
	}
	for _, e := range l.Exits {
		if e.From == l.Header && !stopTest(e.From) {
			return false // a loop condition on a bound or a flag
		}
	}
	// the exits a success can reach within its pass
	if l.IsExit(a.Leave) {
		return false
	}
	for b := range l.PassFrom(a.Leave.To) {
		for _, s := range b.Succs {
			if l.IsExit(flow.Edge{From: b, To: s}) && !stopTest(b) {
				return false
			}
		}
	}
	return true
}

// resetsAnywhere reports whether a back edge of l gives a phi of its
// header a constant, directly or through a phi of the loop: a count the
// loop sets back (failures = 0 after a success).
func resetsAnywhere(l *flow.Loop) bool {
	for _, b := range l.Blocks {
		for _, s := range b.Succs {
			if l.IsBack(flow.Edge{From: b, To: s}) && resets(l, flow.Edge{From: b, To: s}) {
				return true
			}
		}
	}
	return false
}

// stopTest reports whether the branch that ends b tests a stop: a
// context's Err or Done, a clock (time.Now, time.Since, time.Until, a
// time.Time's Before or After), a constant, or which case of a select
// over a context's Done or a stop channel (chan struct{}) fired.
func stopTest(b *ssa.BasicBlock) bool {
	ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return true // a jump: no test
	}
	seen := make(map[ssa.Value]bool)
	var stop func(v ssa.Value) bool
	stop = func(v ssa.Value) bool {
		if seen[v] {
			return false
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Const:
			return true
		case *ssa.UnOp:
			return stop(v.X)
		case *ssa.BinOp:
			if isNilConstant(v.Y) || isIntConstant(v.Y) {
				return stop(v.X)
			}
			if isOrdering(v.Op) && (clock(v.X) || clock(v.Y)) {
				return true // time.Since(start) > o.WaitTime: a deadline, whatever its length
			}
			return stop(v.X) && stop(v.Y)
		case *ssa.Call:
			return staticIs(v.Common(), "time.Now", "time.Since", "time.Until", "(time.Time).Before", "(time.Time).After") ||
				(v.Call.IsInvoke() && names.IsFull(v.Call.Method, "(context.Context).Err", "(context.Context).Done"))
		case *ssa.Extract:
			if sel, ok := v.Tuple.(*ssa.Select); ok && v.Index == 0 {
				for _, st := range sel.States {
					if st.Dir == types.RecvOnly && stopChan(st.Chan) {
						return true
					}
				}
				return false
			}
			return stop(v.Tuple)
		}
		return false
	}
	return stop(ifi.Cond)
}

// clock reports whether v is a time the clock reads: time.Since or
// time.Until, or the difference of a time.Time with another.
func clock(v ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	return ok && staticIs(call.Common(), "time.Since", "time.Until", "(time.Time).Sub")
}

func isOrdering(op token.Token) bool {
	return op == token.LSS || op == token.LEQ || op == token.GTR || op == token.GEQ
}

// stopChan reports whether ch is a context's Done or a chan struct{}.
func stopChan(ch ssa.Value) bool {
	if call, ok := ch.(*ssa.Call); ok && call.Call.IsInvoke() && names.IsFull(call.Call.Method, "(context.Context).Done") {
		return true
	}
	c, ok := ch.Type().Underlying().(*types.Chan)
	if !ok {
		return false
	}
	s, ok := c.Elem().Underlying().(*types.Struct)
	return ok && s.NumFields() == 0
}

func isNilConstant(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}

func isIntConstant(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.Value != nil
}

// takesItem reports whether attempt a hands the pass an item: a result
// beside its error that the pass uses, none of which is closed (an
// io.Closer: a connection, a session), given to a call in a loop nested
// in l (a stream read until it breaks), or carried into the next attempt
// (the attempt is given a value the loop's header takes from it). An
// attempt that returns only its error takes nothing.
func takesItem(l *flow.Loop, a *flow.Attempt) bool {
	tup, ok := a.Call.Type().(*types.Tuple)
	if !ok {
		return false
	}
	item := false
	for _, r := range *a.Call.Referrers() {
		ex, ok := r.(*ssa.Extract)
		if !ok || ex.Index == tup.Len()-1 || len(*ex.Referrers()) == 0 {
			continue
		}
		t := ex.Type()
		if types.Implements(t, closer) || (!types.IsInterface(t) && types.Implements(types.NewPointer(t), closer)) {
			return false
		}
		if servedInLoop(l, ex) || feedsAttempt(l, ex, a.Call) {
			return false
		}
		item = true
	}
	return item
}

// closer is io.Closer, built here so that a package need not import io.
var closer = func() *types.Interface {
	sig := types.NewSignatureType(nil, nil, nil, nil,
		types.NewTuple(types.NewParam(token.NoPos, nil, "", types.Universe.Lookup("error").Type())), false)
	return types.NewInterfaceType([]*types.Func{types.NewFunc(token.NoPos, nil, "Close", sig)}, nil).Complete()
}()

// servedInLoop reports whether v is the receiver or an argument of a call
// made in a loop nested in l.
func servedInLoop(l *flow.Loop, v ssa.Value) bool {
	for _, r := range *v.Referrers() {
		call, ok := r.(ssa.CallInstruction)
		if !ok || call.Block() == nil {
			continue
		}
		for _, child := range l.Children {
			if child.Contains(call.Block()) {
				return true
			}
		}
	}
	return false
}

// feedsAttempt reports whether call is given, directly or through a few
// steps, a phi of l's header that takes v, or a value made from it, on a
// back edge: the next attempt starts from what this one returned.
func feedsAttempt(l *flow.Loop, v ssa.Value, call *ssa.Call) bool {
	from := make(map[ssa.Value]bool)
	work := []ssa.Value{v}
	for len(work) > 0 && len(from) < 64 {
		x := work[0]
		work = work[1:]
		if from[x] {
			continue
		}
		from[x] = true
		refs := x.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			if rv, ok := r.(ssa.Value); ok && r.Block() != nil && l.Contains(r.Block()) {
				if _, isCall := r.(*ssa.Call); !isCall {
					work = append(work, rv)
				}
			}
		}
	}
	for _, arg := range append([]ssa.Value{call.Call.Value}, call.Call.Args...) {
		if phi, ok := arg.(*ssa.Phi); ok && phi.Block() == l.Header && from[phi] {
			return true
		}
		if from[arg] {
			if _, ok := arg.(*ssa.Phi); ok {
				return true
			}
		}
	}
	return false
}
