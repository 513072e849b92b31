// Package resty is a test stub of resty.dev/v3@v3.0.0-rc.4: signatures only.
// It keeps every type, and the functions, methods and constants that the
// test packages importing resty or the checks' tables name; the rest are
// left out.
package resty

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net/http"
	"net/url"
	"time"
)

// ---- circuit_breaker.go

// ErrCircuitBreakerOpen is returned by [Client] execute method when the circuit breaker is in the open state and a request is blocked.
var ErrCircuitBreakerOpen = errors.New("resty: circuit breaker open")

const (

	// CircuitBreakerStateClosed is the normal operating state: all requests are
	// forwarded and failures are tracked against the configured threshold.
	CircuitBreakerStateClosed CircuitBreakerState = iota

	// CircuitBreakerStateOpen is the tripped state: all requests are blocked and
	// return [ErrCircuitBreakerOpen] immediately. After the reset timeout the
	// breaker transitions to [CircuitBreakerStateHalfOpen].
	CircuitBreakerStateOpen

	// CircuitBreakerStateHalfOpen is the recovery probe state: a single request
	// is allowed through. A success transitions to [CircuitBreakerStateClosed];
	// a failure transitions back to [CircuitBreakerStateOpen].
	CircuitBreakerStateHalfOpen
)

type (
	CircuitBreaker interface {
		Allow() error

		ApplyPolicies(*Response)
	}

	CircuitBreakerObserver interface {
		OnTrigger(...CircuitBreakerTriggerHook) CircuitBreakerObserver

		RunOnTriggerHooks(*Request, error)

		OnStateChange(...CircuitBreakerStateChangeHook) CircuitBreakerObserver

		RunOnStateChangeHooks(oldState, newState CircuitBreakerState)
	}

	CircuitBreakerTriggerHook func(*Request, error)

	CircuitBreakerStateChangeHook func(oldState, newState CircuitBreakerState)

	CircuitBreakerState uint32
)

// CircuitBreakerCount implements a count-based circuit breaker.
type CircuitBreakerCount struct {
}

// CircuitBreakerRatio implements a ratio-based circuit breaker.
type CircuitBreakerRatio struct {
}

// CircuitBreakerPolicy is a function that inspects a [Response] and returns true when that response should be counted as a failure and potentially trip the cir...
type CircuitBreakerPolicy func(resp *Response) bool

// ---- client.go

var (
	ErrNotHttpTransportType = errors.New("resty: not a http.Transport type")

	ErrUnsupportedRequestBodyKind = errors.New("resty: unsupported request body kind")

	ErrReaderNotSeekable = errors.New("resty: reader is not seekable on request retry")
)

type (
	RequestMiddleware func(*Client, *Request) error

	ResponseMiddleware func(*Client, *Response) error

	ErrorHook func(*Request, error)

	SuccessHook func(*Client, *Response)

	CloseHook func()

	RequestFunc func(*Request) *Request

	TLSClientConfiger interface {
		TLSClientConfig() *tls.Config
		SetTLSClientConfig(*tls.Config) error
	}
)

// TransportSettings struct is used to define custom dialer and transport values for the Resty client.
type TransportSettings struct {
	DialerTimeout time.Duration

	DialerKeepAlive time.Duration

	IdleConnTimeout time.Duration

	TLSHandshakeTimeout time.Duration

	ExpectContinueTimeout time.Duration

	ResponseHeaderTimeout time.Duration

	MaxIdleConns int

	MaxIdleConnsPerHost int

	MaxConnsPerHost int

	DisableKeepAlives bool

	MaxResponseHeaderBytes int64

	WriteBufferSize int

	ReadBufferSize int
}

// Client struct is used to create a Resty client with client-level settings, these settings apply to all the requests raised from the client.
type Client struct {
}

// CertWatcherOptions configures the certificate file watcher that reloads TLS certificates dynamically.
type CertWatcherOptions struct {
	PoolInterval time.Duration
}

// Header method returns the headers from the client instance.
func (c *Client) Header() http.Header { panic("stub") }

// Context method returns the [context.Context] from the client instance.
func (c *Client) Context() context.Context { panic("stub") }

// R method creates and returns a new [Request] instance for building and executing HTTP requests.
func (c *Client) R() *Request { panic("stub") }

// NewRequest method is an alias for [Client.R].
func (c *Client) NewRequest() *Request { panic("stub") }

// OnError method adds a callback that will be run whenever a request execution fails.
func (c *Client) OnError(hooks ...ErrorHook) *Client { panic("stub") }

// Logger method returns the logger instance used by the client instance.
func (c *Client) Logger() Logger { panic("stub") }

// Timeout method returns the request timeout duration set on the client.
func (c *Client) Timeout() time.Duration { panic("stub") }

