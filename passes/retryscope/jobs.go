package retryscope

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// Framework is a background job framework that retries its handlers.
type Framework uint8

const (
	// Asynq is github.com/hibiken/asynq: a failed task is retried 25 times
	// by default (MaxRetry), 26 attempts in all, with a jittered delay.
	Asynq Framework = iota + 1
	// River is github.com/riverqueue/river: a failed job is worked up to 25
	// attempts by default (MaxAttempts), with a jittered delay.
	River
	// Temporal is go.temporal.io/sdk: an activity is retried by its retry
	// policy, without limit by default, until a timeout the workflow sets.
	Temporal
)

func (f Framework) String() string {
	if c, ok := f.about(); ok {
		return c.name
	}
	return "invalid"
}

// Import paths of the frameworks' packages.
const (
	pkgAsynq         = "github.com/hibiken/asynq"
	pkgRiver         = "github.com/riverqueue/river"
	temporalFamily   = "go.temporal.io/sdk"
	pkgTemporal      = temporalFamily + "/worker"
	pkgTemporalInner = temporalFamily + "/internal"
)

// jobFrameworks are the job frameworks' name, module (the Library of their
// scopes) and kind (the Entry of their scopes: what the framework calls the
// code it retries), as consumers are the consumers'.
var jobFrameworks = map[Framework]consumer{
	Asynq:    {name: "asynq", module: pkgAsynq, kind: "asynq handler"},
	River:    {name: "river", module: pkgRiver, kind: "river worker"},
	Temporal: {name: "temporal", module: temporalFamily, kind: "Temporal activity"},
}

// about returns what the tables know of f: consumers, jobFrameworks.
func (f Framework) about() (consumer, bool) {
	if c, ok := consumers[f]; ok {
		return c, true
	}
	c, ok := jobFrameworks[f]
	return c, ok
}

// Job describes a job handler scope (Kind JobHandler).
type Job struct {
	Framework Framework
	// Name is the handler's function or method name, or "func literal"
	// (for "pattern" when it is registered for an asynq task type); for a
	// consumer's receive loop, "in" and its function's name.
	Name string
	// Pattern is the asynq task type the handler is registered for, if
	// known.
	Pattern string
	// Args is a river worker's job args type (T of *river.Job[T]).
	Args types.Type
	// JobParams are a river worker's *river.Job[T] parameters: job.ID is
	// the job's stable id.
	JobParams []*types.Var
}

// jobs adds a scope for each job handler of the package whose retries are
// not disabled in the package.
func (m *model) jobs() {
	relevant := false
	for _, imp := range m.pass.Pkg.Imports() {
		switch imp.Path() {
		case pkgAsynq, pkgRiver, pkgTemporal:
			relevant = true
		}
	}
	if !relevant {
		return
	}
	jf := &jobFinder{m: m, byFunc: make(map[*types.Func]*Scope)}
	jf.find()
	off := jf.retriesDisabled()
	for _, s := range jf.out {
		if !off.covers(s.Job) {
			m.res.add(s)
		}
	}
}

type jobFinder struct {
	m      *model
	out    []*Scope
	byFunc map[*types.Func]*Scope
}

// newScope builds the scope of a handler declared by ft and body in fn.
func (jf *jobFinder) newScope(fw Framework, name string, fn ast.Node, ft *ast.FuncType, body *ast.BlockStmt, op *types.Func) *Scope {
	j := &Job{Framework: fw, Name: name}
	if fw == River && ft.Params != nil {
		for _, field := range ft.Params.List {
			for _, n := range field.Names {
				v, ok := jf.m.info.Defs[n].(*types.Var)
				if !ok {
					continue
				}
				if t, ok := RiverJob(v.Type()); ok {
					j.JobParams = append(j.JobParams, v)
					j.Args = t
				}
			}
		}
	}
	fc, _ := fw.about()
	s := &Scope{Kind: JobHandler, Node: fn, Func: fn, Body: body, Op: op, Library: fc.module, Entry: fc.kind, Name: fc.kind, Job: j, Trigger: TriggerError}
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		s.Pos = fn.Name.Pos()
	case *ast.FuncLit:
		s.Pos = fn.Type.Func
	}
	wait := Wait{Pos: s.Pos, Node: fn, Library: true}
	switch fw {
	case Asynq:
		s.Cap = Cap{Kind: CapKnown, N: 26}
		s.Deadline = Deadline{Kind: DeadlineNone}
		wait.Kind, wait.Setting = WaitJittered, "asynq.DefaultRetryDelayFunc"
	case River:
		s.Cap = Cap{Kind: CapKnown, N: 25}
		s.Deadline = Deadline{Kind: DeadlineNone}
		wait.Kind, wait.Setting = WaitJittered, "river's DefaultClientRetryPolicy"
	case Temporal:
		// Unlimited attempts by default, but the workflow that schedules
		// the activity sets its timeouts: the model cannot see them.
		s.Cap = Cap{Kind: CapNone}
		s.Deadline = Deadline{Kind: DeadlineUnknown}
		wait.Kind, wait.Setting = WaitUnknown, "the activity's RetryPolicy"
	}
	s.Waits = []Wait{wait}
	return s
}

