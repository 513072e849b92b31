package jobretry

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"strings"
	"sync"

	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// Dedupe written by hand: the inbox pattern without the runtime. A handler
// records or looks up the job's or message's stable id, and a test of the
// outcome leaves when the id was seen before; the code that runs only for
// an id seen for the first time is deduped, as an idempotency.Inbox
// handler is: its database writes are not reported, and a call to another
// service there still needs a key derived from the id (the dedupe cannot
// roll it back). The policies, each over what the check already knows (the
// statement's query, the id's flow in mentionsID, the value flow of the
// model's def index):
//
//   - claim: an INSERT of the id that does nothing on a conflict
//     (ON CONFLICT … DO NOTHING, WHERE NOT EXISTS, INSERT IGNORE, INSERT OR
//     IGNORE); its affected-row count (database/sql's Result, pgx's
//     CommandTag) is 0 for an id seen before, and with RETURNING, the
//     Scan of its row fails (sql.ErrNoRows, pgx.ErrNoRows);
//   - lookup: a SELECT EXISTS (…) or SELECT count(…) of the id, scanned
//     into a variable that is true, or above 0, for an id seen before; or
//     a SELECT of columns (no aggregate) WHERE … the id, whose Scan finds
//     a row (no error) for an id seen before and fails with sql.ErrNoRows
//     (pgx.ErrNoRows) for a new one;
//   - gate: an if whose condition is true for every id seen before and
//     whose branch leaves (return, continue, break, panic) dedupes the
//     statements after it in its block, and its else; one whose condition
//     is true only for a new id dedupes its branch; a switch with no tag
//     whose clauses up to one such case leave dedupes the statements after
//     it (switchGate). (These are the code
//     that the condition's false or true edge dominates, read from the
//     syntax: the model has no flow graph to ask yet.);
//   - helper: a call of a function of the package, passed the id, whose
//     bool result each of its returns computes by such a test (returned)
//     is that test.
//
// A claim or lookup of any other value (a fresh uuid, a delivery tag), an
// outcome never read, a test that does not leave, and an upsert (DO
// UPDATE affects a row on a conflict too) dedupe nothing.

// span is a range of source positions.
type span struct{ from, to token.Pos }

// seen is what a condition says of the id when it holds.
type seen int

const (
	unknown seen = iota
	before       // it holds for every id seen before
	first        // it holds only for an id seen for the first time
)

// not is what the negation of a condition that says s says: a condition
// true for every id seen before is false only for a new one, and the
// other way.
func (s seen) not() seen {
	switch s {
	case before:
		return first
	case first:
		return before
	}
	return unknown
}

// The SQL a dedupe runs, in normSQL's form.
var (
	claimSkip  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^INSERT\s+(?:IGNORE|OR\s+IGNORE)\s+INTO\b`) })
	doNothing  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bON CONFLICT\b[^;]*\bDO NOTHING\b`) })
	lookupStmt = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^SELECT (EXISTS|COUNT) ?\(`) })
	// rowLookup selects columns or constants, no function of them: no
	// aggregate, which returns a row when nothing matches.
	rowLookup = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^SELECT [\w.", *]+ FROM `) })
)

// normSQL is q without comments, in upper case, its white space one space.
func normSQL(q string) string {
	return strings.Join(strings.Fields(strings.ToUpper(sqlComment().ReplaceAllString(q, " "))), " ")
}

// claims reports whether q inserts a row that a conflict leaves out: 0
// rows affected, no row returned, for a key stored before.
func claims(q string) bool {
	norm := normSQL(q)
	if claimSkip().MatchString(norm) {
		return true
	}
	return insertInto().MatchString(norm) && (doNothing().MatchString(norm) || strings.Contains(norm, "WHERE NOT EXISTS"))
}

// The library calls whose results a dedupe reads, by full name.
var (
	// rowCounts return the rows a statement affected.
	rowCounts = map[string]bool{
		"(database/sql.Result).RowsAffected":                       true,
		"(github.com/jackc/pgx/v5/pgconn.CommandTag).RowsAffected": true,
	}
	// rowScans read the row of a QueryRow, failing with errNoRows when
	// there is none.
	rowScans = map[string]bool{
		"(*database/sql.Row).Scan":           true,
		"(github.com/jackc/pgx/v5.Row).Scan": true,
	}
	// errNoRows are the errors of a Scan of no row.
	errNoRows = map[string]bool{"database/sql.ErrNoRows": true, "github.com/jackc/pgx/v5.ErrNoRows": true}
)

