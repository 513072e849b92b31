// Package retryablehttp is a test stub of github.com/hashicorp/go-retryablehttp@v0.7.8: signatures only.
package retryablehttp

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"time"
)

// ---- client.go

// ReaderFunc is the type of function that can be given natively to NewRequest
type ReaderFunc func() (io.Reader, error)

// ResponseHandlerFunc is a type of function that takes in a Response, and does something with it.
type ResponseHandlerFunc func(*http.Response) error

// LenReader is an interface implemented by many in-memory io.Reader's.
type LenReader interface {
	Len() int
}

// Request wraps the metadata needed to create HTTP requests.
type Request struct {
	*http.Request
}

// WithContext returns wrapped Request with a shallow copy of underlying *http.Request with its context changed to ctx.
func (r *Request) WithContext(ctx context.Context) *Request { panic("stub") }

// SetResponseHandler allows setting the response handler.
func (r *Request) SetResponseHandler(fn ResponseHandlerFunc) {}

// BodyBytes allows accessing the request body.
func (r *Request) BodyBytes() ([]byte, error) { panic("stub") }

// SetBody allows setting the request body.
func (r *Request) SetBody(rawBody interface{}) error { panic("stub") }

// WriteTo allows copying the request body into a writer.
func (r *Request) WriteTo(w io.Writer) (int64, error) { panic("stub") }

// FromRequest wraps an http.Request in a retryablehttp.Request
func FromRequest(r *http.Request) (*Request, error) { panic("stub") }

// NewRequest creates a new wrapped request.
func NewRequest(method, url string, rawBody interface{}) (*Request, error) { panic("stub") }

// NewRequestWithContext creates a new wrapped request with the provided context.
func NewRequestWithContext(ctx context.Context, method, url string, rawBody interface{}) (*Request, error) {
	panic("stub")
}

// Logger interface allows to use other loggers than standard log.Logger.
type Logger interface {
	Printf(string, ...interface{})
}

// LeveledLogger is an interface that can be implemented by any logger or a logger wrapper to provide leveled logging.
type LeveledLogger interface {
	Error(msg string, keysAndValues ...interface{})
	Info(msg string, keysAndValues ...interface{})
	Debug(msg string, keysAndValues ...interface{})
	Warn(msg string, keysAndValues ...interface{})
}

// RequestLogHook allows a function to run before each retry.
type RequestLogHook func(Logger, *http.Request, int)

// ResponseLogHook is like RequestLogHook, but allows running a function on each HTTP response.
type ResponseLogHook func(Logger, *http.Response)

// CheckRetry specifies a policy for handling retries.
type CheckRetry func(ctx context.Context, resp *http.Response, err error) (bool, error)

