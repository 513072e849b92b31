package jobretry

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/keys"
	"github.com/idemlint/idemlint/passes/internal/names"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// maxSummary bounds the recursion of summary, contents and the effects of
// bodies through calls.
const maxSummary = 8

// storage is what the check knows of the package's storage code: the
// *sql.Stmt fields it prepares, the functions that return a statement of
// their parameter, the effects of its functions and of the values its
// constructors build. Each is computed once, on first use; what another
// package computed is read from its facts.
type storage struct {
	prepared  map[*types.Var][]string // fields of the package: the tables of unkeyed INSERTs they are prepared from
	stmtParam map[*types.Func]int     // -1: none
	effects   map[*types.Func][]effect
	calls     map[*types.Func][]fieldCall
	ctors     map[*types.Func]methodMap
	ifaces    map[*types.Func][]effect // interface methods of the package
	busy      map[*types.Func]bool
	natural   map[string]bool
	queue     map[string]bool
	ifaceDone bool
}

// facts reports whether the check exports facts in the package: not in
// the standard library, and only in a package that depends on
// database/sql (every fact stems from a database/sql call; the prefilter
// asks the same).
func facts(pkg *types.Package, file string) bool {
	if retryscope.IsStd(pkg.Path(), file) {
		return false
	}
	seen := make(map[*types.Package]bool)
	var dep func(p *types.Package) bool
	dep = func(p *types.Package) bool {
		if p.Path() == "database/sql" {
			return true
		}
		if seen[p] {
			return false
		}
		seen[p] = true
		for _, q := range p.Imports() {
			if dep(q) {
				return true
			}
		}
		return false
	}
	return dep(pkg)
}

func (c *checker) st() *storage {
	if c.store == nil {
		c.store = &storage{
			stmtParam: make(map[*types.Func]int),
			effects:   make(map[*types.Func][]effect),
			calls:     make(map[*types.Func][]fieldCall),
			ctors:     make(map[*types.Func]methodMap),
			ifaces:    make(map[*types.Func][]effect),
			busy:      make(map[*types.Func]bool),
			natural:   make(map[string]bool),
			queue:     make(map[string]bool),
		}
	}
	return c.store
}

// exportFacts exports the facts of the package's exported functions and
// methods, of its prepared fields and of the interface methods whose
// values its constructors build.
func (c *checker) exportFacts() {
	for f := range c.preparedFields() {
		if tables := c.st().prepared[f]; len(tables) > 0 && f.Pkg() == c.pass.Pkg {
			c.pass.ExportObjectFact(f, &stmtFact{Tables: tables})
		}
	}
	for _, fn := range c.funcs {
		if !fn.Exported() {
			continue
		}
		if i := c.stmtParamOf(fn); i >= 0 {
			c.pass.ExportObjectFact(fn, &stmtParamFact{Param: i})
		}
		if effs := c.funcEffects(fn); len(effs) > 0 {
			c.pass.ExportObjectFact(fn, &effectFact{Effects: effs})
		}
		if calls := c.fieldCalls(fn); len(calls) > 0 {
			c.pass.ExportObjectFact(fn, &fieldCallsFact{Calls: calls})
		}
		if m := c.ctorEffects(fn); len(m) > 0 {
			c.pass.ExportObjectFact(fn, m.fact())
		}
	}
	c.ifaceEffects(nil)
	for _, m := range c.ifaceMethods {
		if effs := c.st().ifaces[m]; len(effs) > 0 {
			c.pass.ExportObjectFact(m, &effectFact{Effects: effs})
		}
	}
}

// unkeyed returns the table of q when q is an INSERT with no ON CONFLICT,
// WHERE NOT EXISTS or ON DUPLICATE KEY, into a table with no natural key
// in the package (see naturalKey).
func (c *checker) unkeyed(q string) (string, bool) {
	norm := normSQL(q)
	m := insertInto().FindStringSubmatch(norm)
	if m == nil {
		return "", false
	}
	for _, guard := range []string{"ON CONFLICT", "WHERE NOT EXISTS", "ON DUPLICATE KEY"} {
		if strings.Contains(norm, guard) {
			return "", false
		}
	}
	table := strings.ToLower(strings.Trim(m[1], `"`))
	nat, ok := c.st().natural[table]
	if !ok {
		nat = c.naturalKey(table)
		c.st().natural[table] = nat
	}
	return table, !nat
}