func (jf *jobFinder) add(s *Scope, fn *types.Func) *Scope {
	if fn != nil {
		if old := jf.byFunc[fn]; old != nil {
			return old
		}
		jf.byFunc[fn] = s
	}
	jf.out = append(jf.out, s)
	return s
}

func (jf *jobFinder) fromDecl(fw Framework, fn *types.Func) *Scope {
	fd := jf.m.funcs[fn]
	if fd == nil {
		return nil
	}
	if old := jf.byFunc[fn]; old != nil {
		return old
	}
	return jf.add(jf.newScope(fw, fn.Name(), fd, fd.Type, fd.Body, fn), fn)
}

// find finds the package's job handlers: declarations by signature (asynq
// handler functions and ProcessTask methods, river Work methods) and
// registrations (asynq.HandlerFunc, ServeMux.Handle/HandleFunc,
// river.WorkFunc, Temporal RegisterActivity).
func (jf *jobFinder) find() {
	m := jf.m
	var order []*types.Func
	for _, f := range m.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := m.info.Defs[fd.Name].(*types.Func); ok {
					order = append(order, fn)
				}
			}
		}
	}
	for _, fn := range order {
		sig := fn.Signature()
		switch {
		case asynqSig(sig):
			jf.fromDecl(Asynq, fn)
		case sig.Recv() != nil && fn.Name() == "Work" && sig.Params().Len() == 2 && sig.Results().Len() == 1 && isContext(sig.Params().At(0).Type()):
			if _, ok := RiverJob(sig.Params().At(1).Type()); ok {
				jf.fromDecl(River, fn)
			}
		}
	}
	for _, f := range m.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if tv, ok := m.info.Types[call.Fun]; ok && tv.IsType() && len(call.Args) == 1 && astq.IsNamed(tv.Type, pkgAsynq, "HandlerFunc") {
				jf.register(Asynq, call.Args[0], "")
				return true
			}
			fn := m.callee(call)
			if fn == nil || fn.Pkg() == nil {
				return true
			}
			switch path, name := fn.Pkg().Path(), fn.Name(); {
			case path == pkgAsynq && (name == "HandleFunc" || name == "Handle") && len(call.Args) == 2:
				pattern, _ := astq.StringConst(m.info, call.Args[0])
				jf.register(Asynq, call.Args[1], pattern)
			case path == pkgRiver && name == "WorkFunc" && len(call.Args) == 1:
				jf.register(River, call.Args[0], "")
			case path == pkgTemporal && (name == "RegisterActivity" || name == "RegisterActivityWithOptions") && len(call.Args) >= 1:
				jf.register(Temporal, call.Args[0], "")
			}
			return true
		})
	}
}

// register records the handler e names: a function literal, a function or
// method of the package, or (asynq Handle, Temporal) a value whose type's
// methods are the handlers.
func (jf *jobFinder) register(fw Framework, e ast.Expr, pattern string) {
	m := jf.m
	e = ast.Unparen(e)
	setPattern := func(s *Scope) {
		if s != nil && pattern != "" {
			s.Job.Pattern = pattern
		}
	}
	switch e := e.(type) {
	case *ast.FuncLit:
		name := "func literal"
		if pattern != "" {
			name = fmt.Sprintf("func literal for %q", pattern)
		}
		setPattern(jf.add(jf.newScope(fw, name, e, e.Type, e.Body, nil), nil))
		return
	case *ast.Ident, *ast.SelectorExpr:
		id := astq.NameIdent(e)
		if fn, ok := m.info.Uses[id].(*types.Func); ok {
			setPattern(jf.fromDecl(fw, fn.Origin()))
			return
		}
	case *ast.CallExpr:
		if tv, ok := m.info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			jf.register(fw, e.Args[0], pattern) // asynq.HandlerFunc(f)
			return
		}
	}
	// A value: its type's methods.
	t := m.info.TypeOf(e)
	if t == nil {
		return
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() != m.pass.Pkg {
		return
	}
	ms := types.NewMethodSet(types.NewPointer(named))
	for i := 0; i < ms.Len(); i++ {
		fn, ok := ms.At(i).Obj().(*types.Func)
		if !ok {
			continue
		}
		switch {
		case fw == Asynq && fn.Name() == "ProcessTask":
			setPattern(jf.fromDecl(fw, fn.Origin()))
		case fw == Temporal && fn.Exported():
			jf.fromDecl(fw, fn.Origin())
		}
	}
}