// SetRetryCount method sets the maximum number of retry attempts.
// Default 0 = no retry; only idempotent methods are retried unless SetRetryAllowNonIdempotent(true).
func (c *Client) SetRetryCount(count int) *Client { panic("stub") }

// AddRetryConditions method adds one or more retry condition functions to the client.
func (c *Client) AddRetryConditions(conditions ...RetryConditionFunc) *Client { panic("stub") }

// Transport method returns the underlying [http.RoundTripper] used by the client.
func (c *Client) Transport() http.RoundTripper { panic("stub") }

// Client method returns the underlying [http.Client].
func (c *Client) Client() *http.Client { panic("stub") }

// Clone method returns a clone of the original client.
func (c *Client) Clone(ctx context.Context) *Client { panic("stub") }

// ResponseError pairs an error with the [Response] that triggered it.
type ResponseError struct {
	Response *Response
	Err      error
}

func (e *ResponseError) Error() string { panic("stub") }

// ---- debug.go

type (
	DebugLogCallbackFunc func(*DebugLog)

	DebugLogFormatterFunc func(*DebugLog) string

	DebugLog struct {
		Request   *DebugLogRequest  `json:"request"`
		Response  *DebugLogResponse `json:"response"`
		TraceInfo *TraceInfo        `json:"trace_info"`
	}

	DebugLogRequest struct {
		CorrelationID string `json:"correlation_id"`

		Host string `json:"host"`

		URI string `json:"uri"`

		Method string `json:"method"`

		Proto string `json:"proto"`

		Header http.Header `json:"header"`

		CurlCmd string `json:"curl_cmd"`

		Attempt int `json:"attempt"`

		Body string `json:"body"`
	}

	DebugLogResponse struct {
		StatusCode int `json:"status_code"`

		Status string `json:"status"`

		Proto string `json:"proto"`

		ReceivedAt time.Time `json:"received_at"`

		Duration time.Duration `json:"duration"`

		Size int64 `json:"size"`

		Header http.Header `json:"header"`

		Body string `json:"body"`
	}
)

// ---- digest.go

var (
	ErrDigestBadChallenge = errors.New("resty: digest: challenge is bad")

	ErrDigestInvalidCharset = errors.New("resty: digest: invalid charset")

	ErrDigestAlgNotSupported = errors.New("resty: digest: algorithm is not supported")

	ErrDigestQopNotSupported = errors.New("resty: digest: qop is not supported")
)

// ---- hedging.go

// Hedger is the interface for implementing a hedging strategy for HTTP requests.
type Hedger interface {
	http.RoundTripper

	SetTransport(http.RoundTripper)

	Transport() http.RoundTripper
}

// Hedging implements [Hedger] and [http.RoundTripper] to perform hedged HTTP requests.
type Hedging struct {
}

// Transport returns the underlying HTTP transport.
func (h *Hedging) Transport() http.RoundTripper { panic("stub") }

// Delay method returns the delay between hedged requests.
func (h *Hedging) Delay() time.Duration { panic("stub") }

// RoundTrip races up to [Hedging.MaxRequest] copies of req against each other and returns the result of whichever attempt finishes first.
func (ht *Hedging) RoundTrip(req *http.Request) (*http.Response, error) { panic("stub") }

// ---- load_balancer.go

// ErrNoBaseURLs is returned when no base URLs are found.
var ErrNoBaseURLs = errors.New("resty: no base URLs found")

// LoadBalancer is the interface that abstracts a load-balancing algorithm.
type LoadBalancer interface {
	NextWithContext(ctx context.Context) (string, error)
	Feedback(*RequestFeedback)
	Close() error
}

// RequestFeedback contains request outcome data reported back to a [LoadBalancer] implementation.
type RequestFeedback struct {
	BaseURL string
	Success bool
	Attempt int
}

// RoundRobin implements the Round-Robin (RR) load-balancing algorithm.
type RoundRobin struct {
}

// Host represents a backend target and its load-balancing parameters.
type Host struct {
	BaseURL string

	Weight int

	MaxFailures int
}

type HostState int

const (
	HostStateInActive HostState = iota
	HostStateActive
)

// HostStateChangeFunc is a callback type invoked whenever a host transitions between states.
type HostStateChangeFunc func(baseURL string, from, to HostState)

// ErrNoActiveHost is returned when all hosts are inactive in the load balancer.
var ErrNoActiveHost = errors.New("resty: no active host")

// WeightedRoundRobin implements the Weighted Round-Robin (WRR) load-balancing algorithm.
type WeightedRoundRobin struct {
}

// SRVWeightedRoundRobin implements an SRV-backed Weighted Round-Robin (WRR) load balancer.
type SRVWeightedRoundRobin struct {
	Service    string
	Proto      string
	DomainName string
	HttpScheme string
}

// ---- multipart.go