// preparedFields finds the *sql.Stmt fields the package prepares from a
// constant query: s.f, err = db.Prepare(q) (PrepareContext, of a DB, Tx or
// Conn), and &s.f paired with a constant in a literal of a struct with a
// **sql.Stmt field and a string field (dendrite's
// sqlutil.StatementList{{&s.insertStmt, insertSQL}}). It returns them with
// the tables of their unkeyed INSERTs.
func (c *checker) preparedFields() map[*types.Var][]string {
	s := c.st()
	if s.prepared != nil {
		return s.prepared
	}
	s.prepared = make(map[*types.Var][]string)
	add := func(f *types.Var, q string) {
		if _, ok := s.prepared[f]; !ok {
			s.prepared[f] = nil
		}
		if t, ok := c.unkeyed(q); ok && !containsString(s.prepared[f], t) {
			s.prepared[f] = append(s.prepared[f], t)
		}
	}
	for _, file := range c.pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if len(n.Rhs) != 1 && len(n.Rhs) != len(n.Lhs) {
					return true
				}
				for i, lhs := range n.Lhs {
					f := c.stmtField(lhs)
					if f == nil {
						continue
					}
					rhs := n.Rhs[0]
					if len(n.Rhs) == len(n.Lhs) {
						rhs = n.Rhs[i]
					} else if i != 0 {
						continue
					}
					if q, ok := c.prepareQuery(rhs); ok {
						add(f, q)
					}
				}
			case *ast.CompositeLit:
				if f, q, ok := c.stmtPair(n); ok {
					add(f, q)
				}
			}
			return true
		})
	}
	return s.prepared
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// stmtField returns the *sql.Stmt field e selects.
func (c *checker) stmtField(e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	f, ok := c.info.Uses[sel.Sel].(*types.Var)
	if !ok || !f.IsField() || !astq.IsPointerTo(f.Type(), "database/sql", "Stmt") {
		return nil
	}
	return f
}

// prepareQuery returns the constant query of db.Prepare(q) or
// db.PrepareContext(ctx, q) (a DB, Tx or Conn of database/sql).
func (c *checker) prepareQuery(e ast.Expr) (string, bool) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return "", false
	}
	fn := c.callee(call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "database/sql" || fn.Signature().Recv() == nil {
		return "", false
	}
	i := 0
	switch fn.Name() {
	case "Prepare":
	case "PrepareContext":
		i = 1
	default:
		return "", false
	}
	if len(call.Args) <= i {
		return "", false
	}
	return astq.StringConst(c.info, call.Args[i])
}

// stmtPair reads a literal of a struct whose fields include a **sql.Stmt
// and a string: the field whose address is the first, and the constant
// that is the second.
func (c *checker) stmtPair(lit *ast.CompositeLit) (*types.Var, string, bool) {
	st, ok := c.info.TypeOf(lit).Underlying().(*types.Struct)
	if !ok || st.NumFields() < 2 || len(lit.Elts) == 0 {
		return nil, "", false
	}
	var field *types.Var
	q, found := "", false
	for i, elt := range lit.Elts {
		var fv *types.Var
		val := elt
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			id, ok := kv.Key.(*ast.Ident)
			if !ok {
				return nil, "", false
			}
			for j := 0; j < st.NumFields(); j++ {
				if st.Field(j).Name() == id.Name {
					fv = st.Field(j)
				}
			}
			val = kv.Value
		} else if i < st.NumFields() {
			fv = st.Field(i)
		}
		if fv == nil {
			continue
		}
		if p, ok := fv.Type().(*types.Pointer); ok && astq.IsPointerTo(p.Elem(), "database/sql", "Stmt") {
			if u, ok := ast.Unparen(val).(*ast.UnaryExpr); ok && u.Op == token.AND {
				field = c.stmtField(u.X)
			}
			continue
		}
		if b, ok := fv.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
			if s, ok := astq.StringConst(c.info, val); ok {
				q, found = s, true
			}
		}
	}
	return field, q, field != nil && found
}

