package keyinloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/idemlint/idemlint/internal/suppress"
	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/check"
	engine "github.com/idemlint/idemlint/passes/internal/flow"
	"github.com/idemlint/idemlint/passes/internal/flow/value"
	"github.com/idemlint/idemlint/passes/internal/keys"
	"github.com/idemlint/idemlint/passes/internal/names"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// Name is the check's name.
const Name = "keyinloop"

// Config configures the check.
type Config struct {
	// Scope is the retry model pass to read; nil means retryscope.Analyzer.
	Scope *analysis.Analyzer
	// KeyGenerators are the full names of extra functions that return a
	// fresh key ("example.com/ids.New", "(*example.com/ids.Gen).Next").
	KeyGenerators []string
	// KeyHeaders are extra request headers that carry an idempotency key,
	// besides Idempotency-Key and X-Idempotency-Key (case-insensitive).
	KeyHeaders []string
	// KeyFields are extra struct field names that carry an idempotency key,
	// besides IdempotencyKey, IdempotencyToken, ClientToken and
	// ClientRequestToken.
	KeyFields []string
}

// Analyzer is the check with the default configuration.
var Analyzer = New(&Config{})

// New returns the check for cfg. The analyzer reads cfg when it runs.
func New(cfg *Config) *analysis.Analyzer {
	a := check.New(check.Spec{Doc: Documentation, Scope: cfg.Scope,
		Run: func(pass *analysis.Pass, res *retryscope.Result) { run(pass, res, cfg) }})
	// the value flow: where a key's value comes from
	a.Requires = append(a.Requires, engine.Analyzer)
	a.Flags.Var(keys.List{P: &cfg.KeyGenerators}, "key-generators", "comma-separated full names of extra functions that return a fresh key")
	check.KeyFlags(a, &cfg.KeyHeaders, &cfg.KeyFields)
	return a
}

// checker holds what one run knows about the package.
type checker struct {
	pass *analysis.Pass
	info *types.Info
	res  *retryscope.Result
	// engine is the package's SSA form, built when a key sink is first met
	// (most retries set none): vf is its value flow.
	engine *engine.Handle
	vf     *value.Flow
	names  *keys.Names
	gens   map[string]bool
	funcs  map[*types.Func]*ast.FuncDecl
	// fresh holds, per package function summarised, whether it returns a
	// fresh value (see isFresh).
	fresh map[*types.Func]bool
	// sinkParams holds, per package function summarised, the parameters
	// that reach a key sink (see sinkSummary).
	sinkParams map[*types.Func]map[int]bool
	// mints holds, per package function summarised, the keys it mints
	// and sets itself on every call (see mintSinks).
	mints    map[*types.Func][]sink
	parents  keys.ParentIndex // per scope function
	reported map[ast.Node]bool
}

func run(pass *analysis.Pass, res *retryscope.Result, cfg *Config) {
	var scopes []*retryscope.Scope
	for _, s := range res.Scopes() {
		// A key minted in a job handler is jobretry's finding, which names
		// the framework and the job's stable id.
		if s.Body != nil && s.Kind != retryscope.JobHandler {
			scopes = append(scopes, s)
		}
	}
	if len(scopes) == 0 {
		return
	}
	c := &checker{
		pass: pass, info: pass.TypesInfo, res: res, engine: pass.ResultOf[engine.Analyzer].(*engine.Handle),
		names:      keys.NewNames(cfg.KeyHeaders, cfg.KeyFields),
		gens:       make(map[string]bool),
		funcs:      make(map[*types.Func]*ast.FuncDecl),
		fresh:      make(map[*types.Func]bool),
		sinkParams: make(map[*types.Func]map[int]bool),
		mints:      make(map[*types.Func][]sink),
		parents:    make(keys.ParentIndex),
		reported:   make(map[ast.Node]bool),
	}
	for _, g := range cfg.KeyGenerators {
		c.gens[strings.TrimSpace(g)] = true
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := c.info.Defs[fd.Name].(*types.Func); ok {
					c.funcs[fn] = fd
				}
			}
		}
	}
	for _, s := range scopes {
		if suppress.GeneratedAt(pass, s.Body.Pos()) {
			continue
		}
		f := c.newFlow(s.Body, nil)
		f.counter = s.Counter(c.info)
		for _, sk := range f.sinks() {
			if c.reported[sk.origin] {
				continue
			}
			switch org := sk.origin.(type) {
			case *ast.CallExpr:
				c.reported[org] = true
				c.report(org, sk)
			case *ast.Ident:
				if f.counter != nil && c.info.Uses[org] == f.counter {
					c.reported[org] = true
					c.reportCounter(org, sk)
				}
			}
		}
	}
}

