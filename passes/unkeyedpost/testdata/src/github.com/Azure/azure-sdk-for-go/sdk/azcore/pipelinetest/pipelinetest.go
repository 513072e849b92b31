// Package pipelinetest holds pipeline policies (azcore's runtime): the
// pipeline hands each policy's Do every request of the SDK's clients, of
// any method, and req.Next() sends it on.
package pipelinetest

import (
	"net/http"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/internal/exported"
)

func retriable(resp *http.Response) bool { return resp.StatusCode == 429 || resp.StatusCode >= 500 }

// retryPolicy re-sends every request on 429 and 5xx (azcore's retry
// policy).
type retryPolicy struct{ max int }

func (p *retryPolicy) Do(req *exported.Request) (resp *http.Response, err error) {
	for try := 1; ; try++ {
		if err = req.RewindBody(); err != nil {
			return
		}
		clone := req.Clone(req.Raw().Context())
		resp, err = clone.Next() // want `a retry of the caller's requests, POST too, has no idempotency key; key POSTs or retry only idempotent methods`
		if err == nil && !retriable(resp) || try > p.max {
			return
		}
		time.Sleep(time.Duration(try) * time.Second)
	}
}

// ---- look-alikes

// idempotentPolicy retries only GET and HEAD.
type idempotentPolicy struct{ max int }

func (p *idempotentPolicy) Do(req *exported.Request) (resp *http.Response, err error) {
	for try := 1; ; try++ {
		resp, err = req.Clone(req.Raw().Context()).Next()
		if err == nil && !retriable(resp) || try > p.max {
			return
		}
		if m := req.Raw().Method; m != http.MethodGet && m != http.MethodHead {
			return
		}
		time.Sleep(time.Duration(try) * time.Second)
	}
}

// keyedPolicy keys every request before its retry.
type keyedPolicy struct {
	max int
	key func() string
}

func (p *keyedPolicy) Do(req *exported.Request) (resp *http.Response, err error) {
	req.Raw().Header.Set("Idempotency-Key", p.key())
	for try := 1; ; try++ {
		resp, err = req.Next()
		if err == nil && !retriable(resp) || try > p.max {
			return
		}
		time.Sleep(time.Duration(try) * time.Second)
	}
}

// onceTelemetry sends the request on once.
type onceTelemetry struct{}

func (onceTelemetry) Do(req *exported.Request) (*http.Response, error) {
	req.Raw().Header.Set("User-Agent", "sdk")
	return req.Next()
}

// handedOn hands the request to code the check cannot see into before
// its retry: it may key it.
type handedOn struct {
	max    int
	editor exported.Policy
}

func (p *handedOn) Do(req *exported.Request) (resp *http.Response, err error) {
	for try := 1; ; try++ {
		resp, err = p.editor.Do(req)
		if err == nil && !retriable(resp) || try > p.max {
			return
		}
		resp, err = req.Next()
		time.Sleep(time.Duration(try) * time.Second)
	}
}

// RegistrationOptions configures the registration policy: StatusCodes are
// the statuses that send the request again after registering, 409
// Conflict unless a user sets others.
type RegistrationOptions struct {
	MaxAttempts int
	StatusCodes []int
}

func setDefaults(o *RegistrationOptions) {
	if o.MaxAttempts == 0 {
		o.MaxAttempts = 3
	}
	if len(o.StatusCodes) == 0 {
		o.StatusCodes = []int{http.StatusConflict}
	}
}

func newRegistrationPolicy(o RegistrationOptions) *registrationPolicy {
	setDefaults(&o)
	return &registrationPolicy{options: o}
}

func register() error { return nil }

// registrationPolicy sends the request again only after a 409 the server
// refused (azure's rpRegistrationPolicy): nothing was applied, no key is
// needed.
type registrationPolicy struct{ options RegistrationOptions }

func (r *registrationPolicy) Do(req *exported.Request) (*http.Response, error) {
	var resp *http.Response
	for attempts := 0; attempts < r.options.MaxAttempts; attempts++ {
		var err error
		resp, err = req.Next()
		if err != nil || !exported.HasStatusCode(resp, r.options.StatusCodes...) {
			return resp, err
		}
		if err = register(); err != nil {
			return resp, err
		}
		time.Sleep(time.Second) // the registration's poll
	}
	return resp, nil
}

// unavailablePolicy sends the request again after a 503, which the server
// may have answered after applying it: POST too, with no key.
type unavailablePolicy struct{ max int }

func (p *unavailablePolicy) Do(req *exported.Request) (*http.Response, error) {
	var resp *http.Response
	for try := 0; try < p.max; try++ {
		var err error
		resp, err = req.Next() // want `a retry of the caller's requests, POST too, has no idempotency key; key POSTs or retry only idempotent methods`
		if err != nil || !exported.HasStatusCode(resp, http.StatusConflict, http.StatusServiceUnavailable) {
			return resp, err
		}
		time.Sleep(time.Second)
	}
	return resp, nil
}