// stmtTables returns the tables of the unkeyed INSERTs that the statement
// e runs: a prepared field (of the package, or with a stmtFact), tx.Stmt(e)
// and tx.StmtContext(ctx, e), a call of a function that returns a
// statement of its parameter, or a variable of body assigned from those or
// from db.Prepare(q).
func (c *checker) stmtTables(e ast.Expr, body *ast.BlockStmt, depth int) []string {
	if depth > maxSummary {
		return nil
	}
	e = ast.Unparen(e)
	if f := c.stmtField(e); f != nil {
		if f.Pkg() == c.pass.Pkg {
			return c.preparedFields()[f]
		}
		var fact stmtFact
		if c.pass.ImportObjectFact(f, &fact) {
			return fact.Tables
		}
		return nil
	}
	switch e := e.(type) {
	case *ast.CallExpr:
		if q, ok := c.prepareQuery(e); ok {
			if t, ok := c.unkeyed(q); ok {
				return []string{t}
			}
			return nil
		}
		fn := c.callee(e)
		if fn == nil {
			return nil
		}
		if i := c.stmtArg(fn); i >= 0 && i < len(e.Args) {
			return c.stmtTables(e.Args[i], body, depth+1)
		}
		if i := c.stmtParamOf(fn); i >= 0 && i < len(e.Args) {
			return c.stmtTables(e.Args[i], body, depth+1)
		}
	case *ast.Ident:
		v, ok := c.info.Uses[e].(*types.Var)
		if !ok || v.IsField() || body == nil {
			return nil
		}
		var out []string
		for _, rhs := range astq.Assignments(c.info, body, v) {
			for _, t := range c.stmtTables(rhs, body, depth+1) {
				if !containsString(out, t) {
					out = append(out, t)
				}
			}
		}
		return out
	}
	return nil
}

// stmtArg returns the argument index of the statement that (*sql.Tx).Stmt
// and StmtContext return for the transaction, or -1.
func (c *checker) stmtArg(fn *types.Func) int {
	if fn.Pkg() == nil || fn.Pkg().Path() != "database/sql" || fn.Signature().Recv() == nil || !astq.IsPointerTo(fn.Signature().Recv().Type(), "database/sql", "Tx") {
		return -1
	}
	switch fn.Name() {
	case "Stmt":
		return 0
	case "StmtContext":
		return 1
	}
	return -1
}

// stmtParamOf returns the index of the parameter whose statement fn
// returns (TxStmt(txn, stmt): stmt, or txn.Stmt(stmt)), or -1.
func (c *checker) stmtParamOf(fn *types.Func) int {
	if fn.Pkg() != c.pass.Pkg {
		var fact stmtParamFact
		if c.pass.ImportObjectFact(fn, &fact) {
			return fact.Param
		}
		return -1
	}
	s := c.st()
	if i, ok := s.stmtParam[fn]; ok {
		return i
	}
	s.stmtParam[fn] = -1 // also while in progress
	sig := fn.Signature()
	fd := c.decls[fn]
	if fd == nil || sig.Results().Len() != 1 || !astq.IsPointerTo(sig.Results().At(0).Type(), "database/sql", "Stmt") {
		return -1
	}
	params := make(map[*types.Var]int)
	for i := 0; i < sig.Params().Len(); i++ {
		params[sig.Params().At(i)] = i
	}
	result := -2 // no return seen yet
	visiting := make(map[*types.Var]bool)
	var derive func(e ast.Expr, depth int) int
	derive = func(e ast.Expr, depth int) int {
		if depth > maxSummary {
			return -1
		}
		e = ast.Unparen(e)
		switch e := e.(type) {
		case *ast.Ident:
			v, ok := c.info.Uses[e].(*types.Var)
			if !ok {
				return -1
			}
			i, isParam := params[v]
			if !isParam {
				i = -2
			}
			if visiting[v] {
				return i // a parameter reassigned from itself: tx.Stmt(stmt)
			}
			visiting[v] = true
			defer delete(visiting, v)
			for _, rhs := range astq.Assignments(c.info, fd.Body, v) {
				j := derive(rhs, depth+1)
				if j < 0 || (i >= 0 && j != i) {
					return -1
				}
				i = j
			}
			if i < 0 {
				return -1
			}
			return i
		case *ast.CallExpr:
			g := c.callee(e)
			if g == nil {
				return -1
			}
			if j := c.stmtArg(g); j >= 0 && j < len(e.Args) {
				return derive(e.Args[j], depth+1)
			}
			if j := c.stmtParamOf(g); j >= 0 && j < len(e.Args) {
				return derive(e.Args[j], depth+1)
			}
		}
		return -1
	}
	astq.InspectOwn(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			if result == -1 {
				return false
			}
			if len(n.Results) != 1 {
				result = -1
				return false
			}
			i := derive(n.Results[0], 0)
			if i < 0 || (result >= 0 && i != result) {
				result = -1
			} else {
				result = i
			}
		}
		return true
	})
	if result < 0 {
		result = -1
	}
	s.stmtParam[fn] = result
	return result
}