// dedupe reads the dedupes of one body: h's, with ids its variables that
// carry the id, and di the def index of the function holding it.
type dedupe struct {
	c    *checker
	h    *handler
	body *ast.BlockStmt
	ids  map[*types.Var]bool
	di   *retryscope.DefIndex
	// depth is how many helpers deep body is (returned).
	depth int
	// dests are the calls of body given the address of each variable
	// (a Scan's destinations), in source order; built on first use.
	dests map[*types.Var][]*ast.CallExpr
}

// deduped returns the spans of body that run only for a job or message id
// seen for the first time (see the policies above).
func (c *checker) deduped(h *handler, body *ast.BlockStmt, ids map[*types.Var]bool) []span {
	if h.inbox {
		return nil
	}
	d := &dedupe{c: c, h: h, body: body, ids: ids}
	var out []span
	ast.Inspect(body, func(n ast.Node) bool {
		list, ok := astq.StmtList(n)
		if !ok {
			return true
		}
		for i, st := range list {
			if sw, ok := st.(*ast.SwitchStmt); ok && i+1 < len(list) && d.switchGate(sw) {
				out = append(out, span{list[i+1].Pos(), list[len(list)-1].End()})
			}
			ifs, ok := st.(*ast.IfStmt)
			if !ok {
				continue
			}
			switch d.test(ifs.Cond) {
			case before:
				if leaves(c.info, ifs.Body.List, true) && i+1 < len(list) {
					out = append(out, span{list[i+1].Pos(), list[len(list)-1].End()})
				}
				if ifs.Else != nil {
					out = append(out, span{ifs.Else.Pos(), ifs.Else.End()})
				}
			case first:
				out = append(out, span{ifs.Body.Pos(), ifs.Body.End()})
			}
		}
		return true
	})
	return out
}

// switchGate reports whether sw, a switch with no tag, leaves for every
// id seen before: one of its cases tests true for such an id (as an if's
// condition would), and that clause and every clause before it leave the
// statements after the switch (a break leaves only the switch). The
// default clause is taken only when no case holds.
func (d *dedupe) switchGate(sw *ast.SwitchStmt) bool {
	if sw.Tag != nil {
		return false
	}
	for _, st := range sw.Body.List {
		cc, ok := st.(*ast.CaseClause)
		if !ok || cc.List == nil {
			continue
		}
		if !leaves(d.c.info, cc.Body, false) {
			return false // a clause that a seen id may take first, and stay
		}
		for _, e := range cc.List {
			if d.test(e) == before {
				return true
			}
		}
	}
	return false
}

// defs returns the def index of the function holding the body.
func (d *dedupe) defs() *retryscope.DefIndex {
	if d.di == nil {
		if fd := d.c.res.DeclAt(d.body.Pos()); fd != nil {
			d.di = d.c.res.Defs(fd)
		} else {
			d.di = retryscope.BuildDefIndex(d.c.info, d.body)
		}
	}
	return d.di
}

// test says what cond, a condition of the body, says of the id.
func (d *dedupe) test(cond ast.Expr) seen {
	switch e := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return d.test(e.X).not()
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LOR: // holds whenever either does
			if d.test(e.X) == before || d.test(e.Y) == before {
				return before
			}
		case token.LAND: // holds only where both do
			if d.test(e.X) == first || d.test(e.Y) == first {
				return first
			}
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			return d.compare(e)
		}
	case *ast.CallExpr:
		// errors.Is(err, sql.ErrNoRows): no row
		if fn := d.c.callee(e); fn != nil && fn.FullName() == "errors.Is" && len(e.Args) == 2 && d.noRows(e.Args[1]) {
			return d.scanErr(e.Args[0], e.Pos())
		}
		return d.returned(e)
	case *ast.Ident:
		if d.lookup(e, e.Pos()) == lookupExists {
			return before
		}
		if call, ok := d.defs().Origin(e, e.Pos()).(*ast.CallExpr); ok {
			return d.returned(call)
		}
	}
	return unknown
}

// returned says what the first result of call, a bool, says of the id
// when call is of a function of the package passed the id: what each of
// its return statements says of it, constants aside (return false, err).
// It holds only for a new id when every one that is not false does; it
// holds for every id seen before when one does and the others are
// constants.
func (d *dedupe) returned(call *ast.CallExpr) seen {
	fn := d.c.callee(call)
	if fn == nil || fn.Pkg() != d.c.pass.Pkg || d.depth >= maxDepth {
		return unknown
	}
	fd := d.c.decls[fn.Origin()]
	res := fn.Signature().Results()
	if fd == nil || fd.Body == d.body || res.Len() == 0 || !types.Identical(res.At(0).Type().Underlying(), types.Typ[types.Bool]) {
		return unknown
	}
	ids := d.c.paramIDs(d.h, d.body, d.ids, call, fn, fd)
	if len(ids) == 0 {
		return unknown
	}
	sub := &dedupe{c: d.c, h: d.h, body: fd.Body, ids: ids, depth: d.depth + 1}
	var says []seen
	trueConst, opaque := false, false
	astq.InspectOwn(fd.Body, func(n ast.Node) bool {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok {
			return !opaque
		}
		if len(ret.Results) == 0 {
			opaque = true // named results
			return false
		}
		if v := d.c.info.Types[ret.Results[0]].Value; v != nil && v.Kind() == constant.Bool {
			trueConst = trueConst || constant.BoolVal(v)
			return true
		}
		says = append(says, sub.test(ret.Results[0]))
		return true
	})
	if opaque || len(says) == 0 {
		return unknown
	}
	all := says[0]
	for _, s := range says[1:] {
		if s != all {
			return unknown
		}
	}
	if all == first && trueConst {
		return unknown
	}
	return all
}

