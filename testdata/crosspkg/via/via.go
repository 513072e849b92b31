// Package via calls lib.Sync in no retry: it exports a fact of its own,
// which job's retry loop reaches.
package via

import "example.com/crosspkg/lib"

// Run retries through lib.
func Run() error { return lib.Sync() }