// asynqSig reports whether sig is func(context.Context, *asynq.Task) error.
func asynqSig(sig *types.Signature) bool {
	p := sig.Params()
	return p.Len() == 2 && sig.Results().Len() == 1 && isContext(p.At(0).Type()) &&
		isPtrTo(p.At(1).Type(), pkgAsynq, "Task")
}

func isPtrTo(t types.Type, path, name string) bool {
	_, ok := types.Unalias(t).(*types.Pointer)
	return ok && astq.IsNamed(t, path, name)
}

// disabled records the tasks and jobs the package enqueues with retries off.
type disabled struct {
	asynqTypes map[string]bool
	asynqAll   bool // MaxRetry(0) for a task type the model cannot name
	riverArgs  []types.Type
	riverAll   bool
	temporal   bool
}

func (d *disabled) covers(j *Job) bool {
	switch j.Framework {
	case Asynq:
		if j.Pattern == "" {
			return d.asynqAll || len(d.asynqTypes) > 0
		}
		return d.asynqAll || d.asynqTypes[j.Pattern]
	case River:
		if d.riverAll {
			return true
		}
		for _, t := range d.riverArgs {
			if j.Args != nil && types.Identical(t, j.Args) {
				return true
			}
		}
		return false
	}
	return d.temporal
}

// retriesDisabled finds asynq.MaxRetry(0), river MaxAttempts: 1 and
// Temporal MaximumAttempts: 1 in the package.
func (jf *jobFinder) retriesDisabled() *disabled {
	m := jf.m
	d := &disabled{asynqTypes: make(map[string]bool)}
	for _, f := range m.pass.Files {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			switch n := n.(type) {
			case *ast.CallExpr:
				if fn := m.callee(n); fn != nil && fn.FullName() == pkgAsynq+".MaxRetry" && len(n.Args) == 1 {
					if v, ok := m.intConst(n.Args[0]); ok && v <= 0 {
						if name, ok := jf.asynqTaskType(stack); ok {
							d.asynqTypes[name] = true
						} else {
							d.asynqAll = true
						}
					}
				}
			case *ast.CompositeLit:
				t := m.info.TypeOf(n)
				switch {
				case t != nil && astq.IsNamed(t, pkgRiver, "InsertOpts") && jf.fieldAtMost(n, "MaxAttempts", 1):
					if args, ok := jf.riverArgsFor(stack); ok {
						d.riverArgs = append(d.riverArgs, args)
					} else {
						d.riverAll = true
					}
				case t != nil && astq.IsNamed(t, pkgRiver, "Config") && jf.fieldAtMost(n, "MaxAttempts", 1):
					d.riverAll = true
				case t != nil && astq.IsNamed(t, pkgTemporalInner, "RetryPolicy") && jf.fieldAtMost(n, "MaximumAttempts", 1):
					d.temporal = true
				}
			}
			return true
		})
	}
	return d
}

// asynqTaskType names the task type a MaxRetry option (at the top of stack)
// applies to: asynq.NewTask("type", p, opts...) or
// client.Enqueue(task, opts...) with task built by NewTask("type", ...).
func (jf *jobFinder) asynqTaskType(stack []ast.Node) (string, bool) {
	if len(stack) < 2 {
		return "", false
	}
	call, ok := stack[len(stack)-2].(*ast.CallExpr)
	if !ok {
		return "", false
	}
	fn := jf.m.callee(call)
	if fn == nil {
		return "", false
	}
	switch fn.FullName() {
	case pkgAsynq + ".NewTask", pkgAsynq + ".NewTaskWithHeaders":
		return astq.StringConst(jf.m.info, call.Args[0])
	case "(*" + pkgAsynq + ".Client).Enqueue", "(*" + pkgAsynq + ".Client).EnqueueContext":
		i := 0
		if fn.Name() == "EnqueueContext" {
			i = 1
		}
		if len(call.Args) <= i {
			return "", false
		}
		return jf.newTaskType(call.Args[i], enclosingBody(stack))
	}
	return "", false
}

