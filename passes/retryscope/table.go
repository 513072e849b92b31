package retryscope

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// A Library is what the retry model knows of one package of a retry
// library, a client that retries by itself, or a job framework: its entry
// points, where their operation is, its error wrappers, its predicates
// and the text a message's fix uses, and the functions that model its
// calls over a Site. The table of them (table.go, and one lib_*.go file
// per library family: its entry and its functions) is the one place that
// knows a library: the model, its prefilter and the checks ask it (LibraryOf,
// PermanentWrapper, Scope.OpArg...) instead of matching import paths.
type Library struct {
	// Path is the import path of the package.
	Path string
	// Family is the path prefix of every version and package of the
	// library (the model knows their configuration, so no fact is taken
	// from their internals); Path when empty.
	Family string
	// Entries are the names of the functions and methods that may be
	// entry points (the prefilter's names too).
	Entries []string
	// Methods is set when the entry points include methods: a package
	// can call them without importing Path.
	Methods bool
	// Dials is set when the entry points make clients (Client scopes)
	// and take no operation: no retry wrapper hands them its function;
	// the model's dial reader (grpcDial, grpc.go) reads them.
	Dials bool
	// Ops gives the index of the operation among an entry point's
	// arguments, by entry name; an entry absent here takes it first.
	Ops map[string]int
	// Permanent are the names of the functions of Path that wrap an
	// error the library does not retry (retry.Unrecoverable).
	Permanent []string
	// Retryable are the names of the functions of Path that wrap the
	// only errors the library retries (retry.RetryableError).
	Retryable []string
	// Policy is the field of the policy the entry point takes at
	// PolicyArg that replaces the default classification of errors
	// (runtime/retry's Retryable); "" when there is none.
	Policy    string
	PolicyArg int
	// Nested is the field of that policy that lets a call inside the
	// operation of another call of the library retry; without it such a
	// call makes a single attempt (runtime/retry's AllowNested).
	Nested string
	// Disjoint gives, by entry name, the client libraries whose own
	// retries never repeat what the entry retries (client-go's
	// RetryOnConflict retries conflicts, which its REST client does not).
	Disjoint map[string][]string
	// NothingApplied are the entry points that retry only an attempt
	// that applied nothing (client-go's RetryOnConflict: a 409).
	NothingApplied []string
	// Condition is set when the operations are conditions, (done bool,
	// err error): done ends the retries, an error stops them (k8s wait).
	Condition bool
	// HTTP is set on a client library whose API mirrors net/http's: its
	// functions, methods and types named as net/http's take the same
	// arguments and do the same (NewRequest, (*Request).WithContext, Post,
	// (*Client).Do...), its Client retrying its sends. Its own additions
	// (FromRequest, NewClient, (*Client).StandardClient) mirror no
	// net/http name.
	HTTP bool
	// Predicates are the names of the options whose function argument
	// decides whether to retry; PredicateOnError is set when it decides
	// on the error alone; PredicateText names it in a message.
	Predicates       []string
	PredicateOnError bool
	PredicateText    string
	// PredicateFields are the fields (Type.Field) that hold such a
	// function (retryablehttp's Client.CheckRetry).
	PredicateFields []string
	// RetryAll are the names of the options that retry every error
	// status.
	RetryAll []string
	// Statuses gives, by method name, the statuses for which a response
	// method of the library reports true, as [lo, hi] (resty's
	// (*Response).IsSuccess).
	Statuses map[string][2]int
	// ResponseError are the names of the functions that make the error
	// of a response, carrying its status and Retry-After delay; RetryAfter
	// those that read the Retry-After delay.
	ResponseError []string
	RetryAfter    []string
	// Jitter is the name of the library's function that jitters a
	// duration (runtime/retry's Jitter: a fix wraps a fixed wait in it).
	Jitter string
	// Inert is set when the library's functions do not change the next
	// attempt (they wait, classify, compute).
	Inert bool
	// StatusFix is how a message says to stop retrying an operation's
	// error (retrystatus).
	StatusFix string
	// Fix is how to bound the library's retries and jitter its waits.
	Fix libraryFix
	// model, when set, models a call of one of Entries (lib_*.go): it
	// fills the site's scope and reports whether the call makes one. A
	// scope it makes a Client has no operation; any other's operation is
	// the argument Ops gives.
	model func(Site) bool
	// literal, when set, models a composite literal of one of the
	// library's types: it fills the site's Client scope and reports
	// whether the literal makes one (go-retryablehttp's Client).
	literal func(Site, *ast.CompositeLit) bool
	// backoff, when set, evaluates a backoff value the library made (a
	// literal of its type, a call of its function, its variable; backoffOf
	// gives it the origin of the value): ok is false when it does not
	// know the value.
	backoff func(st Site, v ast.Expr, depth int) (b backoff, ok bool)
}

