package jobretry

import (
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/internal/suppress"

	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/keys"
	"github.com/idemlint/idemlint/passes/internal/names"
	"github.com/idemlint/idemlint/passes/retryscope"
)

const maxDepth = 4

// visit looks for effects in body, a handler's or a helper's it calls;
// ids are the variables of body that carry the job's stable id.
//
// The code a dedupe of the id gates (deduped) is visited as an inbox
// handler's: its database writes commit once per id.
func (c *checker) visit(h *handler, body *ast.BlockStmt, ids map[*types.Var]bool, depth int) {
	gated := c.deduped(h, body, ids)
	var once *handler
	ast.Inspect(body, func(n ast.Node) bool {
		h := h
		if n != nil && within(gated, n.Pos()) {
			if once == nil {
				in := *h
				in.inbox = true
				once = &in
			}
			h = once
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if lit := c.inboxHandler(n); lit != nil && !h.inbox {
				in := *h
				in.inbox = true
				c.visit(&in, lit.Body, ids, depth)
				return false
			}
			c.call(h, body, ids, n, depth)
		case *ast.CompositeLit:
			c.keyLiteral(h, body, ids, n)
		case *ast.AssignStmt:
			c.keyAssign(h, body, ids, n)
		}
		return true
	})
}

func (c *checker) call(h *handler, body *ast.BlockStmt, ids map[*types.Var]bool, call *ast.CallExpr, depth int) {
	fn := c.callee(call)
	if fn == nil {
		return
	}
	if fd := c.decls[fn.Origin()]; fn.Pkg() == c.pass.Pkg && fd != nil {
		if depth >= maxDepth || fd.Body == body {
			return
		}
		c.visit(h, fd.Body, c.paramIDs(h, body, ids, call, fn, fd), depth+1)
		return
	}
	for _, w := range keysWrites(c, call) {
		if w.Const && c.names.Header(w.Name) && c.fresh(body, w.Value, 0) {
			c.report(h, call, w.Name+" is new on every run", "", "")
		}
	}
	c.storageCall(h, body, ids, call, fn)
	if send := retryscope.NonIdempotentSend(c.info, body, call); send != nil {
		if send.Req == nil {
			c.report(h, call, "POST", names.Of(fn), " sends no idempotency key")
		} else {
			c.do(h, body, send)
		}
	}
	if fn.Pkg() != nil {
		path := fn.Pkg().Path()
		switch {
		case keys.KeyedAPI(fn):
			if keys.KeySetter(fn) && len(call.Args) == 1 && c.fresh(body, call.Args[0], 0) {
				c.report(h, call, names.Of(fn)+" gets a new key each run", "", "")
				return
			}
			c.stripe(h, body, ids, call, fn)
		case sqlPackage(path):
			c.sql(h, body, ids, call, fn)
		}
	}
}

// paramIDs returns the parameters of fd, the declaration of fn, that
// call, in body, passes the job's stable id.
func (c *checker) paramIDs(h *handler, body *ast.BlockStmt, ids map[*types.Var]bool, call *ast.CallExpr, fn *types.Func, fd *ast.FuncDecl) map[*types.Var]bool {
	sub := make(map[*types.Var]bool)
	if sig := fn.Signature(); sig.Variadic() == false && sig.Params().Len() == len(call.Args) {
		for i, arg := range call.Args {
			if c.mentionsID(h, body, ids, arg, 0) {
				sub[sig.Params().At(i).Origin()] = true
			}
		}
	}
	// Parameters of the declaration are its own objects.
	declIDs := make(map[*types.Var]bool)
	i := 0
	for _, field := range fd.Type.Params.List {
		for _, n := range field.Names {
			if v, ok := c.info.Defs[n].(*types.Var); ok && i < fn.Signature().Params().Len() && sub[fn.Signature().Params().At(i).Origin()] {
				declIDs[v] = true
			}
			i++
		}
		if len(field.Names) == 0 {
			i++
		}
	}
	return declIDs
}

