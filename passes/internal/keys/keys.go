// Package keys knows where idemlint's checks find idempotency keys: the
// request headers, struct fields and parameters that carry one, and how an
// http.Header (or gRPC metadata) is written.
package keys

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/idemlint/idemlint/passes/internal/astq"
)

// DefaultHeaders are the request headers that carry an idempotency key.
var DefaultHeaders = []string{"Idempotency-Key", "X-Idempotency-Key"}

// DefaultFields are the struct fields that carry an idempotency key.
var DefaultFields = []string{"IdempotencyKey", "IdempotencyToken", "ClientToken", "ClientRequestToken"}

// Names is the set of key headers and key fields a check recognises.
type Names struct {
	headers map[string]bool // lower case
	fields  map[string]bool
}

// NewNames returns the default names plus the extra ones.
func NewNames(extraHeaders, extraFields []string) *Names {
	n := &Names{headers: make(map[string]bool), fields: make(map[string]bool)}
	for _, lists := range [][]string{DefaultHeaders, extraHeaders} {
		for _, h := range lists {
			if h = strings.TrimSpace(h); h != "" {
				n.headers[strings.ToLower(h)] = true
			}
		}
	}
	for _, lists := range [][]string{DefaultFields, extraFields} {
		for _, f := range lists {
			if f = strings.TrimSpace(f); f != "" {
				n.fields[f] = true
			}
		}
	}
	return n
}

// Header reports whether name is a key header (case-insensitive).
func (n *Names) Header(name string) bool { return n.headers[strings.ToLower(name)] }

// Field reports whether name is a key field.
func (n *Names) Field(name string) bool { return n.fields[name] }

// Param reports whether a parameter's name says it takes an idempotency
// key: idempotencyKey, idemKey, clientToken, idempotency_token, ...
func Param(name string) bool {
	n := strings.ToLower(strings.ReplaceAll(name, "_", ""))
	switch n {
	case "idemkey", "idempotencykey", "idempotencytoken", "idemtoken", "clienttoken", "clientrequesttoken", "idempotencyid":
		return true
	}
	return strings.HasSuffix(n, "idempotencykey") || strings.HasSuffix(n, "idempotencytoken")
}

// HeaderWrite is one write of a header into an http.Header.
type HeaderWrite struct {
	// Header is the written http.Header expression: req.Header, h.
	// It is nil for an http.Header composite literal.
	Header ast.Expr
	// Name is the header name when Const is set.
	Name  string
	Const bool
	// Value is the written value: a string for Set and Add, a []string for
	// a map assignment or a literal entry.
	Value ast.Expr
	// Node is the call, the assignment, or the literal's key-value pair.
	Node ast.Node
}

const (
	httpHeader   = "net/http.Header"
	grpcMetadata = "google.golang.org/grpc/metadata"
	natsHeader   = "github.com/nats-io/nats.go.Header"
)

// IsHeader reports whether t is net/http.Header.
func IsHeader(t types.Type) bool { return named(t) == httpHeader }

// isMD reports whether t is gRPC's metadata.MD or a NATS message's
// nats.Header: header maps written the way http.Header is.
func isMD(t types.Type) bool { n := named(t); return n == grpcMetadata+".MD" || n == natsHeader }

func named(t types.Type) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name()
}

// Writes returns the header writes n makes: a call of (net/http.Header).Set
// or Add, an assignment h[name] = v, or the entries of an http.Header
// literal; their gRPC metadata twins: metadata.MD's Set and Append,
// md[name] = v, MD literals, metadata.New, metadata.Pairs and
// metadata.AppendToOutgoingContext; and a NATS message's nats.Header
// (Set, Add, h[name] = v, literals).
func Writes(info *types.Info, n ast.Node) []HeaderWrite {
	switch n := n.(type) {
	case *ast.CallExpr:
		sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		fn, ok := info.Uses[sel.Sel].(*types.Func)
		if !ok {
			return nil
		}
		switch fn.FullName() {
		case "(net/http.Header).Set", "(net/http.Header).Add", "(" + grpcMetadata + ".MD).Set", "(" + grpcMetadata + ".MD).Append",
			"(" + natsHeader + ").Set", "(" + natsHeader + ").Add":
			if len(n.Args) < 2 || n.Ellipsis.IsValid() {
				return nil
			}
			name, ok := astq.StringConst(info, n.Args[0])
			return []HeaderWrite{{Header: sel.X, Name: name, Const: ok, Value: n.Args[1], Node: n}}
		case grpcMetadata + ".AppendToOutgoingContext":
			return pairs(info, n, n.Args[min(1, len(n.Args)):])
		case grpcMetadata + ".Pairs":
			return pairs(info, n, n.Args)
		case grpcMetadata + ".New":
			if len(n.Args) == 1 {
				if lit, ok := ast.Unparen(n.Args[0]).(*ast.CompositeLit); ok {
					return entries(info, lit)
				}
			}
		}
		return nil
	case *ast.AssignStmt:
		var out []HeaderWrite
		for i, lhs := range n.Lhs {
			ix, ok := ast.Unparen(lhs).(*ast.IndexExpr)
			if !ok || len(n.Lhs) != len(n.Rhs) {
				continue
			}
			if t := info.TypeOf(ix.X); t == nil || !IsHeader(t) && !isMD(t) {
				continue
			}
			name, ok := astq.StringConst(info, ix.Index)
			out = append(out, HeaderWrite{Header: ix.X, Name: name, Const: ok, Value: n.Rhs[i], Node: n})
		}
		return out
	case *ast.CompositeLit:
		// an http.Header or a gRPC metadata.MD literal
		if t := info.TypeOf(n); t == nil || !IsHeader(t) && !isMD(t) {
			return nil
		}
		return entries(info, n)
	}
	return nil
}

