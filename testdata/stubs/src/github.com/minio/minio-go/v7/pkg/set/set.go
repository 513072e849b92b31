// Package set is a stub of github.com/minio/minio-go/v7/pkg/set (v7.4.1):
// the names the tests use, with the real signatures.
package set

import "cmp"

// Set is a set of ordered values.
type Set[T cmp.Ordered] map[T]struct{}

// IntSet is a set of ints.
type IntSet Set[int]

// CreateIntSet returns a set holding il.
func CreateIntSet(il ...int) IntSet {
	s := IntSet{}
	for _, i := range il {
		s[i] = struct{}{}
	}
	return s
}

// Contains checks if i is in the set.
func (set IntSet) Contains(i int) bool {
	_, ok := set[i]
	return ok
}

// Add adds i to the set.
func (set IntSet) Add(i int) { set[i] = struct{}{} }
