package retryscope

import "go/types"

// Membership sets: the set types real code keeps its retryable statuses
// in (var retryable = set.CreateIntSet(429, 503), retryable.Contains(code);
// sets.New(429, 503).Has(code)), each as its constructor from variadic
// elements and its membership method, by full name (of the generic
// origin). A check evaluates the membership of a constant set as it does a
// map literal's.
var memberSets = map[string]string{
	"github.com/minio/minio-go/v7/pkg/set.CreateIntSet": "(github.com/minio/minio-go/v7/pkg/set.IntSet).Contains",
	"k8s.io/apimachinery/pkg/util/sets.NewInt":          "(k8s.io/apimachinery/pkg/util/sets.Int).Has",
	"k8s.io/apimachinery/pkg/util/sets.New":             "(k8s.io/apimachinery/pkg/util/sets.Set[T]).Has",
}

// SetConstructor reports whether ctor builds a membership set from its
// variadic arguments whose membership method is member.
func SetConstructor(ctor, member *types.Func) bool {
	if ctor == nil || member == nil || !ctor.Signature().Variadic() {
		return false
	}
	m, ok := memberSets[ctor.Origin().FullName()]
	return ok && m == member.Origin().FullName()
}

// SetMember reports whether fn is the membership method of a set type of
// the table: a test that reads nothing but the set.
func SetMember(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	name := fn.Origin().FullName()
	for _, m := range memberSets {
		if m == name {
			return true
		}
	}
	return false
}