// registry holds the table, by import path.
var registry = map[string]*Library{}

// register adds a library to the table; a lib_*.go file calls it from a
// package-level variable's initialiser.
func register(l *Library) *Library {
	if registry[l.Path] != nil {
		panic("retryscope: library registered twice: " + l.Path)
	}
	registry[l.Path] = l
	if l.Family == "" {
		l.Family = l.Path
	}
	return l
}

// The libraries modelled by the model itself, and those it asks nothing
// of a call: gRPC's dials make Client scopes when their conns retry
// (grpc.go reads a Dials library's entry points), job frameworks make
// JobHandler scopes (jobs.go), resty's predicates and statuses are read
// by the checks. Each library with a model of its calls is one lib_*.go
// file.
var (
	_ = register(&Library{Path: restyV2, Family: restyFamily, Predicates: restyConditions, PredicateText: "retry condition",
		RetryAll: []string{"AddRetryAfterErrorCondition"}, Statuses: restyStatuses})
	_ = register(&Library{Path: restyV3, Family: restyV3Family, Predicates: restyConditions, PredicateText: "retry condition",
		RetryAll: []string{"AddRetryAfterErrorCondition"}, Statuses: restyStatuses})
	_ = register(&Library{Path: grpcPath, Entries: []string{"NewClient", "Dial", "DialContext"}, Dials: true})
	_ = register(&Library{Path: grpcRetry, Family: grpcMiddleware, Fix: libraryFix{jitter: "use retry.BackoffExponentialWithJitterBounded"}})
	_ = register(&Library{Path: pkgAsynq})
	_ = register(&Library{Path: pkgRiver})
	_ = register(&Library{Path: pkgTemporal, Family: temporalFamily})
)

const (
	restyV2       = "github.com/go-resty/resty/v2"
	restyFamily   = "github.com/go-resty/resty"
	restyV3       = "resty.dev/v3"
	restyV3Family = "resty.dev/"
)

var (
	restyConditions = []string{"AddRetryCondition", "AddRetryConditions", "SetRetryConditions"}
	restyStatuses   = map[string][2]int{"IsSuccess": {200, 299}, "IsError": {400, 999}}
)

// LibraryOf returns the table's entry for the package at path, or nil.
func LibraryOf(path string) *Library { return registry[path] }

// libraryOfFunc returns the table's entry for fn's package, or nil.
func libraryOfFunc(fn *types.Func) *Library {
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	return registry[fn.Pkg().Path()]
}

// Modelled reports whether the package at path belongs to a library of
// the table (any version or package of it): the model knows its
// configuration, so its internals are not analysed for retries of their
// own.
func Modelled(path string) bool {
	for _, l := range registry {
		if inFamily(path, strings.TrimSuffix(l.Family, "/")) {
			return true
		}
	}
	return modelledClient(path)
}

// inFamily reports whether path is root or a package below it, without
// building root+"/" (Modelled is asked for every call of a dependency).
func inFamily(path, root string) bool {
	rest, ok := strings.CutPrefix(path, root)
	return ok && (rest == "" || rest[0] == '/')
}

// PermanentWrapper reports whether fn wraps an error that its retry
// library does not retry (retry.Unrecoverable, backoff.Permanent).
func PermanentWrapper(fn *types.Func) bool {
	l := libraryOfFunc(fn)
	return l != nil && slices.Contains(l.Permanent, fn.Name())
}

