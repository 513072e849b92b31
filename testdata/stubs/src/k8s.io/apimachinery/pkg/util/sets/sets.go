// Package sets is a stub of k8s.io/apimachinery/pkg/util/sets (v0.37):
// the names the tests use, with the real signatures.
package sets

// Empty is the value of a set's map.
type Empty struct{}

// Set is a set of comparable values.
type Set[T comparable] map[T]Empty

// New returns a set holding items.
func New[T comparable](items ...T) Set[T] {
	s := Set[T]{}
	for _, i := range items {
		s[i] = Empty{}
	}
	return s
}

// Has reports whether item is in the set.
func (s Set[T]) Has(item T) bool {
	_, ok := s[item]
	return ok
}

// Int is a set of ints (deprecated upstream for Set[int]).
type Int map[int]Empty

// NewInt returns a set holding items.
func NewInt(items ...int) Int {
	s := Int{}
	for _, i := range items {
		s[i] = Empty{}
	}
	return s
}

// Has reports whether item is in the set.
func (s Int) Has(item int) bool {
	_, ok := s[item]
	return ok
}

// Insert adds items to the set.
func (s Int) Insert(items ...int) Int {
	for _, i := range items {
		s[i] = Empty{}
	}
	return s
}
