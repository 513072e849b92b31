// Package schema is a test stub of k8s.io/apimachinery@v0.37.2: signatures only
// (GroupVersion, GroupVersionKind and ObjectKind only).
package schema

// GroupVersion contains the "group" and the "version", which uniquely identifies the API.
type GroupVersion struct {
	Group   string
	Version string
}

// GroupVersionKind unambiguously identifies a kind.
type GroupVersionKind struct {
	Group   string
	Version string
	Kind    string
}

// ObjectKind is used by serialization to set type information from the Scheme onto the serialized version of an object.
type ObjectKind interface {
	SetGroupVersionKind(kind GroupVersionKind)
	GroupVersionKind() GroupVersionKind
}
