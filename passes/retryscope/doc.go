// Package retryscope is idemlint's model of what a retry is.
//
// # Analyzer idemlint_retryscope
//
// idemlint_retryscope: find retry scopes and describe their attempt cap, deadline and waits
//
// A retry scope is code that repeats an attempt after it fails: a
// hand-written for loop, a call to a retry library with the operation to
// repeat, or a client that retries by itself. For each scope the pass
// records where it is, the code it repeats, its attempt cap (a known number,
// a bound it cannot evaluate, none, or unknown), what stops it in time (a
// deadline made in scope, a library's max elapsed time, only the caller's
// context, none), each wait between attempts (constant, deterministic
// growth, jittered, server-directed, none, unknown) and what makes it try
// again.
//
// A loop is a retry when an error variable assigned from a call in its body
// has a success exit (a return or break reached only when the error is nil,
// or a loop condition that repeats while it is not nil) and no exit taken on
// every error. A range over an attempt iterator that waits between its
// yields (iterators.go) is a loop too. Loops that range over items,
// channels or other iterators, pollers
// and workers that never leave on success, and batches that stop on the
// first error, and loops that neither wait nor count their attempts (read,
// scan and copy loops far more often than retries) are not retries.
//
// The pass reports nothing; the idemlint checks read its Result.
package retryscope
