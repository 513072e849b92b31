// Package lambda is a stub of github.com/aws/aws-lambda-go/lambda
// (v1.55.1): the entry points, with the real signatures.
package lambda

import "context"

type Option func(*handlerOptions)

type handlerOptions struct{}

type Handler interface {
	Invoke(ctx context.Context, payload []byte) ([]byte, error)
}

func Start(handler interface{}) {}

func StartWithContext(ctx context.Context, handler interface{}) {}

func StartWithOptions(handler interface{}, options ...Option) {}