// values returns the package's value flow, building the SSA form on the
// first call; nil when the package has none (type errors).
func (c *checker) values() *value.Flow {
	if c.vf == nil {
		if p := c.engine.Get(); p != nil {
			c.vf = value.Of(p)
		}
	}
	return c.vf
}

// The package's small helpers are summarised on demand, when a flow meets
// a call of one (most functions of a package are never called from a
// retry): whether a function returns a fresh value (isFresh), and which of
// its parameters reach a key sink (sinkSummary). A function met again while
// its summary is being computed (recursion) counts as neither.

// isFresh reports whether fn, a function of the package, returns a fresh
// value on every call.
func (c *checker) isFresh(fn *types.Func) bool {
	fn = fn.Origin()
	if v, ok := c.fresh[fn]; ok {
		return v
	}
	fd := c.funcs[fn]
	if fd == nil || fd.Type.Results == nil || len(fd.Type.Results.List) == 0 {
		c.fresh[fn] = false
		return false
	}
	c.fresh[fn] = false // in progress
	v := false
	if vf := c.values(); vf != nil {
		if sfn := vf.P.Func(fd); sfn != nil {
			v = c.newFlow(fd.Body, nil).returnsFresh(sfn)
		}
	}
	c.fresh[fn] = v
	return v
}

// sinkSummary returns the parameters of fn, a function of the package,
// that reach a key sink.
func (c *checker) sinkSummary(fn *types.Func) map[int]bool {
	fn = fn.Origin()
	if v, ok := c.sinkParams[fn]; ok {
		return v
	}
	fd := c.funcs[fn]
	if fd == nil {
		c.sinkParams[fn] = nil
		return nil
	}
	params := astq.Params(c.info, fd)
	if len(params) == 0 {
		c.sinkParams[fn] = nil
		return nil
	}
	c.sinkParams[fn] = nil // in progress
	f := c.newFlow(fd.Body, fd)
	var out map[int]bool
	for _, sk := range f.sinks() {
		id, ok := sk.origin.(*ast.Ident)
		if !ok {
			continue
		}
		if i, ok := params[id]; ok {
			if out == nil {
				out = make(map[int]bool)
			}
			out[i] = true
		}
	}
	c.sinkParams[fn] = out
	return out
}

// mintSinks returns the keys that fn, a function of the package, mints and
// sets itself on every call: a request builder that writes
// uuid.NewString() into the Idempotency-Key header of the request it
// returns. Called inside a retry, it gives every attempt a new key.
func (c *checker) mintSinks(fn *types.Func) []sink {
	fn = fn.Origin()
	if v, ok := c.mints[fn]; ok {
		return v
	}
	fd := c.funcs[fn]
	c.mints[fn] = nil // in progress, or none
	if fd == nil {
		return nil
	}
	f := c.newFlow(fd.Body, nil)
	var out []sink
	for _, sk := range f.sinks() {
		if _, ok := sk.origin.(*ast.CallExpr); ok {
			out = append(out, sk)
		}
	}
	c.mints[fn] = out
	return out
}

// sink is a place where a value becomes an idempotency key.
type sink struct {
	origin ast.Node // the minting call, or a parameter's name in a summary
	at     ast.Node // where the value becomes the key: the header write, the field, the call
	what   string   // "the Idempotency-Key header", "field ClientToken", ...
	// via is set when origin calls a function of the package that mints
	// the key and sets it itself (mintSinks): at is then in that function.
	via *types.Func
}

