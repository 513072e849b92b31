// Package grpc is a test stub of google.golang.org/grpc@v1.84.0: signatures only.
// Only CallOption (needed by gax-go) is declared.
package grpc

type callInfo struct{}

type csAttempt struct{}

// CallOption configures a Call before it starts or extracts information from a Call after it completes.
type CallOption interface {
	before(*callInfo) error
	after(*callInfo, *csAttempt)
}

// EmptyCallOption does not alter the Call configuration.
type EmptyCallOption struct{}

func (EmptyCallOption) before(*callInfo) error      { return nil }
func (EmptyCallOption) after(*callInfo, *csAttempt) {}
