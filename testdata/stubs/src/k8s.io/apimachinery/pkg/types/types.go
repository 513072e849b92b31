// Package types is a test stub of k8s.io/apimachinery@v0.37.2: signatures only
// (PatchType, UID, NamespacedName only).
package types

// PatchType is the type of a patch request.
type PatchType string

// Patch types supported by the API server.
const (
	JSONPatchType           PatchType = "application/json-patch+json"
	MergePatchType          PatchType = "application/merge-patch+json"
	StrategicMergePatchType PatchType = "application/strategic-merge-patch+json"
	ApplyPatchType          PatchType = "application/apply-patch+yaml"
	ApplyYAMLPatchType      PatchType = "application/apply-patch+yaml"
	ApplyCBORPatchType      PatchType = "application/apply-patch+cbor"
)

// UID is a type that holds unique ID values, including UUIDs.
type UID string

// NamespacedName comprises a resource name, with a mandatory namespace, rendered as "<namespace>/<name>".
type NamespacedName struct {
	Namespace string
	Name      string
}

// String returns the general purpose string representation.
func (n NamespacedName) String() string { return n.Namespace + "/" + n.Name }
