package jobretry

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/passes/internal/keys"
)

// framework is a job queue that retries its handlers by itself.
type framework int

const (
	asynq framework = iota
	river
	temporal
)

// retries says how the framework retries by default.
func (f framework) retries() string {
	switch f {
	case asynq:
		return "asynq retries a failed task 25 times by default"
	case river:
		return "river works a failed job up to 25 attempts by default"
	}
	return "Temporal's default retry policy retries a failed activity without limit"
}

// id names the job's stable id the fix keys with.
func (f framework) id() string {
	switch f {
	case asynq:
		return "the task id (asynq.GetTaskID(ctx))"
	case river:
		return "the job id (job.ID)"
	}
	return "the activity id (activity.GetInfo(ctx): WorkflowExecution.ID and ActivityID)"
}

func (f framework) kind() string {
	switch f {
	case asynq:
		return "asynq handler"
	case river:
		return "river worker"
	}
	return "Temporal activity"
}

// handler is one job handler: the body a framework runs and retries.
type handler struct {
	fw      framework
	name    string
	body    *ast.BlockStmt
	params  map[*types.Var]bool // parameters that carry the job's id (river's job)
	pattern string              // asynq: the task type it is registered for, if known
	args    types.Type          // river: the job args type
}

type checker struct {
	pass     *analysis.Pass
	info     *types.Info
	names    *keys.Names
	files    []*ast.File
	decls    map[*types.Func]*ast.FuncDecl
	order    []*types.Func // decls in source order
	reported map[reportKey]bool
}

type reportKey struct {
	pos  int
	what string
}

func (c *checker) callee(call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(c.info, call).(*types.Func)
	return fn
}

// isNamed reports whether t (or *t) is the named type path.name.
func isNamed(t types.Type, path, name string) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}

func isContext(t types.Type) bool { return isNamed(t, "context", "Context") }

// asynqSig reports whether sig is func(context.Context, *asynq.Task) error.
func asynqSig(sig *types.Signature) bool {
	p := sig.Params()
	return p.Len() == 2 && sig.Results().Len() == 1 && isContext(p.At(0).Type()) &&
		isPtrTo(p.At(1).Type(), pkgAsynq, "Task")
}

func isPtrTo(t types.Type, path, name string) bool {
	_, ok := types.Unalias(t).(*types.Pointer)
	return ok && isNamed(t, path, name)
}

// riverJob returns T when t is *river.Job[T].
func riverJob(t types.Type) (types.Type, bool) {
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

// handlers finds the package's job handlers.
func (c *checker) handlers() []*handler {
	var out []*handler
	byFunc := make(map[*types.Func]*handler)
	add := func(h *handler, fn *types.Func) *handler {
		if fn != nil {
			if old := byFunc[fn]; old != nil {
				return old
			}
			byFunc[fn] = h
		}
		out = append(out, h)
		return h
	}
	fromDecl := func(fw framework, fn *types.Func) *handler {
		fd := c.decls[fn]
		if fd == nil {
			return nil
		}
		return add(c.newHandler(fw, fn.Name(), fd.Type, fd.Body), fn)
	}
	// Declarations by signature: asynq handler functions and ProcessTask
	// methods, river Work methods.
	for _, fn := range c.order {
		sig := fn.Signature()
		switch {
		case asynqSig(sig):
			fromDecl(asynq, fn)
		case sig.Recv() != nil && fn.Name() == "Work" && sig.Params().Len() == 2 && sig.Results().Len() == 1 && isContext(sig.Params().At(0).Type()):
			if _, ok := riverJob(sig.Params().At(1).Type()); ok {
				fromDecl(river, fn)
			}
		}
	}
	// Registrations.
	for _, f := range c.files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if tv, ok := c.info.Types[call.Fun]; ok && tv.IsType() && len(call.Args) == 1 && isNamed(tv.Type, pkgAsynq, "HandlerFunc") {
				c.register(asynq, call.Args[0], "", add, fromDecl)
				return true
			}
			fn := c.callee(call)
			if fn == nil || fn.Pkg() == nil {
				return true
			}
			switch path, name := fn.Pkg().Path(), fn.Name(); {
			case path == pkgAsynq && (name == "HandleFunc" || name == "Handle") && len(call.Args) == 2:
				pattern, _ := stringConst(c.info, call.Args[0])
				c.register(asynq, call.Args[1], pattern, add, fromDecl)
			case path == pkgRiver && name == "WorkFunc" && len(call.Args) == 1:
				c.register(river, call.Args[0], "", add, fromDecl)
			case path == pkgTemporal && (name == "RegisterActivity" || name == "RegisterActivityWithOptions") && len(call.Args) >= 1:
				c.register(temporal, call.Args[0], "", add, fromDecl)
			}
			return true
		})
	}
	return out
}

