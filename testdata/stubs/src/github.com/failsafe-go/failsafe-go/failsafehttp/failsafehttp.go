// Package failsafehttp is a test stub of github.com/failsafe-go/failsafe-go@v0.9.8: signatures only.
package failsafehttp

import (
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"net/http"
	"time"
)

// ---- client.go

// NewRoundTripper returns a new http.RoundTripper that will perform failsafe round trips via the policies and innerRoundTripper.
func NewRoundTripper(innerRoundTripper http.RoundTripper, policies ...failsafe.Policy[*http.Response]) http.RoundTripper {
	panic("stub")
}

// NewRoundTripperWithExecutor returns a new http.RoundTripper that will perform failsafe round trips via the executor and innerRoundTripper.
func NewRoundTripperWithExecutor(innerRoundTripper http.RoundTripper, executor failsafe.Executor[*http.Response]) http.RoundTripper {
	panic("stub")
}

// NewRoundTripperWithLevel propagates adaptivelimiter priority and level information from a client context to a server via HTTP headers.
func NewRoundTripperWithLevel(innerRoundTripper http.RoundTripper) http.RoundTripper { panic("stub") }

type Request struct {
}

// NewRequest creates and returns a new Request that will perform failsafe round trips via the request, client, and policies.
func NewRequest(request *http.Request, client *http.Client, policies ...failsafe.Policy[*http.Response]) *Request {
	panic("stub")
}

// NewRequestWithExecutor creates and returns a new Request that will perform failsafe round trips via the request, client, and executor.
func NewRequestWithExecutor(request *http.Request, client *http.Client, executor failsafe.Executor[*http.Response]) *Request {
	panic("stub")
}

func (r *Request) Do() (*http.Response, error) { panic("stub") }

// ---- policy.go

// NewRetryPolicyBuilder returns a retrypolicy.Builder that will retry non-terminal HTTP errors and responses up to 2 times, by default.
// Retries every method (POST included) on transport errors, 429 and >=500 except 501;
// zero delay unless Retry-After (DelayFunc).
func NewRetryPolicyBuilder() retrypolicy.Builder[*http.Response] { panic("stub") }

// DelayFunc delays according to an http.Response Retry-After header.
func DelayFunc(exec failsafe.ExecutionAttempt[*http.Response]) time.Duration { panic("stub") }

// ---- server.go

// NewHandler returns a new http.Handler that will perform failsafe request handling via the policies and innerHandler.
func NewHandler(innerHandler http.Handler, policies ...failsafe.Policy[*http.Response]) http.Handler {
	panic("stub")
}

// NewHandlerWithExecutor returns a new http.Handler that will perform failsafe request handling via the executor and innerHandler.
func NewHandlerWithExecutor(innerHandler http.Handler, executor failsafe.Executor[*http.Response]) http.Handler {
	panic("stub")
}

// NewHandlerWithLevel extracts adaptivelimiter priority and level information from an incoming request and adds a level to the handling context.
func NewHandlerWithLevel(innerHandler http.Handler, ensureLevel bool) http.Handler { panic("stub") }
