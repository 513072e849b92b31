package retryscope

import (
	_ "embed"
	"go/ast"
	"go/types"
	"reflect"
	"slices"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/idemlint/idemlint/internal/analyzerdoc"
	"github.com/idemlint/idemlint/internal/prefilter"
	"github.com/idemlint/idemlint/passes/internal/astq"
	"github.com/idemlint/idemlint/passes/internal/flow"
)

//go:embed doc.go
var doc string

// Name is the helper pass's name. Users never run it directly.
const Name = "idemlint_retryscope"

// Config configures the retry model.
type Config struct {
	// RetryFuncs are the full names of extra functions that retry the
	// function passed to them ("example.com/pkg.Retry",
	// "(*example.com/pkg.Client).Retry"). Their cap, deadline and waits are
	// unknown to the model.
	RetryFuncs []string
}

// Analyzer is the retry model with the default configuration.
var Analyzer = New(&Config{})

// New returns the retry model pass for cfg. The pass reads cfg when it runs,
// so a driver may fill cfg from flags after New returns.
func New(cfg *Config) *analysis.Analyzer {
	a := &analysis.Analyzer{
		Name:             Name,
		Doc:              analyzerdoc.Section(doc, Name),
		URL:              "https://github.com/idemlint/idemlint/blob/main/docs/architecture.md",
		Requires:         []*analysis.Analyzer{inspect.Analyzer, flow.Analyzer},
		ResultType:       reflect.TypeFor[*Result](),
		FactTypes:        []analysis.Fact{new(helperFact), new(delayFact), new(waitFact), new(consumerHelperFact)},
		RunDespiteErrors: false,
		Run: func(pass *analysis.Pass) (any, error) {
			return run(pass, cfg), nil
		},
	}
	configs.Store(a, cfg)
	prefilter.Register(a, cfg.mayExportHelpers)
	return a
}

// configs maps each analyzer New made to its Config.
var configs sync.Map // *analysis.Analyzer → *Config

// LibraryCalls returns, from a package's imports alone, a test of the
// names by which a call in the package might be a retry library call (a
// LibraryCall scope, or a go-retryablehttp Client scope built by a call)
// of the model that scope (an analyzer made by New) builds; nil when no
// call can be. With LoopFilter it lets a driver skip dependencies where a
// check can export no fact (see nestedretry).
func LibraryCalls(scope *analysis.Analyzer, p *prefilter.Package) func(name string) bool {
	v, ok := configs.Load(scope)
	if !ok {
		return func(string) bool { return true } // not the model's analyzer: no promise
	}
	// the library's own package calls its entry points unqualified
	return v.(*Config).libraryCalls(append([]string{p.Path}, p.Imports...), p.DependsOn, false)
}

// model holds what one run knows while it builds the Result.
type model struct {
	pass  *analysis.Pass
	info  *types.Info
	cfg   *Config
	extra map[string]bool // cfg.RetryFuncs as a set
	res   *Result
	funcs map[*types.Func]*ast.FuncDecl
	defs  map[ast.Node]*defIndex // per outermost function
	// stores is fieldStores' answer, once computed.
	stores map[*types.Var][]fieldStore
	// fieldDefaults caches fieldDefaultOf (nil while being computed).
	fieldDefaults map[*types.Var]*fieldDefault
	// pkgDefs is packageDefs' empty def index.
	pkgDefs *defIndex
	// addrTaken is addressTaken's index, once computed.
	addrTaken map[types.Object]bool
	// calledFuncs is calledInPackage's index, once computed.
	calledFuncs map[*types.Func]bool
	// waitSums are the wait summaries of the package's functions
	// (waitsum.go), once computed.
	waitSums map[*types.Func]*waitFact
	// mayLoop is set when the package has a for or range statement that
	// calls something with an error result (loopMayAttempt), a
	// goto or a call that may start its function again: then the flow
	// engine is built for its loop scopes (loops).
	mayLoop bool
	// cands are the calls that pass a func value and are no library call:
	// calls of retry helpers (helpers) or consumer helpers (consumers).
	cands []helperCandidate
}