// do reports client.Do(req) of a POST or PATCH request built in body
// with no idempotency-key header set in body.
func (c *checker) do(h *handler, body *ast.BlockStmt, send *retryscope.Send) {
	call, method := send.Call, send.Method
	keyed := false
	ast.Inspect(body, func(n ast.Node) bool {
		for _, w := range keysWrites(c, n) {
			if r := keys.RequestOf(c.info, w.Header); r != nil && r != send.Req {
				continue // another request's header
			}
			if !w.Const || c.names.Header(w.Name) {
				keyed = true // a key header (fresh values are reported where set)
			}
		}
		return true
	})
	if !keyed {
		c.report(h, call, method, "(*http.Client).Do", " sends no idempotency key")
	}
}

// keyLiteral reports a key field set to a fresh value in a literal.
func (c *checker) keyLiteral(h *handler, body *ast.BlockStmt, ids map[*types.Var]bool, lit *ast.CompositeLit) {
	for _, w := range keysWrites(c, lit) {
		if w.Const && c.names.Header(w.Name) && c.fresh(body, w.Value, 0) {
			c.report(h, w.Node, w.Name+" is new on every run", "", "")
		}
	}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if k, ok := kv.Key.(*ast.Ident); ok && c.keyField(k) && c.fresh(body, kv.Value, 0) {
			c.report(h, kv, "field "+k.Name+" is new on every run", "", "")
		}
	}
}

// keyAssign reports x.Field = fresh, a header Set of a fresh key, and
// params.SetIdempotencyKey(fresh) (through call, see keyCall).
func (c *checker) keyAssign(h *handler, body *ast.BlockStmt, ids map[*types.Var]bool, as *ast.AssignStmt) {
	for _, w := range keysWrites(c, as) {
		if w.Const && c.names.Header(w.Name) && c.fresh(body, w.Value, 0) {
			c.report(h, as, w.Name+" is new on every run", "", "")
		}
	}
	if len(as.Lhs) != len(as.Rhs) {
		return
	}
	for i, lhs := range as.Lhs {
		sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
		if ok && c.keyField(sel.Sel) && c.fresh(body, as.Rhs[i], 0) {
			c.report(h, as, "field "+sel.Sel.Name+" is new on every run", "", "")
		}
	}
}

// keyField reports whether id, a field's name where it is set, names a key
// field: by its name (IdempotencyKey, -key-fields) or, for a library's
// type, as its protocol defines it (keys.ProtocolKeyField).
func (c *checker) keyField(id *ast.Ident) bool {
	if c.names.Field(id.Name) {
		return true
	}
	v, _ := c.info.Uses[id].(*types.Var)
	return keys.ProtocolKeyField(v)
}

// stripe reports a stripe-go payment call (New, Capture, Confirm) whose
// params, a literal built in body, carry no idempotency key: stripe-go
// makes a fresh key per call, so a retried job pays again. A fresh key is
// reported where it is set.
func (c *checker) stripe(h *handler, body *ast.BlockStmt, ids map[*types.Var]bool, call *ast.CallExpr, fn *types.Func) {
	switch fn.Name() {
	case "New", "Capture", "Confirm":
	default:
		return
	}
	if len(call.Args) == 0 {
		return
	}
	params := ast.Unparen(call.Args[len(call.Args)-1])
	id, ok := params.(*ast.Ident)
	if !ok {
		return
	}
	v, ok := c.info.Uses[id].(*types.Var)
	if !ok {
		return
	}
	rhs := astq.Assignments(c.info, body, v)
	if len(rhs) != 1 {
		return // a parameter or reassigned: the caller may key it
	}
	u, ok := ast.Unparen(rhs[0]).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return
	}
	lit, ok := u.X.(*ast.CompositeLit)
	if !ok {
		return
	}
	keyed := false
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok && (c.names.Field(k.Name) || k.Name == "Params") {
				keyed = true
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if x, ok := ast.Unparen(n.X).(*ast.Ident); ok && c.info.Uses[x] == v && (c.names.Field(n.Sel.Name) || n.Sel.Name == "SetIdempotencyKey" || n.Sel.Name == "Params") {
				keyed = true
			}
		}
		return true
	})
	if !keyed {
		c.report(h, call, names.Of(fn)+" sends no idempotency key", "", "")
	}
}

