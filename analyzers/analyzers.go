package analyzers

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/internal/checkdoc"
	"github.com/idemlint/idemlint/internal/prefilter"
	"github.com/idemlint/idemlint/passes/jobretry"
	"github.com/idemlint/idemlint/passes/keyinloop"
	"github.com/idemlint/idemlint/passes/keyprop"
	"github.com/idemlint/idemlint/passes/nestedretry"
	"github.com/idemlint/idemlint/passes/nojitter"
	"github.com/idemlint/idemlint/passes/retryscope"
	"github.com/idemlint/idemlint/passes/retrystatus"
	"github.com/idemlint/idemlint/passes/retrytimeout"
	"github.com/idemlint/idemlint/passes/unboundedretry"
	"github.com/idemlint/idemlint/passes/unkeyedpost"
)

// A check is one check of the suite, as the registry lists it.
type check struct {
	// doc is the check's documentation, the one source of its name, its
	// analyzer's Doc and its page docs/<name>.md.
	doc *checkdoc.Doc
	// new builds the check's analyzer for the suite s.
	new func(s *suite) *analysis.Analyzer
	// prefilter, when set, returns the check's prefilter for the check
	// built on the retry model scope (see internal/prefilter); New
	// registers it for the analyzer it builds.
	prefilter func(scope *analysis.Analyzer) prefilter.Func
}

// suite is what a check's constructor reads: the configuration, the retry
// model every check shares, the names of all the checks, and the enabled
// checks built before it.
type suite struct {
	cfg     *Config
	scope   *analysis.Analyzer
	names   []string
	enabled []*analysis.Analyzer
}

// registry lists every check of the suite, in the order drivers show them.
// Helper passes (retryscope, suppress) are not in it: users never run them
// directly. ignoredirective is last: it requires the other enabled checks.
var registry = []check{
	{doc: unboundedretry.Documentation, new: func(s *suite) *analysis.Analyzer {
		return unboundedretry.New(&unboundedretry.Config{Scope: s.scope, StrictContext: s.cfg.StrictContext})
	}},
	{doc: nojitter.Documentation, new: func(s *suite) *analysis.Analyzer {
		return nojitter.New(&nojitter.Config{Scope: s.scope})
	}},
	{doc: keyinloop.Documentation, new: func(s *suite) *analysis.Analyzer {
		return keyinloop.New(&keyinloop.Config{Scope: s.scope, KeyGenerators: s.cfg.KeyGenerators, KeyHeaders: s.cfg.KeyHeaders, KeyFields: s.cfg.KeyFields})
	}},
	{doc: unkeyedpost.Documentation, new: func(s *suite) *analysis.Analyzer {
		return unkeyedpost.New(&unkeyedpost.Config{Scope: s.scope, KeyHeaders: s.cfg.KeyHeaders})
	}},
	{doc: nestedretry.Documentation, prefilter: nestedretry.Prefilter, new: func(s *suite) *analysis.Analyzer {
		return nestedretry.New(&nestedretry.Config{Scope: s.scope})
	}},
	{doc: retrytimeout.Documentation, new: func(s *suite) *analysis.Analyzer {
		return retrytimeout.New(&retrytimeout.Config{Scope: s.scope})
	}},
	{doc: retrystatus.Documentation, new: func(s *suite) *analysis.Analyzer {
		return retrystatus.New(&retrystatus.Config{Scope: s.scope})
	}},
	{doc: jobretry.Documentation, prefilter: jobretry.Prefilter, new: func(s *suite) *analysis.Analyzer {
		return jobretry.New(&jobretry.Config{Scope: s.scope, KeyHeaders: s.cfg.KeyHeaders, KeyFields: s.cfg.KeyFields})
	}},
	{doc: keyprop.Documentation, prefilter: keyprop.Prefilter, new: func(s *suite) *analysis.Analyzer {
		return keyprop.New(&keyprop.Config{Scope: s.scope, KeyHeaders: s.cfg.KeyHeaders, KeyFields: s.cfg.KeyFields})
	}},
	{doc: directiveDoc, new: func(s *suite) *analysis.Analyzer {
		return newDirectiveChecker(s.enabled, s.names, s.cfg.ReportUnusedIgnores)
	}},
}

// Docs returns every check's structured documentation, in the order
// drivers show the checks.
func Docs() []*checkdoc.Doc {
	docs := make([]*checkdoc.Doc, len(registry))
	for i, c := range registry {
		docs[i] = c.doc
	}
	return docs
}