// compare reads a comparison of a claim's row count, of a count looked
// up, or of a claim's Scan error.
func (d *dedupe) compare(e *ast.BinaryExpr) seen {
	x, y, op := e.X, e.Y, e.Op
	if d.c.info.Types[ast.Unparen(x)].Value != nil || astq.IsNil(d.c.info, x) || d.noRows(x) {
		x, y, op = y, x, flip(op)
	}
	if isNil, noRows := astq.IsNil(d.c.info, y), d.noRows(y); isNil || noRows {
		says := d.scanErr(x, e.Pos()) // what err == ErrNoRows says
		if isNil {
			says = says.not() // err == nil: a row
		}
		switch op {
		case token.EQL:
			return says
		case token.NEQ:
			return says.not()
		}
		return unknown
	}
	k, ok := constant.Int64Val(constant.ToInt(d.c.info.Types[ast.Unparen(y)].Value))
	if !ok {
		return unknown
	}
	zero, one, two := astq.Compare(0, op, k), astq.Compare(1, op, k), astq.Compare(2, op, k)
	switch {
	case d.claimCount(x, e.Pos()):
		// a claim affects no row for an id seen before, one for a new id
		if zero {
			return before
		}
		return first
	case d.lookup(x, e.Pos()) == lookupCount:
		// a count of the id's rows is above 0 for an id seen before
		if !zero && one && two {
			return before
		}
		if zero && !one && !two {
			return first
		}
	}
	return unknown
}

// flip is the comparison with its operands swapped.
func flip(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.LEQ:
		return token.GEQ
	case token.GTR:
		return token.LSS
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// noRows reports whether e is sql.ErrNoRows or pgx.ErrNoRows.
func (d *dedupe) noRows(e ast.Expr) bool {
	id := astq.NameIdent(e)
	if id == nil {
		return false
	}
	v, ok := d.c.info.Uses[id].(*types.Var)
	return ok && v.Pkg() != nil && errNoRows[v.Pkg().Path()+"."+v.Name()]
}

// claimCount reports whether e, before pos, is the affected-row count of
// a claim of the id.
func (d *dedupe) claimCount(e ast.Expr, pos token.Pos) bool {
	call, ok := d.defs().Origin(e, pos).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := d.c.callee(call)
	sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if fn == nil || !isSel || !rowCounts[fn.FullName()] {
		return false
	}
	stmt, ok := d.defs().Origin(sel.X, call.Pos()).(*ast.CallExpr)
	return ok && d.ofID(stmt, claims, "Exec", "ExecContext")
}

// scanErr says what it says of the id that e, before pos, is
// sql.ErrNoRows (or pgx.ErrNoRows), when e is the error of the Scan of a
// QueryRow given the id: for a claim's RETURNING row, that the id was
// there (before); for a lookup of the id's row (SELECT columns FROM …
// WHERE, no aggregate: no row when there is none), that it is new (first).
func (d *dedupe) scanErr(e ast.Expr, pos token.Pos) seen {
	row := d.scanned(d.defs().Origin(e, pos))
	if row == nil {
		return unknown
	}
	says := unknown
	if !d.ofID(row, func(q string) bool {
		norm := normSQL(q)
		switch {
		case claims(q) && strings.Contains(norm, " RETURNING "):
			says = before
		case rowLookup().MatchString(norm) && strings.Contains(norm, " WHERE "):
			says = first
		}
		return says != unknown
	}, "QueryRow", "QueryRowContext") {
		return unknown // not of the id
	}
	return says
}

// lookupKind is what a lookup scans: a bool (SELECT EXISTS) or a count.
type lookupKind int

const (
	noLookup lookupKind = iota
	lookupExists
	lookupCount
)

// lookup returns the kind of lookup of the id that e, a variable, holds
// at pos: the destination of the last Scan before pos of a QueryRow of
// SELECT EXISTS (a bool) or SELECT count (a number).
func (d *dedupe) lookup(e ast.Expr, pos token.Pos) lookupKind {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return noLookup
	}
	v, ok := d.c.info.Uses[id].(*types.Var)
	if !ok || !retryscope.Local(v) {
		return noLookup
	}
	if d.dests == nil {
		// The calls given the address of a variable, in one walk.
		d.dests = make(map[*types.Var][]*ast.CallExpr)
		ast.Inspect(d.body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				for _, a := range call.Args {
					u, ok := ast.Unparen(a).(*ast.UnaryExpr)
					if !ok || u.Op != token.AND {
						continue
					}
					if id := astq.NameIdent(u.X); id != nil {
						if w, ok := d.c.info.Uses[id].(*types.Var); ok {
							d.dests[w] = append(d.dests[w], call)
						}
					}
				}
			}
			return true
		})
	}
	var last *ast.CallExpr
	for _, call := range d.dests[v] {
		if call.End() <= pos && (last == nil || call.Pos() > last.Pos()) {
			last = call
		}
	}
	if last == nil {
		return noLookup
	}
	row := d.scanned(last)
	if row == nil {
		return noLookup
	}
	kind := noLookup
	if !d.ofID(row, func(q string) bool {
		m := lookupStmt().FindStringSubmatch(normSQL(q))
		if m == nil {
			return false
		}
		kind = lookupCount
		if m[1] == "EXISTS" {
			kind = lookupExists
		}
		return true
	}, "QueryRow", "QueryRowContext") {
		return noLookup
	}
	b, isBool := v.Type().Underlying().(*types.Basic)
	if (kind == lookupExists) != (isBool && b.Kind() == types.Bool) {
		return noLookup
	}
	return kind
}