// Permanent returns the full names of the functions that wrap an error
// the scope's library does not retry.
func (s *Scope) Permanent() []string {
	return s.libraryNames(func(l *Library) []string { return l.Permanent })
}

// Retryable returns the full names of the functions that wrap the only
// errors the scope's library retries; none when it retries every error.
func (s *Scope) Retryable() []string {
	return s.libraryNames(func(l *Library) []string { return l.Retryable })
}

func (s *Scope) libraryNames(f func(*Library) []string) []string {
	l := registry[s.Library]
	if l == nil {
		return nil
	}
	var out []string
	for _, n := range f(l) {
		out = append(out, l.Path+"."+n)
	}
	return out
}

// StatusFix returns how a message says to stop the scope's library from
// retrying an operation's error; "" when the table has no such text.
func (s *Scope) StatusFix() string {
	if l := registry[s.Library]; l != nil {
		return l.StatusFix
	}
	return ""
}

// Predicated returns the names of the scope's library's options whose
// function decides what to retry (retry.RetryIf): when one is given, the
// operation's errors alone do not tell.
func (s *Scope) Predicated() []string {
	if l := registry[s.Library]; l != nil {
		return l.Predicates
	}
	return nil
}

// Policy returns the policy argument of the scope's call (nil when the
// call has none) and the field of it that replaces the default
// classification of errors; "" when the library takes no policy.
func (s *Scope) Policy() (ast.Expr, string) {
	l := registry[s.Library]
	call, ok := s.Node.(*ast.CallExpr)
	if l == nil || l.Policy == "" || !ok {
		return nil, ""
	}
	if l.PolicyArg >= len(call.Args) {
		return nil, l.Policy
	}
	return call.Args[l.PolicyArg], l.Policy
}

// A Predicate is a retry library's option whose function argument decides
// whether to retry.
type Predicate struct {
	// OnError is set when the function decides on the error alone.
	OnError bool
	// Text names it in a message ("RetryIf predicate").
	Text string
}

// PredicateOption reports whether fn is an option taking a retry
// predicate (retry.RetryIf, HandleIf, resty's AddRetryCondition).
func PredicateOption(fn *types.Func) (Predicate, bool) {
	l := libraryOfFunc(fn)
	if l == nil || !slices.Contains(l.Predicates, fn.Name()) {
		return Predicate{}, false
	}
	return Predicate{OnError: l.PredicateOnError, Text: l.PredicateText}, true
}

// PredicateField reports whether v is a struct field that holds a retry
// predicate (retryablehttp's Client.CheckRetry).
func PredicateField(v *types.Var) bool {
	if !v.IsField() || v.Pkg() == nil {
		return false
	}
	l := registry[v.Pkg().Path()]
	if l == nil {
		return false
	}
	for _, tf := range l.PredicateFields {
		typ, field, _ := strings.Cut(tf, ".")
		if field != v.Name() {
			continue
		}
		obj := v.Pkg().Scope().Lookup(typ)
		if obj == nil {
			continue
		}
		if st, ok := obj.Type().Underlying().(*types.Struct); ok {
			for i := range st.NumFields() {
				if st.Field(i) == v {
					return true
				}
			}
		}
	}
	return false
}

// RetryAllOption reports whether fn is an option that retries every error
// status (resty's AddRetryAfterErrorCondition).
func RetryAllOption(fn *types.Func) bool {
	l := libraryOfFunc(fn)
	return l != nil && slices.Contains(l.RetryAll, fn.Name())
}

// DecidesOnErrors reports whether the package at path is a library (or a
// package of one) that decides what to retry from the errors or statuses
// it sees by a predicate (an option or a field).
func DecidesOnErrors(path string) bool {
	for _, l := range registry {
		if (len(l.Predicates) > 0 || len(l.PredicateFields) > 0) && (path == l.Path || strings.HasPrefix(path, l.Path+"/")) {
			return true
		}
	}
	return false
}

// OwnLibrary reports whether the package at path is one of the table's
// libraries itself: its calls of its own options are not the user's.
func OwnLibrary(path string) bool { return registry[path] != nil }