// MultipartField describes a multipart/form-data field and its optional file upload metadata.
type MultipartField struct {
	Name string

	FileName string

	ContentType string

	Reader io.Reader

	FilePath string

	FileSize int64

	ProgressCallback MultipartFieldCallbackFunc

	Values []string
}

// Clone returns a copy of m, except [MultipartField.Reader] which is shared.
func (mf *MultipartField) Clone() *MultipartField { panic("stub") }

// MultipartFieldCallbackFunc receives live multipart upload progress updates.
type MultipartFieldCallbackFunc func(MultipartFieldProgress)

// MultipartFieldProgress contains upload progress details for a multipart field.
type MultipartFieldProgress struct {
	Name     string
	FileName string
	FileSize int64
	Written  int64
}

// String returns the string representation of [MultipartFieldProgress].
func (mfp MultipartFieldProgress) String() string { panic("stub") }

// ---- rate_limiter.go

// ErrRateLimitExceeded is returned by [Client] execute method when the rate limiter rejects a request.
var ErrRateLimitExceeded = errors.New("resty: rate limit exceeded")

// RateLimiter is the interface that wraps the rate limiting behavior used by [Client].
type RateLimiter interface {
	Allow(ctx context.Context) error
}

// RateLimitTokenBucket is a token-bucket based implementation of [RateLimiter].
type RateLimitTokenBucket struct {
}

// Allow blocks until the rate limiter grants a token or the context is done.
func (l *RateLimitTokenBucket) Allow(ctx context.Context) error { panic("stub") }

// RateLimitSlidingWindow is a sliding-window based implementation of [RateLimiter].
type RateLimitSlidingWindow struct {
}

// Limit returns the maximum number of requests allowed per window.
func (l *RateLimitSlidingWindow) Limit() int { panic("stub") }

// Allow blocks until the sliding window permits the next request or the context is done.
func (l *RateLimitSlidingWindow) Allow(ctx context.Context) error { panic("stub") }

// ---- redirect.go

type (
	RedirectPolicy interface {
		Apply(*http.Request, []*http.Request) error
	}

	RedirectPolicyFunc func(*http.Request, []*http.Request) error

	RedirectInfo struct {
		URL string

		StatusCode int
	}
)

// ---- request.go

// Request struct is used to compose and fire individual requests from Resty client.
type Request struct {
	CorrelationID string

	URL                          string
	Method                       string
	AuthToken                    string
	AuthScheme                   string
	QueryParams                  url.Values
	FormData                     url.Values
	PathParams                   map[string]string
	Header                       http.Header
	StartTime                    time.Time
	Body                         any
	Result                       any
	ResultError                  any
	RawRequest                   *http.Request
	Cookies                      []*http.Cookie
	IsDebug                      bool
	IsCloseConnection            bool
	IsResponseDoNotParse         bool
	ResponseSaveFileName         string
	ResponseExpectContentType    string
	ResponseForceContentType     string
	DebugBodyLimit               int
	ResponseBodyLimit            int64
	IsResponseBodyUnlimitedReads bool
	IsTrace                      bool
	IsMethodGetAllowPayload      bool
	IsMethodDeleteAllowPayload   bool
	IsDone                       bool
	IsResponseSaveToFile         bool
	Timeout                      time.Duration
	HeaderAuthorizationKey       string
	RetryCount                   int
	RetryWaitTime                time.Duration
	RetryMaxWaitTime             time.Duration
	RetryDelayStrategy           RetryDelayStrategyFunc
	IsRetryDefaultConditions     bool
	IsRetryAllowNonIdempotent    bool
	Label                        string

	Attempt int
}

// Context method returns the request's [context.Context].
func (r *Request) Context() context.Context { panic("stub") }

// WithContext method returns a shallow copy of r with its context changed to ctx.
func (r *Request) WithContext(ctx context.Context) *Request { panic("stub") }

// AddRetryConditions method adds one or more retry condition functions into the request.
func (r *Request) AddRetryConditions(conditions ...RetryConditionFunc) *Request { panic("stub") }

// SetRetryConditions method overwrites the retry conditions in the request.
func (r *Request) SetRetryConditions(conditions ...RetryConditionFunc) *Request { panic("stub") }

// SetRetryCount method enables retry on Resty client and allows you to set the retry count.
func (r *Request) SetRetryCount(count int) *Request { panic("stub") }

// Get method does GET HTTP request.
func (r *Request) Get(url string) (*Response, error) { panic("stub") }

// Head method does HEAD HTTP request.
func (r *Request) Head(url string) (*Response, error) { panic("stub") }

// Post method does POST HTTP request.
func (r *Request) Post(url string) (*Response, error) { panic("stub") }

// Options method does OPTIONS HTTP request.
func (r *Request) Options(url string) (*Response, error) { panic("stub") }

