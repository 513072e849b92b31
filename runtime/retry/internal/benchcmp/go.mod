module github.com/idemlint/idemlint/runtime/retry/internal/benchcmp

go 1.26.0

require (
	github.com/avast/retry-go/v4 v4.7.0
	github.com/cenkalti/backoff/v5 v5.0.3
	github.com/idemlint/idemlint/runtime v0.0.0-00010101000000-000000000000
)

replace github.com/idemlint/idemlint/runtime => ../../..