// The SQL patterns, compiled on first use: most runs of the tool (go vet
// runs it once for each package) never read a query.
var (
	sqlComment = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)--[^\n]*|/\*.*?\*/`) })
	insertInto = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^INSERT\s+INTO\s+("?[\w.]+"?)`) })
	uniqueRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bUNIQUE\b`) })
	createRe   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?("?[\w.]+"?)\s*\(`)
	})
	// uniqueIndex is a CREATE UNIQUE INDEX, or an ALTER TABLE that adds
	// a unique constraint or a primary key, with the table it keys.
	uniqueIndex = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)CREATE\s+UNIQUE\s+INDEX\s+(?:CONCURRENTLY\s+)?(?:IF\s+NOT\s+EXISTS\s+)?(?:"?[\w.]+"?\s+)?ON\s+(?:ONLY\s+)?("?[\w.]+"?)` +
			`|ALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?("?[\w.]+"?)\s+ADD\s+(?:CONSTRAINT\s+"?\w+"?\s+)?(?:UNIQUE|PRIMARY\s+KEY)\b`)
	})
	// deleteBatch is a DELETE of the rows a delivery has sent, by their ids
	// or positions (= ANY($n), IN ($n), <= $n) or of the rows that expired.
	deleteBatch = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?is)DELETE\s+FROM\s+("?[\w.]+"?)\s+WHERE\s+[^;]*?(?:=\s*ANY\s*\(|\bIN\s*\(|<=?\s*\$\d)`)
	})
)

// sql reports an INSERT with no ON CONFLICT, through database/sql or pgx,
// into a table with no natural key visible in the package.
func (c *checker) sql(h *handler, body *ast.BlockStmt, ids map[*types.Var]bool, call *ast.CallExpr, fn *types.Func) {
	if fn.Signature().Recv() == nil {
		return
	}
	switch fn.Name() {
	case "Exec", "ExecContext", "Query", "QueryContext", "QueryRow", "QueryRowContext":
	default:
		return
	}
	qi := queryArg(c.info, call)
	if astq.IsPointerTo(fn.Signature().Recv().Type(), "database/sql", "Stmt") {
		c.stmtExec(h, body, ids, call, fn, qi)
		return
	}
	if len(call.Args) <= qi {
		return
	}
	q, ok := astq.StringConst(c.info, call.Args[qi])
	if !ok {
		return
	}
	norm := normSQL(q)
	m := insertInto().FindStringSubmatch(norm)
	if m == nil {
		return
	}
	for _, guard := range []string{"ON CONFLICT", "WHERE NOT EXISTS", "ON DUPLICATE KEY"} {
		if strings.Contains(norm, guard) {
			return
		}
	}
	for _, arg := range call.Args[qi+1:] {
		if c.mentionsID(h, body, ids, arg, 0) {
			return // keyed by the job's id
		}
	}
	if h.inbox {
		return // commits with the message id, once
	}
	table := strings.Trim(m[1], `"`)
	if c.naturalKey(table) {
		return
	}
	c.report(h, call, "INSERT INTO "+strings.ToLower(table), names.Of(fn), noNaturalKey)
}