// scanned returns the row that e, a Scan of a QueryRow's row, reads.
func (d *dedupe) scanned(e ast.Expr) *ast.CallExpr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	fn := d.c.callee(call)
	sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if fn == nil || !isSel || !rowScans[fn.FullName()] {
		return nil
	}
	row, _ := d.defs().Origin(sel.X, call.Pos()).(*ast.CallExpr)
	return row
}

// ofID reports whether call is a database/sql or pgx statement (one of
// methods) whose constant query is reports true for and one of whose
// arguments carries the job's or message's stable id.
func (d *dedupe) ofID(call *ast.CallExpr, is func(q string) bool, methods ...string) bool {
	fn := d.c.callee(call)
	if fn == nil || fn.Pkg() == nil || fn.Signature().Recv() == nil || !sqlPackage(fn.Pkg().Path()) {
		return false
	}
	found := false
	for _, m := range methods {
		found = found || fn.Name() == m
	}
	if !found {
		return false
	}
	qi := queryArg(d.c.info, call)
	if len(call.Args) <= qi {
		return false
	}
	q, ok := astq.StringConst(d.c.info, call.Args[qi])
	if !ok || !is(q) {
		return false
	}
	for _, arg := range call.Args[qi+1:] {
		if d.c.mentionsID(d.h, d.body, d.ids, arg, 0) {
			return true
		}
	}
	return false
}

// sqlPackage reports whether path is database/sql or pgx's.
func sqlPackage(path string) bool {
	return path == "database/sql" || strings.HasPrefix(path, "github.com/jackc/pgx/v5")
}

// queryArg returns the index of a statement call's query: after its
// context, if it takes one.
func queryArg(info *types.Info, call *ast.CallExpr) int {
	if len(call.Args) > 0 && isContext(info.TypeOf(call.Args[0])) {
		return 1
	}
	return 0
}

// leaves reports whether list always leaves the statements after it: it
// ends in a return, a continue, a panic or, with breaks (in an if: the
// break leaves the loop, switch or select around the statements), a
// break.
func leaves(info *types.Info, list []ast.Stmt, breaks bool) bool {
	if len(list) == 0 {
		return false
	}
	switch st := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return st.Tok == token.CONTINUE || breaks && st.Tok == token.BREAK
	case *ast.BlockStmt:
		return leaves(info, st.List, breaks)
	case *ast.IfStmt:
		return st.Else != nil && leaves(info, st.Body.List, breaks) && leaves(info, []ast.Stmt{st.Else}, breaks)
	case *ast.ExprStmt:
		if call, ok := st.X.(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
				_, builtin := info.Uses[id].(*types.Builtin)
				return builtin && id.Name == "panic"
			}
		}
	}
	return false
}

// within reports whether pos is in one of spans.
func within(spans []span, pos token.Pos) bool {
	for _, s := range spans {
		if s.from <= pos && pos < s.to {
			return true
		}
	}
	return false
}