// Backoff specifies a policy for how long to wait between retries.
type Backoff func(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration

// ErrorHandler is called if retries are expired, containing the last status from the http library.
type ErrorHandler func(resp *http.Response, err error, numTries int) (*http.Response, error)

// PrepareRetry is called before retry operation.
type PrepareRetry func(req *http.Request) error

// Client is used to make HTTP requests.
// The zero value has CheckRetry == nil, which makes Do panic: use NewClient.
type Client struct {
	HTTPClient *http.Client // NewClient: cleanhttp.DefaultPooledClient() (no Timeout)
	Logger     interface{}  // Customer logger instance. Can be either Logger or LeveledLogger

	RetryWaitMin time.Duration // Minimum time to wait; NewClient: 1s
	RetryWaitMax time.Duration // Maximum time to wait; NewClient: 30s
	RetryMax     int           // Maximum number of retries; NewClient: 4 (5 attempts)

	// RequestLogHook allows a user-supplied function to be called before each retry.
	RequestLogHook RequestLogHook

	// ResponseLogHook allows a user-supplied function to be called with the response from each HTTP request executed.
	ResponseLogHook ResponseLogHook

	// CheckRetry specifies the policy for handling retries; NewClient: DefaultRetryPolicy
	// (retries every method, POST included, on transport errors, 429, status 0, >=500 except 501).
	CheckRetry CheckRetry

	// Backoff specifies the policy for how long to wait between retries;
	// NewClient: DefaultBackoff (1s*2^n capped at RetryWaitMax, no jitter; Retry-After uncapped).
	Backoff Backoff

	// ErrorHandler specifies the custom error handler to use, if any
	ErrorHandler ErrorHandler

	// PrepareRetry can prepare the request for retry operation, for example re-sign it
	PrepareRetry PrepareRetry
}

// NewClient creates a new Client with default settings: RetryMax 4, RetryWaitMin 1s,
// RetryWaitMax 30s, CheckRetry DefaultRetryPolicy, Backoff DefaultBackoff.
func NewClient() *Client { panic("stub") }

// DefaultRetryPolicy provides a default callback for Client.CheckRetry, which will retry on connection errors and server errors.
func DefaultRetryPolicy(ctx context.Context, resp *http.Response, err error) (bool, error) {
	panic("stub")
}

// ErrorPropagatedRetryPolicy is the same as DefaultRetryPolicy, except it propagates errors back instead of returning nil.
func ErrorPropagatedRetryPolicy(ctx context.Context, resp *http.Response, err error) (bool, error) {
	panic("stub")
}

// DefaultBackoff provides a default callback for Client.Backoff which will perform exponential backoff based on the attempt number and limited by the provided ...
func DefaultBackoff(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration {
	panic("stub")
}

// LinearJitterBackoff provides a callback for Client.Backoff which will perform linear backoff based on the attempt number and with jitter to prevent a thunder...
func LinearJitterBackoff(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration {
	panic("stub")
}

// RateLimitLinearJitterBackoff wraps the retryablehttp.LinearJitterBackoff.
func RateLimitLinearJitterBackoff(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration {
	panic("stub")
}

// PassthroughErrorHandler is an ErrorHandler that directly passes through the values from the net/http library for the final request.
func PassthroughErrorHandler(resp *http.Response, err error, _ int) (*http.Response, error) {
	panic("stub")
}

// Do wraps calling an HTTP method with retries.
func (c *Client) Do(req *Request) (*http.Response, error) { panic("stub") }

// Get is a shortcut for doing a GET request without making a new client.
func Get(url string) (*http.Response, error) { panic("stub") }

// Get is a convenience helper for doing simple GET requests.
func (c *Client) Get(url string) (*http.Response, error) { panic("stub") }

// Head is a shortcut for doing a HEAD request without making a new client.
func Head(url string) (*http.Response, error) { panic("stub") }

// Head is a convenience method for doing simple HEAD requests.
func (c *Client) Head(url string) (*http.Response, error) { panic("stub") }

// Post is a shortcut for doing a POST request without making a new client.
func Post(url, bodyType string, body interface{}) (*http.Response, error) { panic("stub") }

// Post is a convenience method for doing simple POST requests.
func (c *Client) Post(url, bodyType string, body interface{}) (*http.Response, error) { panic("stub") }

// PostForm is a shortcut to perform a POST with form data without creating a new client.
func PostForm(url string, data url.Values) (*http.Response, error) { panic("stub") }

// PostForm is a convenience method for doing simple POST operations using pre-filled url.Values form data.
func (c *Client) PostForm(url string, data url.Values) (*http.Response, error) { panic("stub") }

// StandardClient returns a stdlib *http.Client with a custom Transport, which shims in a *retryablehttp.Client for added retries.
func (c *Client) StandardClient() *http.Client { panic("stub") }

// ---- roundtripper.go

// RoundTripper implements the http.RoundTripper interface, using a retrying HTTP client to execute requests.
type RoundTripper struct {
	Client *Client
}

// RoundTrip satisfies the http.RoundTripper interface.
func (rt *RoundTripper) RoundTrip(req *http.Request) (*http.Response, error) { panic("stub") }