// SingleLayer reports whether a call of the library at lib inside the
// operation of another makes a single attempt unless its policy says
// otherwise (ClientEnv.AllowsNested).
func SingleLayer(lib string) bool {
	l := registry[lib]
	return l != nil && l.Nested != ""
}

// Disjoint reports whether the retries of the entry point entry (a full
// name) never repeat what a client of the library client retries.
func Disjoint(entry, client string) bool {
	p, ok := funcPackage(entry)
	if !ok {
		return false
	}
	l := registry[p]
	return l != nil && slices.Contains(l.Disjoint[entry[len(p)+1:]], client)
}

// ResponseStatuses returns the statuses for which fn, a response method
// of a library, reports true; ok is false for any other function.
func ResponseStatuses(fn *types.Func) (lo, hi int, ok bool) {
	l := libraryOfFunc(fn)
	if l == nil || fn.Signature().Recv() == nil {
		return 0, 0, false
	}
	r, ok := l.Statuses[fn.Name()]
	return r[0], r[1], ok
}

// ResponseError reports whether fn makes the error of a response that its
// library classifies by the response's status (runtime/retry's
// ResponseError).
func ResponseError(fn *types.Func) bool {
	l := libraryOfFunc(fn)
	return l != nil && slices.Contains(l.ResponseError, fn.Name())
}

// ReadsRetryAfter reports whether fn reads a response's Retry-After delay
// (runtime/retry's ParseRetryAfter).
func ReadsRetryAfter(fn *types.Func) bool {
	l := libraryOfFunc(fn)
	return l != nil && slices.Contains(l.RetryAfter, fn.Name())
}

// Inert reports whether fn is a function of a library whose functions do
// not change the next attempt.
func Inert(fn *types.Func) bool {
	l := libraryOfFunc(fn)
	return l != nil && l.Inert
}

// NothingApplied reports whether the scope's entry point retries only an
// attempt that applied nothing (client-go's RetryOnConflict).
func (s *Scope) NothingApplied() bool {
	l := registry[s.Library]
	return l != nil && slices.Contains(l.NothingApplied, strings.TrimPrefix(s.Entry, l.Path+"."))
}

// ConditionOp reports whether the scope's operation is a condition,
// (done bool, err error): done ends the retries, an error stops them.
func (s *Scope) ConditionOp() bool {
	l := registry[s.Library]
	return l != nil && l.Condition
}

// HTTPMirror returns, for the full name of a function or method of a
// library whose API mirrors net/http's (go-retryablehttp), the name with
// the library's path spelt "net/http" ("(*net/http.Client).Do"), and
// true; it returns name and false for any other.
func HTTPMirror(name string) (string, bool) {
	p, ok := funcPackage(name)
	if !ok {
		return name, false
	}
	if l := registry[p]; l != nil && l.HTTP {
		return strings.Replace(name, p+".", "net/http.", 1), true
	}
	return name, false
}

// MirrorsHTTP reports whether fn is the function or method name (as
// net/http would spell it: "(*net/http.Client).Do") of a library whose
// API mirrors net/http's.
func MirrorsHTTP(fn *types.Func, name string) bool {
	if fn == nil {
		return false
	}
	m, ok := HTTPMirror(fn.FullName())
	return ok && m == name
}

// HTTPMirrorPath reports whether the package at path is a library whose
// API mirrors net/http's.
func HTTPMirrorPath(path string) bool {
	l := registry[path]
	return l != nil && l.HTTP
}

// HTTPMirrorType reports whether t is, or points to, the type name of a
// library whose API mirrors net/http's (its Request).
func HTTPMirrorType(t types.Type, name string) bool {
	n := astq.NamedOf(t)
	return n != nil && HTTPMirrorPath(n.Pkg().Path()) && n.Name() == name
}

// JitterFunc returns the package and name of the function a fix wraps a
// fixed wait in to jitter it (idemlint's runtime/retry.Jitter).
func JitterFunc() (path, name string) {
	l := registry[idemRetry]
	return l.Path, l.Jitter
}
