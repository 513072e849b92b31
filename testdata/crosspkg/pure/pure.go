// Package pure computes.
package pure

import "fmt"

// Add adds.
func Add(a, b int) int { return a + b }

// Show formats.
func Show(a int) string { return fmt.Sprint(a) }
