package jobretry

import (
	"fmt"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// The facts below let the check see an INSERT that a handler runs through
// other packages: a storage interface, the shared implementation that
// calls a table interface, and the table implementations that run
// prepared statements (dendrite's storage layers; see effects.go's
// exportFacts). Each holds only strings and ints, in sorted slices, so
// its gob encoding is deterministic.

// effect is one unguarded INSERT: into Table, a table with no natural key
// in the package that holds the INSERT's CREATE TABLE, run by the body of
// the function In (its full name). Queue marks a delivery queue's table,
// whose rows the package deletes once delivered (see queueTable).
type effect struct {
	Table string
	In    string
	Queue bool
}

// effectFact marks a function, a method, or an interface method of the
// package that builds its values (see ifaceEffects) whose call runs an
// unguarded INSERT into a table with no natural key: the effect repeats
// when a retried job or redelivered message calls it again.
type effectFact struct {
	Effects []effect
}

func (*effectFact) AFact() {}

func (f *effectFact) String() string { return "inserts(" + tablesOf(f.Effects) + ")" }

// stmtFact marks a *sql.Stmt field prepared from a constant query that is
// an unguarded INSERT into a table with no natural key (Tables, those of
// every query the field is prepared from): executing the field's
// statement runs it.
type stmtFact struct {
	Tables []string
}

func (*stmtFact) AFact() {}

func (f *stmtFact) String() string { return "prepared(" + strings.Join(f.Tables, ", ") + ")" }

// stmtParamFact marks a function that returns a statement derived from its
// parameter Param (its index): the parameter itself or tx.Stmt(param), as
// dendrite's sqlutil.TxStmt(txn, stmt) does.
type stmtParamFact struct {
	Param int
}

func (*stmtParamFact) AFact() {}

func (f *stmtParamFact) String() string { return fmt.Sprintf("stmt of param %d", f.Param) }

// fieldCall is a call, in a method's body, of the interface method Method
// on the receiver's field Field.
type fieldCall struct {
	Field  string
	Method string
}

// fieldCallsFact marks a method whose body calls interface methods on
// fields of its receiver (d.SendToDevice.InsertSendToDeviceMessage, in a
// closure passed to d.Writer.Do): its effects are those of the values the
// code that builds the receiver stores in the fields.
type fieldCallsFact struct {
	Calls []fieldCall
}

func (*fieldCallsFact) AFact() {}

func (f *fieldCallsFact) String() string {
	return listString("calls", ", ", f.Calls, func(c fieldCall) string { return c.Field + "." + c.Method })
}

// methodEffects are the effects of the method Method of a value.
type methodEffects struct {
	Method  string
	Effects []effect
}

// ctorFact marks a function whose first result is a value of known
// concrete types whose methods have effects (resolved through the values
// it stores in their fields): postgres.NewDatabase's
// *SyncServerDatasource, whose StoreNewSendForDeviceMessage inserts
// through the SendToDevice table it was built with.
type ctorFact struct {
	Methods []methodEffects
}

func (*ctorFact) AFact() {}

func (f *ctorFact) String() string {
	return listString("builds", "; ", f.Methods, func(m methodEffects) string { return m.Method + ": " + tablesOf(m.Effects) })
}

// listString returns a fact's text: name(the parts of xs, joined by sep).
func listString[T any](name, sep string, xs []T, part func(T) string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = part(x)
	}
	return name + "(" + strings.Join(parts, sep) + ")"
}

// importFact returns the fact of type F that the package of fn, a
// function of another package, exported on it; the zero F when there is
// none, or fn belongs to no package.
func importFact[F any, P interface {
	*F
	analysis.Fact
}](pass *analysis.Pass, fn *types.Func) F {
	var fact F
	if fn.Pkg() != nil {
		pass.ImportObjectFact(fn, P(&fact))
	}
	return fact
}

// tablesOf lists the distinct tables of effs, sorted.
func tablesOf(effs []effect) string {
	var ts []string
	for _, e := range effs {
		ts = append(ts, e.Table)
	}
	slices.Sort(ts)
	return strings.Join(slices.Compact(ts), ", ")
}

// addEffects returns effs with more added, without duplicates, sorted.
func addEffects(effs []effect, more ...effect) []effect {
	for _, e := range more {
		if !slices.Contains(effs, e) {
			effs = append(effs, e)
		}
	}
	slices.SortFunc(effs, func(a, b effect) int {
		if c := strings.Compare(a.Table, b.Table); c != 0 {
			return c
		}
		return strings.Compare(a.In, b.In)
	})
	return effs
}

// methodMap is a value's methods with effects, by name.
type methodMap map[string][]effect

func (m methodMap) merge(o methodMap) {
	for k, v := range o {
		m[k] = addEffects(m[k], v...)
	}
}

func (m methodMap) fact() *ctorFact {
	f := &ctorFact{}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		f.Methods = append(f.Methods, methodEffects{Method: k, Effects: m[k]})
	}
	return f
}