// entries returns the writes of a map literal's entries.
func entries(info *types.Info, lit *ast.CompositeLit) []HeaderWrite {
	var out []HeaderWrite
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		name, ok := astq.StringConst(info, kv.Key)
		out = append(out, HeaderWrite{Name: name, Const: ok, Value: kv.Value, Node: kv})
	}
	return out
}

// pairs returns the writes of gRPC metadata key-value pairs
// (metadata.Pairs, metadata.AppendToOutgoingContext).
func pairs(info *types.Info, call *ast.CallExpr, kv []ast.Expr) []HeaderWrite {
	if call.Ellipsis.IsValid() {
		return nil
	}
	var out []HeaderWrite
	for i := 0; i+1 < len(kv); i += 2 {
		name, ok := astq.StringConst(info, kv[i])
		out = append(out, HeaderWrite{Name: name, Const: ok, Value: kv[i+1], Node: call})
	}
	return out
}

// RequestIDField reports whether field of the struct type t is an AIP-155
// request_id (RequestId in Go) of a gRPC request message: a type declared
// in a package that imports google.golang.org/grpc or
// google.golang.org/protobuf (the generated code's).
func RequestIDField(t types.Type, field string) bool {
	if field != "RequestId" {
		return false
	}
	tn := astq.NamedOf(t)
	if tn == nil {
		return false
	}
	for _, imp := range tn.Pkg().Imports() {
		if imp.Path() == "google.golang.org/grpc" || strings.HasPrefix(imp.Path(), "google.golang.org/protobuf/") {
			return true
		}
	}
	return false
}

// ProtocolKeyField reports whether v is a field of a library's type that
// its protocol defines as the idempotency key of what it sends: the
// message_id of a Matrix m.direct_to_device EDU (gomatrixserverlib's
// ToDeviceMessage.MessageID, "used for idempotence" by the server-server
// API), which the receiving server dedupes on.
func ProtocolKeyField(v *types.Var) bool {
	if v == nil || !v.IsField() || v.Pkg() == nil {
		return false
	}
	return v.Pkg().Path() == "github.com/matrix-org/gomatrixserverlib" && v.Name() == "MessageID" && fieldOf(v, "ToDeviceMessage")
}

// fieldOf reports whether field v is declared in the struct of the named
// type name of v's package.
func fieldOf(v *types.Var, name string) bool {
	tn, ok := v.Pkg().Scope().Lookup(name).(*types.TypeName)
	if !ok {
		return false
	}
	st, ok := tn.Type().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if st.Field(i) == v {
			return true
		}
	}
	return false
}

// List is a flag.Value for a comma-separated list of names bound to a
// config field. Set replaces the list.
type List struct{ P *[]string }

func (l List) String() string {
	if l.P == nil {
		return ""
	}
	return strings.Join(*l.P, ",")
}

// Set sets the list to the comma-separated names in s.
func (l List) Set(s string) error {
	var out []string
	for _, n := range strings.Split(s, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out = append(out, n)
		}
	}
	*l.P = out
	return nil
}

// RequestOf returns the request variable whose headers a write's Header
// expression is (req.Header, req.Header of a request that is a variable),
// or nil when it is another http.Header value.
func RequestOf(info *types.Info, header ast.Expr) *types.Var {
	sel, ok := ast.Unparen(header).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Header" {
		return nil
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := info.Uses[id].(*types.Var)
	return v
}
