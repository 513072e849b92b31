// Package names spells Go objects in diagnostics as the code spells them:
// qualified by the package's name, not its import path ("retry.Do",
// "(*http.Client).Do"), as the style of idemlint's messages asks.
package names

import (
	"go/types"
	"strings"
)

// Of returns obj's name as code outside its package spells it: "retry.Do"
// for github.com/idemlint/idemlint/runtime/retry.Do, "(*http.Client).Do"
// for a method, "backoff.Retry" for github.com/cenkalti/backoff/v4.Retry.
// Type parameters and instantiations are left out.
func Of(obj types.Object) string {
	return In(obj, nil)
}

// In returns obj's name as code in package from spells it: unqualified
// when obj is from's own, as Of otherwise.
func In(obj types.Object, from *types.Package) string {
	qual := func(p *types.Package) string {
		if p == from {
			return ""
		}
		return p.Name()
	}
	if fn, ok := obj.(*types.Func); ok {
		fn = fn.Origin()
		if recv := fn.Signature().Recv(); recv != nil {
			return "(" + stripTypeArgs(types.TypeString(recv.Type(), qual)) + ")." + fn.Name()
		}
		obj = fn
	}
	if obj.Pkg() == nil || obj.Pkg() == from {
		return obj.Name()
	}
	return obj.Pkg().Name() + "." + obj.Name()
}

// IsFull reports whether fn's full name (types.Func.FullName, as
// "github.com/gorilla/mux.Vars" or "(*net/http.Request).PathValue") is one
// of fulls. It compares fn's name with the last element of each first, so
// that the call of a function of none of them builds no string: checks
// ask it of every call.
func IsFull(fn *types.Func, fulls ...string) bool {
	name := fn.Name()
	full := ""
	for _, f := range fulls {
		if n := len(f) - len(name); n > 0 && f[n-1] == '.' && f[n:] == name {
			if full == "" {
				full = fn.FullName()
			}
			if f == full {
				return true
			}
		}
	}
	return false
}

// Type returns t as code outside its package spells it ("*http.Client").
func Type(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

func stripTypeArgs(s string) string {
	if i := strings.IndexByte(s, '['); i >= 0 {
		return s[:i]
	}
	return s
}