// callEffects returns the effects of call, in body: a database/sql Exec
// or Query of an unkeyed INSERT (a constant query, or a statement whose
// query is known: stmtTables), a call of a function of the package (its
// body's effects) or of one with an effectFact.
func (c *checker) callEffects(call *ast.CallExpr, body *ast.BlockStmt, in *types.Func) []effect {
	fn := c.callee(call)
	if fn == nil {
		return nil
	}
	if fn.Pkg() != nil && fn.Pkg().Path() == "database/sql" {
		for _, arg := range call.Args {
			if c.mentionsID(nil, body, nil, arg, 0) {
				return nil // keyed by the job's or the message's id
			}
		}
		var out []effect
		for _, t := range c.sqlTables(call, fn, body) {
			out = addEffects(out, effect{Table: t, In: in.FullName(), Queue: c.queueTable(t)})
		}
		return out
	}
	return c.funcEffects(fn)
}

// sqlTables returns the tables of the unkeyed INSERT that call, an Exec or
// Query of database/sql, runs.
func (c *checker) sqlTables(call *ast.CallExpr, fn *types.Func, body *ast.BlockStmt) []string {
	recv := fn.Signature().Recv()
	if recv == nil {
		return nil
	}
	switch fn.Name() {
	case "Exec", "ExecContext", "Query", "QueryContext", "QueryRow", "QueryRowContext":
	default:
		return nil
	}
	if astq.IsPointerTo(recv.Type(), "database/sql", "Stmt") {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		return c.stmtTables(sel.X, body, 0)
	}
	qi := queryArg(c.info, call)
	if len(call.Args) <= qi {
		return nil
	}
	q, ok := astq.StringConst(c.info, call.Args[qi])
	if !ok {
		return nil
	}
	if t, ok := c.unkeyed(q); ok {
		return []string{t}
	}
	return nil
}

// funcEffects returns the effects of a call of fn: for a function or
// method of the package, those of its body (closures included; not those
// in an idempotency.Inbox's handler); for an interface method of the
// package, those of the values its constructors build (ifaceEffects);
// otherwise its effectFact's.
func (c *checker) funcEffects(fn *types.Func) []effect {
	fn = fn.Origin()
	if fn.Pkg() != c.pass.Pkg {
		return importFact[effectFact](c.pass, fn).Effects
	}
	if isInterfaceMethod(fn) {
		return c.ifaceEffects(fn)
	}
	s := c.st()
	if effs, ok := s.effects[fn]; ok {
		return effs
	}
	fd := c.decls[fn]
	if fd == nil || s.busy[fn] {
		return nil // busy: a recursion, whose effects are those found so far
	}
	s.busy[fn] = true
	var out []effect
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if c.inboxHandler(call) != nil {
			return false // commits with the message id, once
		}
		out = addEffects(out, c.callEffects(call, fd.Body, fn)...)
		return true
	})
	delete(s.busy, fn)
	s.effects[fn] = out
	return out
}

