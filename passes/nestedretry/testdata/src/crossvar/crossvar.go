// Package crossvar reaches crossdep's retry through a package-level
// variable that holds a function literal, as real SDKs stub their
// metadata fetches for tests.
package crossvar

import "crossdep"

var charge = func() error { return crossdep.Charge() }

// Pay retries through the variable's function.
func Pay() error { return charge() } // want Pay:`retries\(retry\.Do, 5 attempts, in crossdep.Charge\)`

// lookup is a variable whose function retries nothing.
var lookup = func() error { return nil }

// Find calls it: no fact.
func Find() error { return lookup() }
