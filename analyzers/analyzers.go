package analyzers

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/internal/checkdoc"
	"github.com/idemlint/idemlint/passes/jobretry"
	"github.com/idemlint/idemlint/passes/keyinloop"
	"github.com/idemlint/idemlint/passes/nestedretry"
	"github.com/idemlint/idemlint/passes/nojitter"
	"github.com/idemlint/idemlint/passes/retryscope"
	"github.com/idemlint/idemlint/passes/retrystatus"
	"github.com/idemlint/idemlint/passes/retrytimeout"
	"github.com/idemlint/idemlint/passes/unboundedretry"
	"github.com/idemlint/idemlint/passes/unkeyedpost"
)

// checkNames lists every check of the suite, in the order drivers show them.
// Helper passes (retryscope, directives) are not in it: users never run them
// directly.
var checkNames = []string{
	unboundedretry.Name, nojitter.Name, keyinloop.Name, unkeyedpost.Name, nestedretry.Name,
	retrytimeout.Name, retrystatus.Name, jobretry.Name, DirectiveName,
}

// Docs returns every check's structured documentation, in checkNames order.
func Docs() []*checkdoc.Doc {
	return []*checkdoc.Doc{unboundedretry.Documentation, nojitter.Documentation, keyinloop.Documentation, unkeyedpost.Documentation,
		nestedretry.Documentation, retrytimeout.Documentation, retrystatus.Documentation, jobretry.Documentation,
		directiveDoc,
	}
}

// Checks returns the names of all the suite's checks.
func Checks() []string { return slices.Clone(checkNames) }

// Validate reports the first problem with cfg: an unknown check name in
// Disable, or a malformed full name in RetryFuncs or KeyGenerators.
func (cfg *Config) Validate() error {
	for _, name := range cfg.Disable {
		if !slices.Contains(checkNames, name) {
			return fmt.Errorf("disable: unknown check %q (checks: %s)", name, strings.Join(checkNames, ", "))
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

// New builds the suite's analyzers for cfg: every check not disabled.
// The analyzers copy cfg: fill it (from flags or settings) before calling
// New.
func New(cfg *Config) []*analysis.Analyzer {
	var out []*analysis.Analyzer
	for _, a := range build(cfg) {
		if !slices.Contains(cfg.Disable, a.Name) {
			out = append(out, a)
		}
	}
	return out
}

// build constructs one analyzer per check, sharing one retry model, each
// guarded against panics (see Guard).
func build(cfg *Config) []*analysis.Analyzer {
	scope := Guard(retryscope.New(&retryscope.Config{RetryFuncs: cfg.RetryFuncs}))
	checks := []*analysis.Analyzer{
		unboundedretry.New(&unboundedretry.Config{Scope: scope, StrictContext: cfg.StrictContext}),
		nojitter.New(&nojitter.Config{Scope: scope}),
		keyinloop.New(&keyinloop.Config{Scope: scope, KeyGenerators: cfg.KeyGenerators, KeyHeaders: cfg.KeyHeaders, KeyFields: cfg.KeyFields}),
		unkeyedpost.New(&unkeyedpost.Config{Scope: scope, KeyHeaders: cfg.KeyHeaders}),
		nestedretry.New(&nestedretry.Config{Scope: scope}),
		retrytimeout.New(&retrytimeout.Config{Scope: scope}),
		retrystatus.New(&retrystatus.Config{Scope: scope}),
		jobretry.New(&jobretry.Config{Scope: scope, KeyHeaders: cfg.KeyHeaders, KeyFields: cfg.KeyFields}),
	}
	var enabled []*analysis.Analyzer
	for _, c := range checks {
		Guard(c)
		if !slices.Contains(cfg.Disable, c.Name) {
			enabled = append(enabled, c)
		}
	}
	return append(checks, Guard(newDirectiveChecker(enabled, cfg.ReportUnusedIgnores)))
}