func isInterfaceMethod(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	return recv != nil && types.IsInterface(recv.Type())
}

// fieldCalls returns the interface methods that method fn calls on fields
// of its receiver (recv.F.M(...), closures included), where the
// interface's package depends on database/sql.
func (c *checker) fieldCalls(fn *types.Func) []fieldCall {
	fn = fn.Origin()
	if fn.Pkg() != c.pass.Pkg {
		return importFact[fieldCallsFact](c.pass, fn).Calls
	}
	s := c.st()
	if calls, ok := s.calls[fn]; ok {
		return calls
	}
	s.calls[fn] = nil
	fd := c.decls[fn]
	if fd == nil || fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
		return nil
	}
	recv := c.info.Defs[fd.Recv.List[0].Names[0]]
	if recv == nil {
		return nil
	}
	var out []fieldCall
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		fsel, ok := ast.Unparen(sel.X).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := ast.Unparen(fsel.X).(*ast.Ident); !ok || c.info.Uses[x] != recv {
			return true
		}
		field, ok := c.info.Uses[fsel.Sel].(*types.Var)
		m := c.callee(call)
		if !ok || !field.IsField() || m == nil || !isInterfaceMethod(m) || m.Pkg() == nil || !facts(m.Pkg(), "") {
			return true
		}
		fc := fieldCall{Field: field.Name(), Method: m.Name()}
		for _, o := range out {
			if o == fc {
				return true
			}
		}
		out = append(out, fc)
		return true
	})
	s.calls[fn] = out
	return out
}

// ctorEffects returns the methods with effects of the values fn returns
// as its first result: for a function of the package, the summary of each
// of its return statements' first results; otherwise its ctorFact's.
func (c *checker) ctorEffects(fn *types.Func) methodMap {
	fn = fn.Origin()
	if fn.Pkg() != c.pass.Pkg {
		var fact ctorFact
		if fn.Pkg() == nil || !c.pass.ImportObjectFact(fn, &fact) {
			return nil
		}
		m := make(methodMap)
		for _, me := range fact.Methods {
			m[me.Method] = me.Effects
		}
		return m
	}
	s := c.st()
	if m, ok := s.ctors[fn]; ok {
		return m
	}
	fd := c.decls[fn]
	if fd == nil || s.busy[fn] || fn.Signature().Results().Len() == 0 {
		return nil
	}
	s.busy[fn] = true
	out := make(methodMap)
	astq.InspectOwn(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			if len(n.Results) > 0 {
				out.merge(c.summary(n.Results[0], fd.Body, 0))
			}
		}
		return true
	})
	delete(s.busy, fn)
	s.ctors[fn] = out
	return out
}

// summary returns the methods with effects of the value e, in body: the
// constructor's of a call (ctorEffects), the union of what is assigned to
// a variable, and those of e's concrete type (methodsOf).
func (c *checker) summary(e ast.Expr, body *ast.BlockStmt, depth int) methodMap {
	out := make(methodMap)
	if depth > maxSummary {
		return out
	}
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return c.summary(x.X, body, depth+1)
		}
	case *ast.CallExpr:
		if fn := c.callee(x); fn != nil {
			out.merge(c.ctorEffects(fn))
		}
	case *ast.Ident:
		if v := c.localVar(x); v != nil && body != nil {
			for _, rhs := range astq.Assignments(c.info, body, v) {
				out.merge(c.summary(rhs, body, depth+1))
			}
		}
	}
	t := c.info.TypeOf(e)
	if tuple, ok := t.(*types.Tuple); ok && tuple.Len() > 0 {
		t = tuple.At(0).Type()
	}
	if t != nil && !types.IsInterface(t) {
		out.merge(c.methodsOf(t, e, body, depth+1))
	}
	return out
}

// localVar returns the local variable id uses.
func (c *checker) localVar(id *ast.Ident) *types.Var {
	v, ok := c.info.Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Pkg() != c.pass.Pkg || v.Parent() == nil || v.Parent() == c.pass.Pkg.Scope() {
		return nil
	}
	return v
}