// naturalKey reports whether a CREATE TABLE for table in the package's
// string literals declares a UNIQUE constraint or a primary key that is not
// generated (serial, identity, a default, an auto-increment: generated), or
// a CREATE UNIQUE INDEX or an ALTER TABLE … ADD UNIQUE (or PRIMARY KEY)
// keys it.
func (c *checker) naturalKey(table string) bool {
	found := false
	c.eachLiteral(func(s string) bool {
		// Comments hold words too: "-- The ID that uniquely
		// identifies this message."
		s = sqlComment().ReplaceAllString(s, " ")
		for _, m := range uniqueIndex().FindAllStringSubmatch(s, -1) {
			found = found || strings.EqualFold(strings.Trim(m[1]+m[2], `"`), table)
		}
		for _, m := range createRe().FindAllStringSubmatchIndex(s, -1) {
			if !strings.EqualFold(strings.Trim(s[m[2]:m[3]], `"`), table) {
				continue
			}
			cols := columns(s[m[1]:])
			if uniqueRe().MatchString(strings.Join(cols, ",")) {
				found = true
			}
			for _, col := range cols {
				col = strings.TrimSpace(strings.ToUpper(col))
				if !strings.Contains(col, "PRIMARY KEY") {
					continue
				}
				if strings.HasPrefix(col, "PRIMARY KEY") || !generated(col) {
					found = true // a table constraint over named columns, or a key the INSERT gives
				}
			}
		}
		return !found
	})
	return found
}

// generated reports whether a column definition (upper case) makes its
// value when the INSERT gives none: serial types, identity columns, a
// default (nextval, gen_random_uuid()), SQLite's AUTOINCREMENT and MySQL's
// AUTO_INCREMENT. Such a primary key is no natural key: every INSERT makes
// a new row.
func generated(col string) bool {
	for _, w := range []string{"SERIAL", "IDENTITY", "DEFAULT", "AUTOINCREMENT", "AUTO_INCREMENT"} {
		if strings.Contains(col, w) {
			return true
		}
	}
	return false
}

// columns splits the body of a CREATE TABLE (s starts after its opening
// parenthesis) into its column and constraint definitions, at the commas
// outside parentheses, up to the closing parenthesis.
func columns(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return append(out, s[start:i])
			}
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// report reports an effect of handler h at node n: what it does ("POST"),
// the function it does it through (via, "" when what names it) and the
// rest of what it does (" sends no idempotency key"). The message is
// those, the handler and how often its framework retries it, and the fix;
// when that is longer than maxMessage it leaves out, in turn, the
// handler's name (the finding is in it), via, the retry count, the
// handler, and a consumer's message id (the docs say which).
func (c *checker) report(h *handler, n ast.Node, what, via, rest string) {
	k := reportKey{int(n.Pos()), what + rest}
	if c.reported[k] {
		return
	}
	c.reported[k] = true
	if via != "" {
		via = " through " + via
	}
	in, count := " in "+h.kind+" "+h.name, " ("+retries(h.fw)+")"
	fix := "; key by " + id(h.fw) + " via idempotency.Derive"
	if h.fw.Consumer() {
		count, fix = consumerFix(h)
	}
	build := func() string {
		return what + via + rest + in + count + fix
	}
	for step := 0; utf8.RuneCountInString(build()) > maxMessage && step < 6; step++ {
		switch step {
		case 0:
			in = " in " + article(h.kind) + " " + h.kind
		case 1:
			via = ""
		case 2:
			count = ""
		case 3:
			in = ""
		case 4:
			if h.fw.Consumer() {
				fix = shortConsumerFix
			}
		case 5:
			if rest == noNaturalKey {
				rest = shortNoNaturalKey
			}
		}
	}
	suppress.Report(c.pass, Name, analysis.Diagnostic{Pos: n.Pos(), End: n.End(), Message: build()})
}

// article is the indefinite article of kind as it is said: an asynq
// handler, an amqp091 delivery loop, an SQS receive loop.
func article(kind string) string {
	if strings.HasPrefix(kind, "SQS") || strings.ContainsAny(kind[:1], "aeiou") {
		return "an"
	}
	return "a"
}

// maxMessage is the length a message is kept to (see report).
const maxMessage = 120
