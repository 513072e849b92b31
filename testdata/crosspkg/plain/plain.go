// Package plain has loops but no wait and calls nothing that retries.
package plain

import "strings"

// Count counts the a's in xs.
func Count(xs []string) (n int) {
	for _, x := range xs {
		n += strings.Count(x, "a")
	}
	return n
}