// methodsOf returns the exported methods with effects of e, a value of the
// concrete type t: a method's own effects (funcEffects), and, for a method
// with fieldCalls, the effects of the methods it calls on the values e
// holds in those fields (contents), promoted methods through the
// embedded fields' values.
func (c *checker) methodsOf(t types.Type, e ast.Expr, body *ast.BlockStmt, depth int) methodMap {
	out := make(methodMap)
	if depth > maxSummary {
		return out
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return out
	}
	ms := types.NewMethodSet(types.NewPointer(named))
	for i := 0; i < ms.Len(); i++ {
		sel := ms.At(i)
		m, ok := sel.Obj().(*types.Func)
		if !ok || !m.Exported() {
			continue
		}
		effs := c.funcEffects(m)
		if calls := c.fieldCalls(m); len(calls) > 0 {
			holders := []ast.Expr{e}
			cur := types.Type(named)
			for _, idx := range sel.Index()[:len(sel.Index())-1] {
				st, ok := derefStruct(cur)
				if !ok || idx >= st.NumFields() {
					holders = nil
					break
				}
				f := st.Field(idx)
				var next []ast.Expr
				for _, h := range holders {
					next = append(next, c.contents(h, f.Name(), body, depth+1)...)
				}
				holders, cur = next, f.Type()
			}
			for _, fc := range calls {
				for _, h := range holders {
					for _, v := range c.contents(h, fc.Field, body, depth+1) {
						effs = addEffects(effs, c.summary(v, body, depth+1)[fc.Method]...)
					}
				}
			}
		}
		if len(effs) > 0 {
			out[m.Name()] = addEffects(out[m.Name()], effs...)
		}
	}
	return out
}

func derefStruct(t types.Type) (*types.Struct, bool) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	return st, ok
}

// contents returns the expressions that e, a struct value in body, holds
// in its field: the field's element of a literal, and for a variable what
// the literals assigned to it hold there and what body assigns to
// v.field.
func (c *checker) contents(e ast.Expr, field string, body *ast.BlockStmt, depth int) []ast.Expr {
	if depth > maxSummary {
		return nil
	}
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return c.contents(x.X, field, body, depth+1)
		}
	case *ast.CompositeLit:
		st, ok := derefStruct(c.info.TypeOf(x))
		if !ok {
			return nil
		}
		for i, elt := range x.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok && id.Name == field {
					return []ast.Expr{kv.Value}
				}
			} else if i < st.NumFields() && st.Field(i).Name() == field {
				return []ast.Expr{elt}
			}
		}
	case *ast.Ident:
		v := c.localVar(x)
		if v == nil || body == nil {
			return nil
		}
		var out []ast.Expr
		for _, rhs := range astq.Assignments(c.info, body, v) {
			out = append(out, c.contents(rhs, field, body, depth+1)...)
		}
		ast.Inspect(body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, lhs := range as.Lhs {
				sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != field {
					continue
				}
				if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && c.info.Uses[id] == v {
					out = append(out, as.Rhs[i])
				}
			}
			return true
		})
		return out
	}
	return nil
}

// ifaceEffects returns the effects of the interface method m of the
// package: those of the methods by its name of the values that the
// package's functions returning the interface (its constructors) build.
// A package cannot export a fact on another package's interface, so only
// the interfaces the package declares are resolved. Called with nil, it
// computes them all.
func (c *checker) ifaceEffects(m *types.Func) []effect {
	s := c.st()
	if !s.ifaceDone {
		s.ifaceDone = true
		for _, fn := range c.funcs {
			res := fn.Signature().Results()
			if res.Len() == 0 {
				continue
			}
			named, ok := types.Unalias(res.At(0).Type()).(*types.Named)
			if !ok || named.Obj().Pkg() != c.pass.Pkg || !types.IsInterface(named) {
				continue
			}
			for name, effs := range c.ctorEffects(fn) {
				obj, _, _ := types.LookupFieldOrMethod(named, false, c.pass.Pkg, name)
				im, ok := obj.(*types.Func)
				if !ok || im.Pkg() != c.pass.Pkg {
					continue
				}
				if _, seen := s.ifaces[im]; !seen {
					c.ifaceMethods = append(c.ifaceMethods, im)
				}
				s.ifaces[im] = addEffects(s.ifaces[im], effs...)
			}
		}
	}
	if m == nil {
		return nil
	}
	return s.ifaces[m]
}

