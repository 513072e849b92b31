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