// Checks returns the names of all the suite's checks, in the order drivers
// show them.
func Checks() []string {
	names := make([]string, len(registry))
	for i, c := range registry {
		names[i] = c.doc.Name
	}
	return names
}

// Validate reports the first problem with cfg: an unknown check name in
// Disable, or a malformed full name in RetryFuncs or KeyGenerators.
func (cfg *Config) Validate() error {
	names := Checks()
	for _, name := range cfg.Disable {
		if !slices.Contains(names, name) {
			return fmt.Errorf("disable: unknown check %q (checks: %s)", name, strings.Join(names, ", "))
		}
	}
	for _, list := range []struct {
		key   string
		names []string
	}{{"retry-funcs", cfg.RetryFuncs}, {"key-generators", cfg.KeyGenerators}} {
		for _, n := range list.names {
			if !validFuncName(n) {
				return fmt.Errorf("%s: %q is not a full function name such as \"example.com/pkg.Func\" or \"(*example.com/pkg.Type).Method\"", list.key, n)
			}
		}
	}
	return nil
}

// validFuncName reports whether n looks like a types.Func full name.
func validFuncName(n string) bool {
	if strings.HasPrefix(n, "(") {
		close := strings.Index(n, ").")
		return close > 1 && close+2 < len(n)
	}
	dot := strings.LastIndex(n, ".")
	return dot > 0 && dot+1 < len(n) && !strings.ContainsAny(n, " \t")
}

// Bind registers the suite-level flags on fs, bound to cfg: -retry-funcs,
// -key-generators, -key-headers, -key-fields (comma-separated lists) and
// -strict-context. A driver parses them before it calls New (see
// ParseArgs), and registers them on its flag set too so that its own
// parsing accepts them.
func (cfg *Config) Bind(fs *flag.FlagSet) {
	fs.Var((*listFlag)(&cfg.RetryFuncs), "retry-funcs", "comma-separated full names of extra functions that retry their function argument")
	fs.Var((*listFlag)(&cfg.KeyGenerators), "key-generators", "comma-separated full names of extra functions that mint a fresh key")
	fs.Var((*listFlag)(&cfg.KeyHeaders), "key-headers", "comma-separated extra header names that carry an idempotency key")
	fs.Var((*listFlag)(&cfg.KeyFields), "key-fields", "comma-separated extra struct field names that carry an idempotency key")
	fs.BoolVar(&cfg.StrictContext, "strict-context", cfg.StrictContext, "unboundedretry: also report retry loops bounded only by a caller's context")
	fs.BoolVar(&cfg.ReportUnusedIgnores, "report-unused-ignores", cfg.ReportUnusedIgnores, "ignoredirective: also report //idemlint:ignore directives that silence nothing")
}

// ParseArgs sets cfg from the suite-level flags among args (-name=value,
// -name value, or a bare -strict-context), leaving every other argument
// alone: the driver's own flag parsing sees all of them afterwards.
func (cfg *Config) ParseArgs(args []string) error {
	fs := flag.NewFlagSet("idemlint", flag.ContinueOnError)
	cfg.Bind(fs)
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || !strings.HasPrefix(a, "-") {
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() && !hasValue {
			value, hasValue = "true", true
		}
		if !hasValue {
			if i+1 >= len(args) {
				return fmt.Errorf("flag -%s needs a value", name)
			}
			i++
			value = args[i]
		}
		if err := fs.Set(name, value); err != nil {
			return fmt.Errorf("flag -%s: %v", name, err)
		}
	}
	return cfg.Validate()
}

type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	*l = nil
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			*l = append(*l, part)
		}
	}
	return nil
}

// New builds the suite's analyzers for cfg: every check not disabled, in
// the registry's order, sharing one retry model, each guarded against
// panics (see Guard) and with its prefilter registered. The analyzers copy
// cfg: fill it (from flags or settings) before calling New.
func New(cfg *Config) []*analysis.Analyzer {
	s := &suite{cfg: cfg, scope: Guard(retryscope.New(&retryscope.Config{RetryFuncs: cfg.RetryFuncs})), names: Checks()}
	for _, c := range registry {
		if slices.Contains(cfg.Disable, c.doc.Name) {
			continue
		}
		a := Guard(c.new(s))
		if c.prefilter != nil {
			prefilter.Register(a, c.prefilter(s.scope))
		}
		s.enabled = append(s.enabled, a)
	}
	return s.enabled
}