func run(pass *analysis.Pass, cfg *Config) *Result {
	m := &model{
		pass:  pass,
		info:  pass.TypesInfo,
		cfg:   cfg,
		extra: make(map[string]bool),
		res:   &Result{byNode: make(map[ast.Node]*Scope), grpcConns: make(map[*ast.CallExpr]*GRPCConn), grpcCalls: make(map[*ast.CallExpr]*GRPCOptions)},
		funcs: make(map[*types.Func]*ast.FuncDecl),
		defs:  make(map[ast.Node]*defIndex),
	}
	m.res.info, m.res.defs, m.res.model = m.info, m.defs, m
	m.res.pkg, m.res.files = pass.Pkg, pass.Files
	for _, n := range cfg.RetryFuncs {
		m.extra[n] = true
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					m.funcs[fn] = fd
				}
			}
		}
	}

	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	filter := []ast.Node{(*ast.FuncDecl)(nil), (*ast.FuncLit)(nil), (*ast.ForStmt)(nil), (*ast.RangeStmt)(nil), (*ast.CallExpr)(nil), (*ast.CompositeLit)(nil)}
	var outer ast.Node // outermost function, for the def index
	var funcs []ast.Node
	var cands []helperCandidate
	ins.Nodes(filter, func(n ast.Node, push bool) bool {
		switch n := n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			if push {
				if len(funcs) == 0 {
					outer = n
				}
				funcs = append(funcs, n)
				if !m.mayLoop {
					_, body := astq.Func(n)
					m.mayLoop = mayRepeat(m.info, n, body)
				}
			} else {
				funcs = funcs[:len(funcs)-1]
			}
			return true
		}
		if push && len(funcs) == 0 {
			// a package-level client: var defaultClient = NewClient()
			if call, ok := n.(*ast.CallExpr); ok {
				if fn := m.callee(call); fn != nil && fn.Pkg() != nil && slices.Contains(entries(fn.Pkg().Path()), fn.Name()) {
					if s := m.call(m.packageDefs(), nil, call); s != nil && s.Kind == Client {
						m.res.add(s)
					}
				}
			}
			return true
		}
		if !push {
			return true
		}
		fn := funcs[len(funcs)-1]
		di := m.defIndex(outer)
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if !m.mayLoop {
				m.mayLoop = loopMayAttempt(m.info, n)
			}
		case *ast.CallExpr:
			m.grpcCallOptions(di, n)
			if s := m.call(di, fn, n); s != nil {
				m.res.add(s)
			} else if m.mayHelp(n) {
				cands = append(cands, helperCandidate{di: di, fn: fn, call: n})
			}
		case *ast.CompositeLit:
			if s := m.clientLit(di, fn, n); s != nil {
				m.res.add(s)
			}
		}
		return true
	})
	m.loops(pass.ResultOf[flow.Analyzer].(*flow.Handle))
	m.res.sort()
	m.cands = cands
	m.helpers(cands)
	m.delays()
	m.exportWaits()
	m.jobs()
	m.consumers()
	m.res.sort()
	m.indexFlows()
	m.storedClientSettings()
	m.ownInterceptors()
	return m.res
}

// packageDefs is the def index that package-level clients are read in:
// every assignment of the package's files, so that a field a function
// sets on a package variable (func init() { client.Backoff = ... }) counts.
func (m *model) packageDefs() *defIndex {
	if m.pkgDefs == nil {
		m.pkgDefs = &defIndex{info: m.info, defs: make(map[types.Object][]def), fields: make(map[types.Object][]fieldSet)}
		for _, f := range m.pass.Files {
			di := buildDefIndex(m.info, f)
			for o, ds := range di.defs {
				if !local(o) {
					m.pkgDefs.defs[o] = append(m.pkgDefs.defs[o], ds...)
				}
			}
			for o, fs := range di.fields {
				if !local(o) {
					m.pkgDefs.fields[o] = append(m.pkgDefs.fields[o], fs...)
				}
			}
		}
	}
	return m.pkgDefs
}

func (m *model) defIndex(outer ast.Node) *defIndex {
	di := m.defs[outer]
	if di == nil {
		di = buildDefIndex(m.info, outer)
		m.defs[outer] = di
	}
	return di
}