func (c *checker) report(org *ast.CallExpr, sk sink) {
	s := c.res.Innermost(org.Pos())
	if s == nil || s.Kind == retryscope.JobHandler {
		return
	}
	of := ""
	if s.Kind == retryscope.LibraryCall {
		of = " of " + s.Name
	}
	fix := mintFix
	if sk.via != nil {
		fix = passFix // the key is minted in the function called: no statement to move
	}
	d := analysis.Diagnostic{
		Pos:     org.Pos(),
		End:     org.End(),
		Message: keyMessage(c.generatorName(org), sk.what, of, fix),
	}
	if sk.at != nil {
		d.Related = []analysis.RelatedInformation{{Pos: sk.at.Pos(), End: sk.at.End(), Message: "the key reaches " + sk.what + " here"}}
	}
	if sk.via == nil {
		if move, ok := c.moveFix(s, org); ok {
			d.SuggestedFixes = []analysis.SuggestedFix{move}
		}
	}
	suppress.Report(c.pass, Name, d)
}

// keyMessage is the finding's message, with the fix (mintFix, or
// passFix for a key a called function mints); of (" of retry.Do"), and
// then where the key goes (the related information still says), are left
// out when the message would be longer than 120 characters.
func keyMessage(gen, what, of, fix string) string {
	msg := func() string {
		return gen + " mints a new key for " + what + " on every attempt" + of + "; " + fix
	}
	if utf8.RuneCountInString(msg()) > 120 {
		of = ""
	}
	if utf8.RuneCountInString(msg()) > 120 {
		return gen + " mints a new key on every attempt; " + fix
	}
	return msg()
}

const (
	mintFix = "mint it once above the retry"
	passFix = "mint it above the retry and pass it in"
)

// reportCounter reports a key built from the loop's attempt counter.
func (c *checker) reportCounter(id *ast.Ident, sk sink) {
	msg := "key for " + sk.what + " is built from the attempt number " + id.Name + ", new on every attempt; " + mintFix
	if utf8.RuneCountInString(msg) > 120 {
		msg = "key built from the attempt number " + id.Name + " is new on every attempt; " + mintFix
	}
	d := analysis.Diagnostic{Pos: id.Pos(), End: id.End(), Message: msg,
		Related: []analysis.RelatedInformation{{Pos: sk.at.Pos(), End: sk.at.End(), Message: "the key reaches " + sk.what + " here"}}}
	suppress.Report(c.pass, Name, d)
}

func (c *checker) generatorName(call *ast.CallExpr) string {
	if fn := typeutil.StaticCallee(c.info, call); fn != nil {
		return names.In(fn, c.pass.Pkg)
	}
	return types.ExprString(call.Fun)
}

// isGenerator reports whether fn returns a fresh value on every call.
func (c *checker) isGenerator(fn *types.Func) bool {
	if c.gens[fn.FullName()] || c.isFresh(fn) {
		return true
	}
	return keys.Fresh(fn)
}

// derives reports whether a call of fn returns a value derived from its
// arguments (an encoding, a formatting), so a fresh argument gives a fresh
// result.
func derives(fn *types.Func) bool {
	switch fn.FullName() {
	case "fmt.Sprint", "fmt.Sprintf", "fmt.Sprintln",
		"encoding/hex.EncodeToString",
		"(*encoding/base64.Encoding).EncodeToString", "(*encoding/base32.Encoding).EncodeToString",
		"strconv.Itoa", "strconv.FormatInt", "strconv.FormatUint", "strconv.FormatFloat", "strconv.Quote",
		"strings.ToLower", "strings.ToUpper", "strings.TrimSpace", "strings.ReplaceAll", "strings.Replace", "strings.Join", "strings.Clone":
		return true
	}
	return keys.PassThrough(fn)
}

// derivingMethods are methods that turn a fresh receiver into a string or
// a number.
var derivingMethods = map[string]bool{
	"String": true, "URN": true, "Format": true, "Bytes": true, "Text": true, "MarshalText": true,
	"Unix": true, "UnixNano": true, "UnixMilli": true, "UnixMicro": true, "UTC": true,
	"Int64": true, "Uint64": true,
}