// stmtExec reports an Exec or Query of a prepared statement whose query is
// an unkeyed INSERT (stmtTables), unless an argument carries the job's id
// or the call is in an inbox's handler.
func (c *checker) stmtExec(h *handler, body *ast.BlockStmt, ids map[*types.Var]bool, call *ast.CallExpr, fn *types.Func, qi int) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || h.inbox {
		return
	}
	tables := c.stmtTables(sel.X, body, 0)
	if len(tables) == 0 {
		return
	}
	for _, arg := range call.Args[qi:] {
		if c.mentionsID(h, body, ids, arg, 0) {
			return
		}
	}
	c.report(h, call, "INSERT INTO "+tables[0], names.Of(fn), noNaturalKey)
}

// storageCall reports a call of a function of another package, or of an
// interface method, whose effects (funcEffects: its effectFact) include
// an unkeyed INSERT, unless an argument carries the job's id or the call
// is in an inbox's handler. The functions of the package are followed by
// visit instead.
func (c *checker) storageCall(h *handler, body *ast.BlockStmt, ids map[*types.Var]bool, call *ast.CallExpr, fn *types.Func) {
	if h.inbox || (fn.Pkg() == c.pass.Pkg && c.decls[fn.Origin()] != nil) {
		return
	}
	if fn.Pkg() != nil && fn.Pkg().Path() == "database/sql" {
		return
	}
	effs := c.funcEffects(fn)
	if len(effs) == 0 {
		return
	}
	for _, arg := range call.Args {
		if c.mentionsID(h, body, ids, arg, 0) {
			return
		}
	}
	if queued(effs) {
		for _, arg := range call.Args {
			if keys.ReceiverDeduped(c.info, body, arg) {
				return // a Matrix PDU or state EDU, queued for delivery
			}
		}
	}
	c.report(h, call, "INSERT INTO "+effs[0].Table, names.Of(fn), noNaturalKey)
}

// queued reports whether every effect is a row of a delivery queue: the
// row does not last, and the copy that a redelivery queues is delivered
// again, which is a duplicate only where the receiver does not dedupe it.
func queued(effs []effect) bool {
	for _, e := range effs {
		if !e.Queue {
			return false
		}
	}
	return len(effs) > 0
}

// queueTable reports whether table is a delivery queue of the package: a
// DELETE in one of its string constants removes the table's rows by their
// ids or positions (json_nid = ANY($1), json_nid IN ($1), id <= $3) or once they expire, as a
// sender does after delivering them. A purge by a key (WHERE room_id = $1)
// does not make a table a queue.
func (c *checker) queueTable(table string) bool {
	s := c.st()
	if q, ok := s.queue[table]; ok {
		return q
	}
	found := false
	match := func(q string) {
		for _, m := range deleteBatch().FindAllStringSubmatch(sqlComment().ReplaceAllString(q, " "), -1) {
			found = found || strings.EqualFold(strings.Trim(m[1], `"`), table)
		}
	}
	// Constants hold the queries split over lines ("DELETE FROM t" + " WHERE
	// ..."); literals, those written where they run.
	scope := c.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		if k, ok := scope.Lookup(name).(*types.Const); ok && k.Val().Kind() == constant.String {
			match(constant.StringVal(k.Val()))
		}
	}
	c.eachLiteral(func(q string) bool {
		match(q)
		return !found
	})
	s.queue[table] = found
	return found
}

// eachLiteral calls f with the value of each string literal of the
// package's files (not its concatenations) until f returns false.
func (c *checker) eachLiteral(f func(string) bool) {
	more := true
	for _, file := range c.files {
		ast.Inspect(file, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && more && lit.Kind == token.STRING {
				if v, ok := astq.StringConst(c.info, lit); ok {
					more = f(v)
				}
			}
			return more
		})
		if !more {
			return
		}
	}
}