// Query method does QUERY HTTP request.
func (r *Request) Query(url string) (*Response, error) { panic("stub") }

// Clone returns a deep copy of r with its context changed to ctx.
func (r *Request) Clone(ctx context.Context) *Request { panic("stub") }

// ---- response.go

// Response holds response values for an executed request.
type Response struct {
	Request     *Request
	Body        io.ReadCloser
	RawResponse *http.Response
	IsRead      bool

	CascadeError error
}

// StatusCode method returns the HTTP status code for the executed request.
func (r *Response) StatusCode() int { panic("stub") }

// Header method returns the response headers.
func (r *Response) Header() http.Header { panic("stub") }

// String method returns the body of the HTTP response as a `string`.
func (r *Response) String() string { panic("stub") }

// Bytes method returns the body of the HTTP response as a byte slice.
func (r *Response) Bytes() []byte { panic("stub") }

// Duration method returns the end-to-end duration from request start to response completion.
func (r *Response) Duration() time.Duration { panic("stub") }

// ---- resty.go

// Version is the current Resty library version string.
const Version = "3.0.0-rc.4"

// New creates a new Resty client.
func New() *Client { panic("stub") }

// ---- retry.go

type (
	RetryConditionFunc func(*Response, error) bool

	RetryHookFunc func(*Response, error)

	RetryDelayStrategyFunc func(*Response, error) (time.Duration, error)
)

// ---- sse.go

type (
	SSEOpenFunc func(url string, respHdr http.Header)

	SSEMessageFunc func(any)

	SSEErrorFunc func(error)

	SSERequestFailureFunc func(err error, res *http.Response)

	SSE struct {
		ID   string
		Name string
		Data string
	}

	SSESource struct {
	}
)

// Context method returns the [context.Context] from the SSE source instance.
func (sse *SSESource) Context() context.Context { panic("stub") }

// SetRetryCount method sets the retry count used while establishing an SSE connection with the server.
func (sse *SSESource) SetRetryCount(count int) *SSESource { panic("stub") }

// Logger method returns the logger instance used by the event source instance.
func (sse *SSESource) Logger() Logger { panic("stub") }

// OnError registers a callback that is triggered when an error occurs.
func (sse *SSESource) OnError(ef SSEErrorFunc) *SSESource { panic("stub") }

// Get method establishes the connection with the server.
func (sse *SSESource) Get() error { panic("stub") }

// ---- stream.go

var ErrContentDecompresserNotFound = errors.New("resty: content decoder not found")

type (
	ContentTypeEncoder func(io.Writer, any) error

	ContentTypeDecoder func(io.Reader, any) error

	ContentDecompresser func(io.ReadCloser) (io.ReadCloser, error)
)

// ErrReadExceedsThresholdLimit is returned when the response body read exceeds the limit set by [Client.SetResponseBodyLimit] or [Request.SetResponseBodyLimit].
var ErrReadExceedsThresholdLimit = errors.New("resty: read exceeds the threshold limit")

// ---- trace.go

// TraceInfo holds timing and connection details captured during a request via [httptrace.ClientTrace].
type TraceInfo struct {
	DNSLookup time.Duration `json:"dns_lookup_time"`

	ConnTime time.Duration `json:"connection_time"`

	TCPConnTime time.Duration `json:"tcp_connection_time"`

	TLSHandshake time.Duration `json:"tls_handshake_time"`

	ServerTime time.Duration `json:"server_time"`

	ResponseTime time.Duration `json:"response_time"`

	TotalTime time.Duration `json:"total_time"`

	IsConnReused bool `json:"is_connection_reused"`

	IsConnWasIdle bool `json:"is_connection_was_idle"`

	ConnIdleTime time.Duration `json:"connection_idle_time"`

	RequestAttempt int `json:"request_attempt"`

	RemoteAddr string `json:"remote_address"`
}

// String method returns a string representation of the request trace information.
func (ti TraceInfo) String() string { panic("stub") }

// JSON method returns the JSON representation of the request trace information.
func (ti TraceInfo) JSON() string { panic("stub") }

// Clone method returns a deep copy of the [TraceInfo].
func (ti TraceInfo) Clone() *TraceInfo { panic("stub") }

// ---- util.go

// Logger abstracts Resty's internal logging, giving callers control over where and how log output is written.
type Logger interface {
	Errorf(format string, v ...any)
	Warnf(format string, v ...any)
	Debugf(format string, v ...any)
}

// InMemory* are the default in-memory (un)marshal functions (bodies omitted in the stub).
var (
	InMemoryJSONMarshal   func(w io.Writer, v any) error
	InMemoryJSONUnmarshal func(r io.Reader, v any) error
	InMemoryXMLMarshal    func(w io.Writer, v any) error
	InMemoryXMLUnmarshal  func(r io.Reader, v any) error
)