// newTaskType returns the type name of the task e: a NewTask call, or a
// local variable assigned once from one in body.
func (jf *jobFinder) newTaskType(e ast.Expr, body *ast.BlockStmt) (string, bool) {
	e = ast.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok {
		if fn := jf.m.callee(call); fn != nil && (fn.FullName() == pkgAsynq+".NewTask" || fn.FullName() == pkgAsynq+".NewTaskWithHeaders") && len(call.Args) > 0 {
			return astq.StringConst(jf.m.info, call.Args[0])
		}
		return "", false
	}
	id, ok := e.(*ast.Ident)
	if !ok || body == nil {
		return "", false
	}
	v, ok := jf.m.info.Uses[id].(*types.Var)
	if !ok {
		return "", false
	}
	rhs := astq.Assignments(jf.m.info, body, v)
	if len(rhs) != 1 {
		return "", false
	}
	return jf.newTaskType(rhs[0], nil)
}

// riverArgsFor returns the job args type an InsertOpts literal applies to:
// the receiver of an InsertOpts() method, or the args of Insert/InsertTx.
func (jf *jobFinder) riverArgsFor(stack []ast.Node) (types.Type, bool) {
	for i := len(stack) - 2; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.CallExpr:
			fn := jf.m.callee(n)
			if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != pkgRiver {
				continue
			}
			switch fn.Name() {
			case "Insert":
				if len(n.Args) == 3 {
					return jf.m.info.TypeOf(n.Args[1]), true
				}
			case "InsertTx":
				if len(n.Args) == 4 {
					return jf.m.info.TypeOf(n.Args[2]), true
				}
			}
			return nil, false
		case *ast.FuncDecl:
			if n.Name.Name == "InsertOpts" && n.Recv != nil && len(n.Recv.List) == 1 {
				return jf.m.info.TypeOf(n.Recv.List[0].Type), true
			}
			return nil, false
		}
	}
	return nil, false
}

func enclosingBody(stack []ast.Node) *ast.BlockStmt {
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncDecl:
			return n.Body
		case *ast.FuncLit:
			return n.Body
		}
	}
	return nil
}

// fieldAtMost reports whether the literal sets field to a constant in
// [1, max].
func (jf *jobFinder) fieldAtMost(lit *ast.CompositeLit, field string, max int64) bool {
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if id, ok := kv.Key.(*ast.Ident); ok && id.Name == field {
			v, ok := jf.m.intConst(kv.Value)
			return ok && v >= 1 && v <= max
		}
	}
	return false
}

// RiverJob returns T when t is *river.Job[T].
func RiverJob(t types.Type) (types.Type, bool) {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return nil, false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != pkgRiver || n.Obj().Name() != "Job" || n.TypeArgs().Len() != 1 {
		return nil, false
	}
	return n.TypeArgs().At(0), true
}

// JobIDCall reports whether fn returns the running job's stable id (the
// asynq task id) or its attempt number, which changes with each retry.
func JobIDCall(fn *types.Func) (stable, attempt bool) {
	switch fn.FullName() {
	case pkgAsynq + ".GetTaskID", "(*" + pkgAsynq + ".ResultWriter).TaskID":
		return true, false
	case pkgAsynq + ".GetRetryCount":
		return false, true
	}
	return false, false
}

// JobIDField reports whether v, a struct field, holds a job's stable id
// (river's job ID, Temporal's workflow and activity ids) or its attempt
// number, which changes with each retry.
func JobIDField(v *types.Var) (stable, attempt bool) {
	if !v.IsField() || v.Pkg() == nil {
		return false, false
	}
	switch path := v.Pkg().Path(); path {
	case pkgRiver + "/rivertype":
		return v.Name() == "ID", v.Name() == "Attempt"
	case pkgTemporalInner:
		return v.Name() == "ActivityID" || v.Name() == "WorkflowExecution" || v.Name() == "ID", v.Name() == "Attempt"
	}
	return false, false
}
