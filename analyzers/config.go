// Package analyzers is the idemlint suite in one place: the list of checks and
// the one configuration they share, applied the same way by every driver
// (the standalone command, go vet -vettool, and the golangci-lint plugin).
package analyzers

// Config is the suite's shared configuration. The zero value is the default
// configuration. Every field has a flag (kebab-case, lists comma-separated)
// and a golangci-lint setting of the same name.
type Config struct {
	// Disable lists checks to turn off, by name ("nojitter").
	Disable []string `json:"disable"`
	// RetryFuncs lists extra functions that retry their function argument,
	// by full name ("example.com/pkg.Retry", "(*example.com/pkg.Client).Do").
	RetryFuncs []string `json:"retry-funcs"`
	// KeyGenerators lists extra functions whose result is a fresh key,
	// by full name.
	KeyGenerators []string `json:"key-generators"`
	// KeyHeaders lists extra header names that carry an idempotency key
	// (matched case-insensitively), besides Idempotency-Key and
	// X-Idempotency-Key.
	KeyHeaders []string `json:"key-headers"`
	// KeyFields lists extra struct field names that carry an idempotency key,
	// besides IdempotencyKey, IdempotencyToken, ClientToken and
	// ClientRequestToken.
	KeyFields []string `json:"key-fields"`
	// StrictContext makes unboundedretry report loops bounded only by a
	// caller's context.
	StrictContext bool `json:"strict-context"`
	// ReportUnusedIgnores makes ignoredirective report //idemlint:ignore
	// directives that silence nothing.
	ReportUnusedIgnores bool `json:"report-unused-ignores"`
}