// moveFix moves the statement that mints org above the retry scope s, when
// that keeps the program's meaning apart from minting once.
func (c *checker) moveFix(s *retryscope.Scope, org *ast.CallExpr) (analysis.SuggestedFix, bool) {
	var none analysis.SuggestedFix
	if s.Body == nil || !(s.Node.Pos() <= s.Body.Pos() && s.Body.End() <= s.Node.End()) {
		return none, false // an operation declared elsewhere
	}
	var stmt ast.Stmt
	for _, st := range s.Body.List {
		if st.Pos() <= org.Pos() && org.End() <= st.End() {
			stmt = st
		}
	}
	var lhs []*ast.Ident
	var rhs ast.Expr
	switch st := stmt.(type) {
	case *ast.AssignStmt:
		if st.Tok != token.DEFINE || len(st.Rhs) != 1 {
			return none, false
		}
		rhs = st.Rhs[0]
		for _, l := range st.Lhs {
			id, ok := l.(*ast.Ident)
			if !ok {
				return none, false
			}
			lhs = append(lhs, id)
		}
	case *ast.DeclStmt:
		gd, ok := st.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR || len(gd.Specs) != 1 {
			return none, false
		}
		vs := gd.Specs[0].(*ast.ValueSpec)
		if len(vs.Values) != 1 {
			return none, false
		}
		rhs, lhs = vs.Values[0], vs.Names
	default:
		return none, false
	}
	// The statement must be the minting and nothing else: its value is
	// the key (or an encoding of it).
	vf := c.values()
	if vf == nil || c.newFlow(s.Body, nil).origin(vf.ValueOf(c.info, rhs), rhs) != org {
		return none, false
	}
	// Nothing it uses may be defined or changed in the scope.
	ok := true
	ast.Inspect(rhs, func(n ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !isID {
			return true
		}
		o := c.info.Uses[id]
		if v, isVar := o.(*types.Var); isVar && !v.IsField() {
			if in(s.Node, o.Pos()) || c.assignedIn(s.Node, o, nil) {
				ok = false
			}
		}
		return ok
	})
	if !ok {
		return none, false
	}
	parents := c.parents.Of(s.Func)
	above := keys.Above(s, parents)
	if above == nil {
		return none, false
	}
	for _, id := range lhs {
		if id.Name == "_" {
			continue
		}
		o := c.info.Defs[id]
		if o == nil || !keys.Free(c.pass.Pkg, id.Name, above.Pos()) || c.assignedIn(s.Node, o, stmt) || c.declaresOther(s.Node, id) {
			return none, false
		}
	}
	file := c.pass.Fset.File(stmt.Pos())
	src, err := c.pass.ReadFile(file.Name())
	if err != nil {
		return none, false
	}
	start, end, textEnd, ok := keys.LineSpan(src, file, stmt)
	if !ok {
		return none, false
	}
	text := string(src[file.Offset(stmt.Pos()):file.Offset(textEnd)])
	target := "retry loop"
	if s.Kind == retryscope.LibraryCall {
		target = "retry call"
	}
	return analysis.SuggestedFix{
		Message: "Move the key above the " + target,
		TextEdits: []analysis.TextEdit{
			{Pos: above.Pos(), End: above.Pos(), NewText: []byte(text + "\n" + keys.Indent(src, file, above.Pos()))},
			{Pos: start, End: end},
		},
	}, true
}

// assignedIn reports whether o is assigned in n by a statement other than
// except.
func (c *checker) assignedIn(n ast.Node, o types.Object, except ast.Stmt) bool {
	found := false
	ast.Inspect(n, func(x ast.Node) bool {
		if found || x == except && except != nil {
			return false
		}
		for _, t := range astq.Written(x) {
			if id, ok := ast.Unparen(t).(*ast.Ident); ok && (c.info.Uses[id] == o || c.info.Defs[id] == o) {
				found = true
			}
		}
		return !found
	})
	return found
}

// declaresOther reports whether n declares another object named like id.
func (c *checker) declaresOther(n ast.Node, id *ast.Ident) bool {
	found := false
	ast.Inspect(n, func(x ast.Node) bool {
		if d, ok := x.(*ast.Ident); ok && d != id && d.Name == id.Name && c.info.Defs[d] != nil {
			found = true
		}
		return !found
	})
	return found
}

// in reports whether pos lies within n.
func in(n ast.Node, pos token.Pos) bool {
	return n != nil && n.Pos() <= pos && pos < n.End()
}