// register records the handler e names: a function literal, a function or
// method of the package, or (asynq Handle, Temporal) a value whose type's
// methods are the handlers.
func (c *checker) register(fw framework, e ast.Expr, pattern string, add func(*handler, *types.Func) *handler, fromDecl func(framework, *types.Func) *handler) {
	e = ast.Unparen(e)
	setPattern := func(h *handler) {
		if h != nil && pattern != "" {
			h.pattern = pattern
		}
	}
	switch e := e.(type) {
	case *ast.FuncLit:
		name := "func literal"
		if pattern != "" {
			name = fmt.Sprintf("func literal for %q", pattern)
		}
		setPattern(add(c.newHandler(fw, name, e.Type, e.Body), nil))
		return
	case *ast.Ident, *ast.SelectorExpr:
		var id *ast.Ident
		if sel, ok := e.(*ast.SelectorExpr); ok {
			id = sel.Sel
		} else {
			id = e.(*ast.Ident)
		}
		if fn, ok := c.info.Uses[id].(*types.Func); ok {
			setPattern(fromDecl(fw, fn.Origin()))
			return
		}
	case *ast.CallExpr:
		if tv, ok := c.info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			c.register(fw, e.Args[0], pattern, add, fromDecl) // asynq.HandlerFunc(f)
			return
		}
	}
	// A value: its type's methods.
	t := c.info.TypeOf(e)
	if t == nil {
		return
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() != c.pass.Pkg {
		return
	}
	ms := types.NewMethodSet(types.NewPointer(named))
	for i := 0; i < ms.Len(); i++ {
		fn, ok := ms.At(i).Obj().(*types.Func)
		if !ok {
			continue
		}
		switch {
		case fw == asynq && fn.Name() == "ProcessTask":
			setPattern(fromDecl(fw, fn.Origin()))
		case fw == temporal && fn.Exported():
			fromDecl(fw, fn.Origin())
		}
	}
}

// newHandler builds a handler from a function's type and body.
func (c *checker) newHandler(fw framework, name string, ft *ast.FuncType, body *ast.BlockStmt) *handler {
	h := &handler{fw: fw, name: name, body: body, params: make(map[*types.Var]bool)}
	if fw == river && ft.Params != nil {
		for _, field := range ft.Params.List {
			for _, n := range field.Names {
				v, ok := c.info.Defs[n].(*types.Var)
				if !ok {
					continue
				}
				if t, ok := riverJob(v.Type()); ok {
					h.params[v] = true // the job: job.ID is the stable id
					h.args = t
				}
			}
		}
	}
	return h
}

// disabled records the tasks and jobs the package enqueues with retries off.
type disabled struct {
	asynqTypes map[string]bool
	asynqAll   bool // MaxRetry(0) for a task type the check cannot name
	riverArgs  []types.Type
	riverAll   bool
	temporal   bool
}

func (d *disabled) covers(h *handler) bool {
	switch h.fw {
	case asynq:
		if h.pattern == "" {
			return d.asynqAll || len(d.asynqTypes) > 0
		}
		return d.asynqAll || d.asynqTypes[h.pattern]
	case river:
		if d.riverAll {
			return true
		}
		for _, t := range d.riverArgs {
			if h.args != nil && types.Identical(t, h.args) {
				return true
			}
		}
		return false
	}
	return d.temporal
}

