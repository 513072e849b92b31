package jobretry

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/passes/internal/check"
	"github.com/idemlint/idemlint/passes/internal/keys"
	"github.com/idemlint/idemlint/passes/retryscope"
)

// Name is the check's name.
const Name = "jobretry"

// Config configures the check.
type Config struct {
	// Scope is the retry model pass to read; nil means retryscope.Analyzer.
	Scope *analysis.Analyzer
	// KeyHeaders are extra request headers that carry an idempotency key.
	KeyHeaders []string
	// KeyFields are extra struct fields that carry an idempotency key.
	KeyFields []string
}

// Analyzer is the check with the default configuration.
var Analyzer = New(&Config{})

// New returns the check for cfg.
func New(cfg *Config) *analysis.Analyzer {
	a := check.New(check.Spec{Doc: Documentation, Scope: cfg.Scope,
		FactTypes: []analysis.Fact{new(effectFact), new(stmtFact), new(stmtParamFact), new(fieldCallsFact), new(ctorFact)},
		Run:       func(pass *analysis.Pass, res *retryscope.Result) { run(pass, res, cfg) }})
	check.KeyFlags(a, &cfg.KeyHeaders, &cfg.KeyFields)
	return a
}

func run(pass *analysis.Pass, res *retryscope.Result, cfg *Config) {
	var c *checker
	if len(pass.Files) > 0 && facts(pass.Pkg, pass.Fset.File(pass.Files[0].Pos()).Name()) {
		c = newChecker(pass, res, keys.NewNames(cfg.KeyHeaders, cfg.KeyFields))
		c.exportFacts()
	}
	for _, s := range res.Scopes() {
		if s.Kind != retryscope.JobHandler || s.Body == nil {
			continue
		}
		if c == nil {
			c = newChecker(pass, res, keys.NewNames(cfg.KeyHeaders, cfg.KeyFields))
		}
		h := handlerOf(s)
		c.visit(h, h.body, h.params, 0)
	}
}

// newChecker indexes the package's function declarations.
func newChecker(pass *analysis.Pass, res *retryscope.Result, names *keys.Names) *checker {
	c := &checker{
		pass:     pass,
		res:      res,
		info:     pass.TypesInfo,
		names:    names,
		decls:    make(map[*types.Func]*ast.FuncDecl),
		reported: make(map[reportKey]bool),
	}
	for _, f := range pass.Files {
		if !ast.IsGenerated(f) {
			c.files = append(c.files, f)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if fn, ok := c.info.Defs[fd.Name].(*types.Func); ok {
				c.decls[fn] = fd
				c.funcs = append(c.funcs, fn)
			}
		}
	}
	return c
}
