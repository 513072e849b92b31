// Package exported is a test stub of azcore's internal/exported@v1.24.0
// (the pipeline's Request, policy.Request): signatures only.
package exported

import (
	"context"
	"io"
	"net/http"
)

// Policy represents an extensibility point for the Pipeline.
type Policy interface {
	Do(req *Request) (*http.Response, error)
}

// Request is an abstraction over the creation of an HTTP request as it passes through the pipeline.
type Request struct {
	req      *http.Request
	policies []Policy
}

// Body returns the original body specified when the Request was created.
func (req *Request) Body() io.ReadSeekCloser { panic("stub") }

// Raw returns the underlying HTTP request.
func (req *Request) Raw() *http.Request { panic("stub") }

// Next calls the next policy in the pipeline.
func (req *Request) Next() (*http.Response, error) { panic("stub") }

// RewindBody seeks the request's Body stream back to the beginning.
func (req *Request) RewindBody() error { panic("stub") }

// Clone returns a deep copy of the request with its context changed to ctx.
func (req *Request) Clone(ctx context.Context) *Request { panic("stub") }

// HasStatusCode returns true if the Response's status code is one of the specified values.
func HasStatusCode(resp *http.Response, statusCodes ...int) bool { panic("stub") }