// retriesDisabled finds asynq.MaxRetry(0), river MaxAttempts: 1 and
// Temporal MaximumAttempts: 1 in the package.
func (c *checker) retriesDisabled() *disabled {
	d := &disabled{asynqTypes: make(map[string]bool)}
	for _, f := range c.files {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			switch n := n.(type) {
			case *ast.CallExpr:
				if fn := c.callee(n); fn != nil && fn.FullName() == pkgAsynq+".MaxRetry" && len(n.Args) == 1 {
					if v, ok := intConst(c.info, n.Args[0]); ok && v <= 0 {
						if name, ok := c.asynqTaskType(stack); ok {
							d.asynqTypes[name] = true
						} else {
							d.asynqAll = true
						}
					}
				}
			case *ast.CompositeLit:
				t := c.info.TypeOf(n)
				switch {
				case t != nil && isNamed(t, pkgRiver, "InsertOpts") && fieldAtMost(c.info, n, "MaxAttempts", 1):
					if args, ok := c.riverArgsFor(stack); ok {
						d.riverArgs = append(d.riverArgs, args)
					} else {
						d.riverAll = true
					}
				case t != nil && isNamed(t, pkgRiver, "Config") && fieldAtMost(c.info, n, "MaxAttempts", 1):
					d.riverAll = true
				case t != nil && isNamed(t, "go.temporal.io/sdk/internal", "RetryPolicy") && fieldAtMost(c.info, n, "MaximumAttempts", 1):
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
func (c *checker) asynqTaskType(stack []ast.Node) (string, bool) {
	if len(stack) < 2 {
		return "", false
	}
	call, ok := stack[len(stack)-2].(*ast.CallExpr)
	if !ok {
		return "", false
	}
	fn := c.callee(call)
	if fn == nil {
		return "", false
	}
	switch fn.FullName() {
	case pkgAsynq + ".NewTask", pkgAsynq + ".NewTaskWithHeaders":
		return stringConst(c.info, call.Args[0])
	case "(*" + pkgAsynq + ".Client).Enqueue", "(*" + pkgAsynq + ".Client).EnqueueContext":
		i := 0
		if fn.Name() == "EnqueueContext" {
			i = 1
		}
		if len(call.Args) <= i {
			return "", false
		}
		return c.newTaskType(call.Args[i], enclosingBody(stack))
	}
	return "", false
}

// newTaskType returns the type name of the task e: a NewTask call, or a
// local variable assigned once from one in body.
func (c *checker) newTaskType(e ast.Expr, body *ast.BlockStmt) (string, bool) {
	e = ast.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok {
		if fn := c.callee(call); fn != nil && (fn.FullName() == pkgAsynq+".NewTask" || fn.FullName() == pkgAsynq+".NewTaskWithHeaders") && len(call.Args) > 0 {
			return stringConst(c.info, call.Args[0])
		}
		return "", false
	}
	id, ok := e.(*ast.Ident)
	if !ok || body == nil {
		return "", false
	}
	v, ok := c.info.Uses[id].(*types.Var)
	if !ok {
		return "", false
	}
	rhs := assignments(c.info, body, v)
	if len(rhs) != 1 {
		return "", false
	}
	return c.newTaskType(rhs[0], nil)
}

// riverArgsFor returns the job args type an InsertOpts literal applies to:
// the receiver of an InsertOpts() method, or the args of Insert/InsertTx.
func (c *checker) riverArgsFor(stack []ast.Node) (types.Type, bool) {
	for i := len(stack) - 2; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.CallExpr:
			fn := c.callee(n)
			if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != pkgRiver {
				continue
			}
			switch fn.Name() {
			case "Insert":
				if len(n.Args) == 3 {
					return c.info.TypeOf(n.Args[1]), true
				}
			case "InsertTx":
				if len(n.Args) == 4 {
					return c.info.TypeOf(n.Args[2]), true
				}
			}
			return nil, false
		case *ast.FuncDecl:
			if n.Name.Name == "InsertOpts" && n.Recv != nil && len(n.Recv.List) == 1 {
				return c.info.TypeOf(n.Recv.List[0].Type), true
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

// fieldAtMost reports whether the literal sets field to a constant <= max.
func fieldAtMost(info *types.Info, lit *ast.CompositeLit, field string, max int64) bool {
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if id, ok := kv.Key.(*ast.Ident); ok && id.Name == field {
			v, ok := intConst(info, kv.Value)
			return ok && v >= 1 && v <= max
		}
	}
	return false
}

func intConst(info *types.Info, e ast.Expr) (int64, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(tv.Value)
}

func stringConst(info *types.Info, e ast.Expr) (string, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// assignments returns the expressions assigned to v in body.
func assignments(info *types.Info, body *ast.BlockStmt, v *types.Var) []ast.Expr {
	var out []ast.Expr
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				id, ok := lhs.(*ast.Ident)
				if !ok {
					continue
				}
				obj := info.Defs[id]
				if obj == nil {
					obj = info.Uses[id]
				}
				if obj != v {
					continue
				}
				if len(n.Lhs) == len(n.Rhs) {
					out = append(out, n.Rhs[i])
				} else if len(n.Rhs) == 1 {
					out = append(out, n.Rhs[0])
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if info.Defs[id] == v {
					if len(n.Values) == len(n.Names) {
						out = append(out, n.Values[i])
					} else if len(n.Values) == 1 {
						out = append(out, n.Values[0])
					}
				}
			}
		}
		return true
	})
	return out
}
