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
// A loop is a retry when a cycle of the function's control flow (a for
// or range loop, a goto back to a label, a call of the function itself or
// a time.AfterFunc that reschedules it) holds a fallible call whose
// failure leads to the next pass, and no precision policy says otherwise:
// loops that repeat on success (batches, readers), pollers, tickers and
// workers that take the next item, polls for a state, and loops that
// neither wait nor count their attempts are not retries. The cycles and
// attempts come from the flow engine (go/ssa), the policies from its
// policy package; the cap, deadline and waits are read from the loop's
// exits and the calls between a failure and the next attempt.
//
// The pass reports nothing; the idemlint checks read its Result.
package retryscope
