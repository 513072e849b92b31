// Package types is a test stub of k8s.io/apimachinery@v0.37.2: signatures only
// (PatchType, UID, NamespacedName only).
package types

// PatchType is the type of a patch request (its constants are left out: no
// test uses them).
type PatchType string

// UID is a type that holds unique ID values, including UUIDs.
type UID string

// NamespacedName comprises a resource name, with a mandatory namespace, rendered as "<namespace>/<name>".
type NamespacedName struct {
	Namespace string
	Name      string
}

// String returns the general purpose string representation.
func (n NamespacedName) String() string { return n.Namespace + "/" + n.Name }
