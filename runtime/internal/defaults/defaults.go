// Package defaults reads the settings of the runtime's configurations, whose
// zero values mean the defaults.
package defaults

// Positive returns v when it is positive, and the default d otherwise: a
// zero or negative setting means the default.
func Positive[T ~int | ~int64 | ~float64](v, d T) T {
	if v <= 0 {
		return d
	}
	return v
}
