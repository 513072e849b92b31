package retryscope

import (
	"go/ast"
	"go/token"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// hashicorp/go-retryablehttp: a client retrying its sends by itself.
// NewClient(): 4 retries (5 attempts), exponential backoff without jitter,
// no overall deadline, changed by the fields set on it (RetryMax,
// Backoff); a &Client{...} literal retries only when it sets RetryMax; the
// package-level Get, Head, Post and PostForm send through a default
// client. Its sends are read by clients.go.
const retryable = "github.com/hashicorp/go-retryablehttp"

var _ = register(&Library{Path: retryable, Entries: []string{"NewClient", "Get", "Head", "Post", "PostForm"}, // clients
	PredicateFields: []string{"Client.CheckRetry"}, HTTP: true,
	Fix:   libraryFix{jitter: "set Backoff to retryablehttp.LinearJitterBackoff"},
	model: retryableCall, literal: retryableLit})

func retryableCall(st Site) bool {
	s, call := st.Scope(), st.Call()
	if st.Callee().Signature().Recv() != nil {
		return false
	}
	s.Kind = Client
	s.Deadline = Deadline{Kind: DeadlineNone}
	s.Trigger = TriggerStatus
	if st.Callee().Name() != "NewClient" {
		// the package-level helpers send through a default client
		s.Cap = Cap{Kind: CapKnown, N: 5}
		s.Waits = []Wait{{Kind: WaitGrowth, Pos: s.Pos, Node: call, Library: true, Setting: "retryablehttp.DefaultBackoff"}}
		return true
	}
	s.Cap = Cap{Kind: CapKnown, N: 5, Pos: call.Pos()}
	s.Waits = []Wait{{Kind: WaitGrowth, Pos: call.Pos(), Node: call, Library: true, Setting: "retryablehttp.DefaultBackoff"}}
	// the fields set on the local the client is assigned to here; those
	// set on a struct field it is stored in are applied by the model
	// (storedClientSettings)
	for _, fs := range st.ResultFieldSets() {
		retryableField(st, fs.Field(), fs.RHS(), fs.Pos())
	}
	return true
}

// retryableField applies to the scope of a go-retryablehttp client the
// assignment of rhs to its field (at pos): RetryMax sets its cap, Backoff
// its wait.
func retryableField(st Site, field string, rhs ast.Expr, pos token.Pos) {
	s := st.Scope()
	st.ClientSetting(field, rhs)
	switch field {
	case "RetryMax":
		s.Cap = retryMaxCap(st, rhs, pos)
		st.ClientCap(rhs, s.Cap)
	case "Backoff":
		k := WaitUnknown
		if sel, ok := ast.Unparen(rhs).(*ast.SelectorExpr); ok {
			switch fullName(st, sel) {
			case retryable + ".DefaultBackoff":
				k = WaitGrowth
			case retryable + ".LinearJitterBackoff", retryable + ".RateLimitLinearJitterBackoff":
				k = WaitJittered
			}
		}
		s.Waits = []Wait{{Kind: k, Pos: pos, Node: rhs, Library: true, Setting: "Backoff"}}
	}
}

// retryMaxCap is the cap a go-retryablehttp RetryMax value gives: a
// constant's, or the default the package gives the field of its own the
// value is read from (c.RetryMax = cfg.MaxRetries); bounded otherwise (a
// parameter, a computed value: the users' choice).
func retryMaxCap(st Site, rhs ast.Expr, pos token.Pos) Cap {
	if n, ok := st.Int(rhs); ok {
		return Cap{Kind: CapKnown, N: int(n) + 1, Pos: pos}
	}
	if n, ok := st.FieldDefault(st.Origin(rhs, pos)); ok {
		return Cap{Kind: CapKnown, N: int(n) + 1, Pos: pos}
	}
	return Cap{Kind: CapBounded, Pos: pos}
}

// retryableLit models &retryablehttp.Client{...}: a literal retries only
// when it sets RetryMax.
func retryableLit(st Site, lit *ast.CompositeLit) bool {
	if astq.NamedOf(st.TypeOf(lit)).Name() != "Client" {
		return false
	}
	s := st.Scope()
	s.Entry, s.Name = retryable+".Client", "retryablehttp.Client"
	s.Deadline, s.Trigger = Deadline{Kind: DeadlineNone}, TriggerStatus
	wait := Wait{Kind: WaitUnknown, Pos: lit.Pos(), Node: lit, Library: true}
	retries := false
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		key, _ := kv.Key.(*ast.Ident)
		if key == nil {
			continue
		}
		st.ClientSetting(key.Name, kv.Value)
		switch key.Name {
		case "RetryMax":
			c := retryMaxCap(st, kv.Value, kv.Pos())
			st.ClientCap(kv.Value, c)
			if !oneAttempt(c) {
				retries = true
				s.Cap = c
			}
		case "Backoff":
			if sel, ok := ast.Unparen(kv.Value).(*ast.SelectorExpr); ok {
				switch fullName(st, sel) {
				case retryable + ".DefaultBackoff":
					wait = Wait{Kind: WaitGrowth, Pos: kv.Pos(), Node: kv, Library: true, Setting: "retryablehttp.DefaultBackoff"}
				case retryable + ".LinearJitterBackoff", retryable + ".RateLimitLinearJitterBackoff":
					wait = Wait{Kind: WaitJittered, Pos: kv.Pos(), Node: kv, Library: true}
				}
			}
		}
	}
	if !retries {
		return false
	}
	s.Waits = []Wait{wait}
	return true
}
