// Package resty is a test stub of resty.dev/v3@v3.0.0-rc.4: signatures only.
package resty

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"reflect"
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

// ApplyPolicies inspects the given HTTP response against the registered policies to determine if it should be classified as a failure.
func (cb *CircuitBreakerCount) ApplyPolicies(resp *Response) {}

// CircuitBreakerRatio implements a ratio-based circuit breaker.
type CircuitBreakerRatio struct {
}

// ApplyPolicies inspects the given HTTP response against the registered policies to determine if it should be classified as a failure.
func (cb *CircuitBreakerRatio) ApplyPolicies(resp *Response) {}

// NewCircuitBreakerCount creates a circuit breaker that trips when the absolute number of request failures within the sliding window reaches failureThreshold.
func NewCircuitBreakerCount(failureThreshold uint64, successThreshold uint64,
	resetTimeout time.Duration, policies ...CircuitBreakerPolicy) *CircuitBreakerCount {
	panic("stub")
}

// NewCircuitBreakerRatio creates a circuit breaker that trips when the ratio of failures to total requests within the sliding window reaches failureRatio (0.0–...
func NewCircuitBreakerRatio(failureRatio float64, minRequests uint64,
	resetTimeout time.Duration, policies ...CircuitBreakerPolicy) *CircuitBreakerRatio {
	panic("stub")
}

// CircuitBreakerPolicy is a function that inspects a [Response] and returns true when that response should be counted as a failure and potentially trip the cir...
type CircuitBreakerPolicy func(resp *Response) bool

// CircuitBreaker5xxPolicy is the default [CircuitBreakerPolicy].
func CircuitBreaker5xxPolicy(resp *Response) bool { panic("stub") }

// ---- client.go

const (
	MethodGet = "GET"

	MethodPost = "POST"

	MethodPut = "PUT"

	MethodDelete = "DELETE"

	MethodPatch = "PATCH"

	MethodHead = "HEAD"

	MethodOptions = "OPTIONS"

	MethodTrace = "TRACE"

	MethodQuery = "QUERY"
)

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

// BaseURL method returns the Base URL value from the client instance.
func (c *Client) BaseURL() string { panic("stub") }

// SetBaseURL method sets the Base URL in the client instance.
func (c *Client) SetBaseURL(url string) *Client { panic("stub") }

// LoadBalancer method returns the load balancer set on the client, or nil if none is set.
func (c *Client) LoadBalancer() LoadBalancer { panic("stub") }

// SetLoadBalancer method sets the load balancer used for request routing.
func (c *Client) SetLoadBalancer(b LoadBalancer) *Client { panic("stub") }

// Header method returns the headers from the client instance.
func (c *Client) Header() http.Header { panic("stub") }

// SetHeader method sets a single header and its value in the client instance.
func (c *Client) SetHeader(header, value string) *Client { panic("stub") }

// SetHeaderAny method sets a single header field and its value in the client instance for all requests raised from the client.
func (c *Client) SetHeaderAny(header string, value any) *Client { panic("stub") }

// SetHeaders method sets multiple headers and their values at one go, and these headers will be applied to all requests raised from the client instance.
func (c *Client) SetHeaders(headers map[string]string) *Client { panic("stub") }

// SetHeaderVerbatim method is used to set the HTTP header key and value verbatim in the current request.
func (c *Client) SetHeaderVerbatim(header, value string) *Client { panic("stub") }

// SetHeaderVerbatimAny method sets the HTTP header key and value verbatim in the client instance for all requests raised from the client.
func (c *Client) SetHeaderVerbatimAny(header string, value any) *Client { panic("stub") }

// Context method returns the [context.Context] from the client instance.
func (c *Client) Context() context.Context { panic("stub") }

// SetContext method sets the context on the client instance; it is attached to every [Request] raised from this client.
func (c *Client) SetContext(ctx context.Context) *Client { panic("stub") }

// CookieJar method returns the HTTP cookie jar instance from the underlying Go HTTP Client.
func (c *Client) CookieJar() http.CookieJar { panic("stub") }

// SetCookieJar method sets the cookie jar on the client, replacing any existing jar.
func (c *Client) SetCookieJar(jar http.CookieJar) *Client { panic("stub") }

// Cookies method returns all cookies registered in the client instance.
func (c *Client) Cookies() []*http.Cookie { panic("stub") }

// SetCookie method appends a single cookie to the client instance.
func (c *Client) SetCookie(hc *http.Cookie) *Client { panic("stub") }

// SetCookies method sets an array of cookies in the client instance.
func (c *Client) SetCookies(cs []*http.Cookie) *Client { panic("stub") }

// QueryParams method returns all query parameters and their values from the client instance.
func (c *Client) QueryParams() url.Values { panic("stub") }

// SetQueryParam method sets a single parameter and its value in the client instance.
func (c *Client) SetQueryParam(param, value string) *Client { panic("stub") }

// SetQueryParamAny method sets a single query parameter and its value in the client instance.
func (c *Client) SetQueryParamAny(param string, value any) *Client { panic("stub") }

// SetQueryParams method sets multiple parameters and their values at one go in the client instance.
func (c *Client) SetQueryParams(params map[string]string) *Client { panic("stub") }

// FormData method returns the form parameters and their values from the client instance.
func (c *Client) FormData() url.Values { panic("stub") }

// SetFormData method sets Form parameters and their values in the client instance.
func (c *Client) SetFormData(data map[string]string) *Client { panic("stub") }

// SetBasicAuth method sets the basic authentication header in the HTTP request.
func (c *Client) SetBasicAuth(username, password string) *Client { panic("stub") }

// AuthToken method returns the auth token value registered in the client instance.
func (c *Client) AuthToken() string { panic("stub") }

// HeaderAuthorizationKey method returns the HTTP header name for Authorization from the client instance.
func (c *Client) HeaderAuthorizationKey() string { panic("stub") }

// SetHeaderAuthorizationKey method sets the given HTTP header name for Authorization in the client instance.
func (c *Client) SetHeaderAuthorizationKey(k string) *Client { panic("stub") }

// SetAuthToken method sets the auth token of the Authorization header for all HTTP requests.
func (c *Client) SetAuthToken(token string) *Client { panic("stub") }

// AuthScheme method returns the auth scheme name set in the client instance.
func (c *Client) AuthScheme() string { panic("stub") }

// SetAuthScheme method sets the auth scheme type in the HTTP request.
func (c *Client) SetAuthScheme(scheme string) *Client { panic("stub") }

// SetDigestAuth method sets the Digest Auth transport with provided credentials in the client.
func (c *Client) SetDigestAuth(username, password string) *Client { panic("stub") }

// R method creates and returns a new [Request] instance for building and executing HTTP requests.
func (c *Client) R() *Request { panic("stub") }

// NewRequest method is an alias for [Client.R].
func (c *Client) NewRequest() *Request { panic("stub") }

// AddRequestMiddleware method appends a request middleware to the request chain.
func (c *Client) AddRequestMiddleware(m RequestMiddleware) *Client { panic("stub") }

// SetRequestMiddlewares method allows Resty users to override the default request middleware sequence or execution chain.
func (c *Client) SetRequestMiddlewares(middlewares ...RequestMiddleware) *Client { panic("stub") }

// AddResponseMiddleware method appends a response middleware to the after-response chain.
func (c *Client) AddResponseMiddleware(m ResponseMiddleware) *Client { panic("stub") }

// SetResponseMiddlewares method allows Resty users to override the default response middleware sequence or execution chain.
func (c *Client) SetResponseMiddlewares(middlewares ...ResponseMiddleware) *Client { panic("stub") }

// OnError method adds a callback that will be run whenever a request execution fails.
func (c *Client) OnError(hooks ...ErrorHook) *Client { panic("stub") }

// OnSuccess method adds a callback that will be run whenever a request execution succeeds.
func (c *Client) OnSuccess(hooks ...SuccessHook) *Client { panic("stub") }

// OnInvalid method adds a callback that will be run whenever a request execution fails before it starts because the request is invalid.
func (c *Client) OnInvalid(hooks ...ErrorHook) *Client { panic("stub") }

// OnPanic method adds a callback that will be run whenever a request execution panics.
func (c *Client) OnPanic(hooks ...ErrorHook) *Client { panic("stub") }

// OnClose method adds a callback that will be run whenever the client is closed.
func (c *Client) OnClose(hooks ...CloseHook) *Client { panic("stub") }

// ContentTypeEncoders method returns all the registered content type encoders.
func (c *Client) ContentTypeEncoders() map[string]ContentTypeEncoder { panic("stub") }

// AddContentTypeEncoder method adds a Content-Type encoder to the client.
func (c *Client) AddContentTypeEncoder(ct string, e ContentTypeEncoder) *Client { panic("stub") }

// ContentTypeDecoders method returns all the registered content type decoders.
func (c *Client) ContentTypeDecoders() map[string]ContentTypeDecoder { panic("stub") }

// AddContentTypeDecoder method adds a Content-Type decoder to the client.
func (c *Client) AddContentTypeDecoder(ct string, d ContentTypeDecoder) *Client { panic("stub") }

// ContentDecompressers method returns all the registered content-encoding Decompressers.
func (c *Client) ContentDecompressers() map[string]ContentDecompresser { panic("stub") }

// AddContentDecompresser method adds a Content-Encoding ([RFC 9110]) decompresser and its directive to the client.
func (c *Client) AddContentDecompresser(k string, d ContentDecompresser) *Client { panic("stub") }

// ContentDecompresserKeys method returns all the registered content-encoding Decompressers keys as comma-separated string.
func (c *Client) ContentDecompresserKeys() string { panic("stub") }

// SetContentDecompresserKeys method sets given Content-Encoding ([RFC 9110]) directives into the client instance.
func (c *Client) SetContentDecompresserKeys(keys []string) *Client { panic("stub") }

// SetCircuitBreaker method sets the [CircuitBreaker] on the client to prevent sending requests that are likely to fail.
func (c *Client) SetCircuitBreaker(cb CircuitBreaker) *Client { panic("stub") }

// RateLimiter method returns the [RateLimiter] configured on the client, or nil if none is set.
func (c *Client) RateLimiter() RateLimiter { panic("stub") }

// SetRateLimiter method sets the [RateLimiter] on the client.
func (c *Client) SetRateLimiter(l RateLimiter) *Client { panic("stub") }

// IsDebug method returns `true` if the client is in debug mode; otherwise, it is `false`.
func (c *Client) IsDebug() bool { panic("stub") }

// SetDebug method is used to turn on/off the debug mode on the Resty client instance.
func (c *Client) SetDebug(d bool) *Client { panic("stub") }

// DebugBodyLimit method returns the debug body size limit set on the client.
func (c *Client) DebugBodyLimit() int { panic("stub") }

// SetDebugBodyLimit sets the maximum size in bytes for which the response and request body will be logged in debug mode.
func (c *Client) SetDebugBodyLimit(sl int) *Client { panic("stub") }

// OnDebugLog method sets the debug-log callback on the client instance.
func (c *Client) OnDebugLog(dlc DebugLogCallbackFunc) *Client { panic("stub") }

// SetDebugLogFormatter method sets the debug log formatter on the client instance.
func (c *Client) SetDebugLogFormatter(df DebugLogFormatterFunc) *Client { panic("stub") }

// IsDisableWarn method returns `true` if the warning message is disabled; otherwise, it is `false`.
func (c *Client) IsDisableWarn() bool { panic("stub") }

// SetLoggerWarnLevel method controls whether warning log messages are emitted.
func (c *Client) SetLoggerWarnLevel(d bool) *Client { panic("stub") }

// IsMethodGetAllowPayload method returns true if the GET method is allowed to carry a payload; otherwise false.
func (c *Client) IsMethodGetAllowPayload() bool { panic("stub") }

// SetMethodGetAllowPayload method allows or disallows a payload with the GET method.
func (c *Client) SetMethodGetAllowPayload(allow bool) *Client { panic("stub") }

// IsMethodDeleteAllowPayload method returns true if the DELETE method is allowed to carry a payload; otherwise false.
func (c *Client) IsMethodDeleteAllowPayload() bool { panic("stub") }

// SetMethodDeleteAllowPayload method allows or disallows a payload with the DELETE method.
func (c *Client) SetMethodDeleteAllowPayload(allow bool) *Client { panic("stub") }

// Logger method returns the logger instance used by the client instance.
func (c *Client) Logger() Logger { panic("stub") }

// SetLogger method sets the logger used by the client for request and response details.
func (c *Client) SetLogger(l Logger) *Client { panic("stub") }

// Timeout method returns the request timeout duration set on the client.
func (c *Client) Timeout() time.Duration { panic("stub") }

// SetTimeout method is used to set a timeout for a request raised by the client.
func (c *Client) SetTimeout(timeout time.Duration) *Client { panic("stub") }

// ResultError method returns the common error type registered on the client, or nil if none is set.
func (c *Client) ResultError() reflect.Type { panic("stub") }

// SetResultError method registers a common error type on the client instance, used for automatic unmarshalling when the response status code is greater than 39...
func (c *Client) SetResultError(v any) *Client { panic("stub") }

// SetRedirectPolicy method sets the redirect policy for the client.
func (c *Client) SetRedirectPolicy(policies ...RedirectPolicy) *Client { panic("stub") }

// RetryCount method returns the retry count value from the client instance.
func (c *Client) RetryCount() int { panic("stub") }

// SetRetryCount method sets the maximum number of retry attempts.
// Default 0 = no retry; only idempotent methods are retried unless SetRetryAllowNonIdempotent(true).
func (c *Client) SetRetryCount(count int) *Client { panic("stub") }

// RetryWaitTime method returns the minimum wait time between retry attempts.
func (c *Client) RetryWaitTime() time.Duration { panic("stub") }

// SetRetryWaitTime method sets the minimum wait time between retry attempts.
// Default 100ms (jittered).
func (c *Client) SetRetryWaitTime(waitTime time.Duration) *Client { panic("stub") }

// RetryMaxWaitTime method returns the maximum wait time between retry attempts.
func (c *Client) RetryMaxWaitTime() time.Duration { panic("stub") }

// SetRetryMaxWaitTime method sets the maximum wait time between retry attempts.
// Default 2s.
func (c *Client) SetRetryMaxWaitTime(maxWaitTime time.Duration) *Client { panic("stub") }

// RetryDelayStrategy method returns the custom retry delay strategy function, or nil if none is set.
func (c *Client) RetryDelayStrategy() RetryDelayStrategyFunc { panic("stub") }

// SetRetryDelayStrategy method sets a custom [RetryDelayStrategyFunc] that determines the wait time before each retry attempt.
func (c *Client) SetRetryDelayStrategy(rs RetryDelayStrategyFunc) *Client { panic("stub") }

// IsRetryDefaultConditions method reports whether the default retry conditions are enabled.
func (c *Client) IsRetryDefaultConditions() bool { panic("stub") }

// SetRetryDefaultConditions method enables or disables the built-in retry conditions, which check for transport, header, and URL errors.
func (c *Client) SetRetryDefaultConditions(b bool) *Client { panic("stub") }

// IsRetryAllowNonIdempotent method reports whether retry is allowed for non-idempotent HTTP methods.
func (c *Client) IsRetryAllowNonIdempotent() bool { panic("stub") }

// SetRetryAllowNonIdempotent method enables or disables retry for non-idempotent HTTP methods.
// Default false: POST/PATCH/CONNECT are not retried.
func (c *Client) SetRetryAllowNonIdempotent(b bool) *Client { panic("stub") }

// RetryConditions method returns all the retry condition functions.
func (c *Client) RetryConditions() []RetryConditionFunc { panic("stub") }

// AddRetryConditions method adds one or more retry condition functions to the client.
func (c *Client) AddRetryConditions(conditions ...RetryConditionFunc) *Client { panic("stub") }

// RetryHooks method returns all the retry hook functions.
func (c *Client) RetryHooks() []RetryHookFunc { panic("stub") }

// AddRetryHooks method appends one or more retry hook functions to the client; each hook is called on every retry attempt.
func (c *Client) AddRetryHooks(hooks ...RetryHookFunc) *Client { panic("stub") }

// Hedging method returns the [Hedger] implementation set on the client, or nil if hedging is disabled.
func (c *Client) Hedging() Hedger { panic("stub") }

// SetHedging method sets the [Hedger] implementation on the client.
func (c *Client) SetHedging(h Hedger) *Client { panic("stub") }

// TLSClientConfig method returns the [tls.Config] from the underlying transport, or nil if the transport does not expose TLS configuration.
func (c *Client) TLSClientConfig() *tls.Config { panic("stub") }

// SetTLSClientConfig method sets TLSClientConfig for underlying client Transport.
func (c *Client) SetTLSClientConfig(tlsConfig *tls.Config) *Client { panic("stub") }

// ProxyURL method returns the proxy URL if set otherwise nil.
func (c *Client) ProxyURL() *url.URL { panic("stub") }

// SetProxy method sets the proxy URL on the client.
func (c *Client) SetProxy(proxyURL string) *Client { panic("stub") }

// RemoveProxy method removes the proxy configuration from the Resty client
func (c *Client) RemoveProxy() *Client { panic("stub") }

// SetCertificateFromFile method sets client certificates into Resty from cert and key files to perform SSL client authentication.
func (c *Client) SetCertificateFromFile(certFilePath, certKeyFilePath string) *Client { panic("stub") }

// SetCertificateFromString method sets client certificates into Resty from strings to perform SSL client authentication.
func (c *Client) SetCertificateFromString(certStr, certKeyStr string) *Client { panic("stub") }

// SetCertificates method sets one or more client certificates into Resty for SSL client authentication.
func (c *Client) SetCertificates(certs ...tls.Certificate) *Client { panic("stub") }

// SetRootCertificates method helps to add one or more root certificate files into the Resty client
func (c *Client) SetRootCertificates(pemFilePaths ...string) *Client { panic("stub") }

// SetRootCertificatesWatcher method enables dynamic reloading of one or more root certificate files.
func (c *Client) SetRootCertificatesWatcher(options *CertWatcherOptions, pemFilePaths ...string) *Client {
	panic("stub")
}

// SetRootCertificateFromString method helps to add root certificate from the string into the Resty client
func (c *Client) SetRootCertificateFromString(pemCerts string) *Client { panic("stub") }

// SetClientRootCertificates method helps to add one or more client root certificate files into the Resty client
func (c *Client) SetClientRootCertificates(pemFilePaths ...string) *Client { panic("stub") }

// SetClientRootCertificatesWatcher method enables dynamic reloading of one or more client root certificate files.
func (c *Client) SetClientRootCertificatesWatcher(options *CertWatcherOptions, pemFilePaths ...string) *Client {
	panic("stub")
}

// SetClientRootCertificateFromString method helps to add a client root certificate from the string into the Resty client
func (c *Client) SetClientRootCertificateFromString(pemCerts string) *Client { panic("stub") }

// ResponseSaveDirectory method returns the output directory value from the client.
func (c *Client) ResponseSaveDirectory() string { panic("stub") }

// SetResponseSaveDirectory method sets the output directory for saving HTTP responses to file.
func (c *Client) SetResponseSaveDirectory(dirPath string) *Client { panic("stub") }

// IsResponseSaveToFile method returns true if saving responses to file is enabled; otherwise false.
func (c *Client) IsResponseSaveToFile() bool { panic("stub") }

// SetResponseSaveToFile method enables or disables saving responses to file for all requests.
func (c *Client) SetResponseSaveToFile(save bool) *Client { panic("stub") }

// HTTPTransport method returns the underlying [http.Transport], or [ErrNotHttpTransportType] if the transport is not of that type.
func (c *Client) HTTPTransport() (*http.Transport, error) { panic("stub") }

// Transport method returns the underlying [http.RoundTripper] used by the client.
func (c *Client) Transport() http.RoundTripper { panic("stub") }

// SetTransport method sets custom [http.Transport] or any [http.RoundTripper] compatible interface implementation in the Resty client.
func (c *Client) SetTransport(transport http.RoundTripper) *Client { panic("stub") }

// Scheme method returns the URL scheme set on the client.
func (c *Client) Scheme() string { panic("stub") }

// SetScheme method sets the URL scheme used by the client when no scheme is present in the request URL.
func (c *Client) SetScheme(scheme string) *Client { panic("stub") }

// SetCloseConnection method sets the [http.Request].Close field on each request, instructing the transport to close the connection after the response.
func (c *Client) SetCloseConnection(close bool) *Client { panic("stub") }

// SetResponseDoNotParse method instructs Resty not to parse the response body automatically.
func (c *Client) SetResponseDoNotParse(notParse bool) *Client { panic("stub") }

// PathParams method returns the path parameters set on the client.
func (c *Client) PathParams() map[string]string { panic("stub") }

// SetPathParam method sets a single URL path key-value pair in the Resty client instance.
func (c *Client) SetPathParam(param, value string) *Client { panic("stub") }

// SetPathParamAny method sets a single URL path key-value pair in the Resty client instance.
func (c *Client) SetPathParamAny(param string, value any) *Client { panic("stub") }

// SetPathParams method sets multiple URL path key-value pairs at one go in the Resty client instance.
func (c *Client) SetPathParams(params map[string]string) *Client { panic("stub") }

// SetPathRawParam method sets a single URL path key-value pair in the Resty client instance without path escape.
func (c *Client) SetPathRawParam(param, value string) *Client { panic("stub") }

// SetPathRawParamAny method sets a single URL path key-value pair in the Resty client instance without path escape.
func (c *Client) SetPathRawParamAny(param string, value any) *Client { panic("stub") }

// SetPathRawParams method sets multiple URL path key-value pairs at one go in the Resty client instance without path escape.
func (c *Client) SetPathRawParams(params map[string]string) *Client { panic("stub") }

// SetJSONEscapeHTML method enables or disables the HTML escape on JSON marshal.
func (c *Client) SetJSONEscapeHTML(b bool) *Client { panic("stub") }

// ResponseBodyLimit method returns the value max body size limit in bytes from the client instance.
func (c *Client) ResponseBodyLimit() int64 { panic("stub") }

// SetResponseBodyLimit method sets a maximum body size limit in bytes on responses to avoid reading too much data into memory.
func (c *Client) SetResponseBodyLimit(v int64) *Client { panic("stub") }

// IsTrace method returns true if the trace is enabled on the client instance; otherwise, it returns false.
func (c *Client) IsTrace() bool { panic("stub") }

// SetTrace method is used to turn on/off the trace capability in the Resty client instance.
func (c *Client) SetTrace(t bool) *Client { panic("stub") }

// SetCurlCmdGenerate method is used to turn on/off the generate curl command at the client instance level.
func (c *Client) SetCurlCmdGenerate(b bool) *Client { panic("stub") }

// SetCurlCmdDebugLog method enables the curl command to be logged in the debug log.
func (c *Client) SetCurlCmdDebugLog(b bool) *Client { panic("stub") }

// SetQueryParamsUnescape method sets the choice of unescape query parameters for the request URL.
func (c *Client) SetQueryParamsUnescape(unescape bool) *Client { panic("stub") }

// ResponseBodyUnlimitedReads method returns true if enabled.
func (c *Client) ResponseBodyUnlimitedReads() bool { panic("stub") }

// SetResponseBodyUnlimitedReads method enables or disables in-memory buffering of the response body, allowing unlimited reads.
func (c *Client) SetResponseBodyUnlimitedReads(b bool) *Client { panic("stub") }

// IsProxySet method returns true if a proxy URL has been explicitly set on the client; otherwise false.
func (c *Client) IsProxySet() bool { panic("stub") }

// Client method returns the underlying [http.Client].
func (c *Client) Client() *http.Client { panic("stub") }

// Clone method returns a clone of the original client.
func (c *Client) Clone(ctx context.Context) *Client { panic("stub") }

// Close method executes all registered [CloseHook] callbacks and releases client resources.
func (c *Client) Close() error { panic("stub") }

// ResponseError pairs an error with the [Response] that triggered it.
type ResponseError struct {
	Response *Response
	Err      error
}

func (e *ResponseError) Error() string { panic("stub") }

func (e *ResponseError) Unwrap() error { panic("stub") }

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

// DebugLogFormatter formats a [DebugLog] as a human-readable multi-line string.
func DebugLogFormatter(dl *DebugLog) string { panic("stub") }

// DebugLogJSONFormatter formats a [DebugLog] as a JSON string.
func DebugLogJSONFormatter(dl *DebugLog) string { panic("stub") }

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

// NewHedging creates a new [Hedging] instance with default configuration.
func NewHedging() *Hedging { panic("stub") }

// Hedging implements [Hedger] and [http.RoundTripper] to perform hedged HTTP requests.
type Hedging struct {
}

// SetTransport sets the underlying HTTP transport that [Hedging] delegates individual requests to.
func (h *Hedging) SetTransport(t http.RoundTripper) {}

// Transport returns the underlying HTTP transport.
func (h *Hedging) Transport() http.RoundTripper { panic("stub") }

// Delay method returns the delay between hedged requests.
func (h *Hedging) Delay() time.Duration { panic("stub") }

// SetDelay method sets the delay between hedged requests.
func (h *Hedging) SetDelay(delay time.Duration) *Hedging { panic("stub") }

// MaxRequest method returns the maximum number of concurrent hedged requests.
func (h *Hedging) MaxRequest() int { panic("stub") }

// SetMaxRequest method sets the maximum number of concurrent hedged requests.
func (h *Hedging) SetMaxRequest(count int) *Hedging { panic("stub") }

// MaxRequestPerSecond method returns the maximum number of hedged requests allowed per second.
func (h *Hedging) MaxRequestPerSecond() float64 { panic("stub") }

// SetMaxRequestPerSecond method sets the maximum number of hedged requests allowed per second.
func (h *Hedging) SetMaxRequestPerSecond(count float64) *Hedging { panic("stub") }

// IsNonReadOnlyAllowed method reports whether hedging is enabled for non-read-only HTTP methods.
func (h *Hedging) IsNonReadOnlyAllowed() bool { panic("stub") }

// SetNonReadOnlyAllowed method allows hedging for non-read-only HTTP methods.
func (h *Hedging) SetNonReadOnlyAllowed(allow bool) *Hedging { panic("stub") }

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

// NewRoundRobin creates a Round-Robin (RR) load balancer with the given base URLs.
func NewRoundRobin(baseURLs ...string) (*RoundRobin, error) { panic("stub") }

// RoundRobin implements the Round-Robin (RR) load-balancing algorithm.
type RoundRobin struct {
}

// NextWithContext returns the next base URL using the Round-Robin (RR) algorithm and supports context cancellation.
func (rr *RoundRobin) NextWithContext(ctx context.Context) (string, error) { panic("stub") }

// Feedback is a no-op for the Round-Robin (RR) load balancer.
func (rr *RoundRobin) Feedback(_ *RequestFeedback) {}

// Close is a no-op for the Round-Robin (RR) load balancer.
func (rr *RoundRobin) Close() error { panic("stub") }

// Refresh method replaces the existing base URL list with the given base URLs.
func (rr *RoundRobin) Refresh(baseURLs ...string) error { panic("stub") }

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

// NewWeightedRoundRobin creates a Weighted Round-Robin (WRR) load balancer with the given recovery duration and hosts.
func NewWeightedRoundRobin(recovery time.Duration, hosts ...*Host) (*WeightedRoundRobin, error) {
	panic("stub")
}

// WeightedRoundRobin implements the Weighted Round-Robin (WRR) load-balancing algorithm.
type WeightedRoundRobin struct {
}

// NextWithContext returns the next base URL using the Weighted Round-Robin (WRR) algorithm and supports context cancellation.
func (wrr *WeightedRoundRobin) NextWithContext(ctx context.Context) (string, error) { panic("stub") }

// Feedback method processes a request outcome report for the Weighted Round-Robin(WRR) load balancer.
func (wrr *WeightedRoundRobin) Feedback(f *RequestFeedback) {}

// Close stops the internal recovery ticker used by the Weighted Round-Robin (WRR) load balancer.
func (wrr *WeightedRoundRobin) Close() error { panic("stub") }

// Refresh method replaces the existing host list with the given [Host] slice.
func (wrr *WeightedRoundRobin) Refresh(hosts ...*Host) error { panic("stub") }

// SetOnStateChange sets a callback for host state transitions.
func (wrr *WeightedRoundRobin) SetOnStateChange(fn HostStateChangeFunc) {}

// SetRecoveryDuration updates the host recovery interval used by the WRR ticker.
func (wrr *WeightedRoundRobin) SetRecoveryDuration(d time.Duration) {}

// NewSRVWeightedRoundRobin creates an SRV-backed Weighted Round-Robin (WRR) load balancer.
func NewSRVWeightedRoundRobin(service, proto, domainName, httpScheme string) (*SRVWeightedRoundRobin, error) {
	panic("stub")
}

// SRVWeightedRoundRobin implements an SRV-backed Weighted Round-Robin (WRR) load balancer.
type SRVWeightedRoundRobin struct {
	Service    string
	Proto      string
	DomainName string
	HttpScheme string
}

// NextWithContext returns the next SRV-derived base URL using the underlying Weighted Round-Robin (WRR) algorithm.
func (swrr *SRVWeightedRoundRobin) NextWithContext(ctx context.Context) (string, error) {
	panic("stub")
}

// Feedback forwards request feedback to the underlying WRR load balancer.
func (swrr *SRVWeightedRoundRobin) Feedback(f *RequestFeedback) {}

// Close stops the SRV refresh ticker and closes the underlying WRR load balancer.
func (swrr *SRVWeightedRoundRobin) Close() error { panic("stub") }

// Refresh resolves SRV records and replaces the underlying WRR host list.
func (swrr *SRVWeightedRoundRobin) Refresh() error { panic("stub") }

// SetRefreshDuration changes the SRV refresh interval (default: 180 seconds).
func (swrr *SRVWeightedRoundRobin) SetRefreshDuration(d time.Duration) {}

// SetOnStateChange sets a callback for host state transitions.
func (swrr *SRVWeightedRoundRobin) SetOnStateChange(fn HostStateChangeFunc) {}

// SetRecoveryDuration updates the host recovery interval used by the underlying WRR balancer.
func (swrr *SRVWeightedRoundRobin) SetRecoveryDuration(d time.Duration) {}

// ---- middleware.go

// MiddlewareRequestCreate prepares the HTTP request from the user-provided [Request] values.
func MiddlewareRequestCreate(c *Client, r *Request) (err error) { panic("stub") }

// MiddlewareResponseAutoParse parses the response body automatically using the Content-Type decoder registered via [Client.AddContentTypeDecoder].
func MiddlewareResponseAutoParse(c *Client, res *Response) (err error) { panic("stub") }

// MiddlewareResponseSaveToFile writes the HTTP response body to a file.
func MiddlewareResponseSaveToFile(c *Client, res *Response) error { panic("stub") }

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

// NewRateLimitTokenBucket creates a new token-bucket [RateLimiter] that permits at most requests per second with a burst capacity of burst tokens.
func NewRateLimitTokenBucket(requestsPerSecond float64, burst int) *RateLimitTokenBucket {
	panic("stub")
}

// RateLimitTokenBucket is a token-bucket based implementation of [RateLimiter].
type RateLimitTokenBucket struct {
}

// Rate method returns the token refill rate in requests per second.
func (l *RateLimitTokenBucket) Rate() float64 { panic("stub") }

// Burst method returns the maximum burst capacity (maximum token count).
func (l *RateLimitTokenBucket) Burst() int { panic("stub") }

// Allow blocks until the rate limiter grants a token or the context is done.
func (l *RateLimitTokenBucket) Allow(ctx context.Context) error { panic("stub") }

// NewRateLimitSlidingWindow creates a new sliding-window [RateLimiter] that allows at most limit requests within any rolling window of windowSize duration.
func NewRateLimitSlidingWindow(limit int, windowSize time.Duration) *RateLimitSlidingWindow {
	panic("stub")
}

// RateLimitSlidingWindow is a sliding-window based implementation of [RateLimiter].
type RateLimitSlidingWindow struct {
}

// Limit returns the maximum number of requests allowed per window.
func (l *RateLimitSlidingWindow) Limit() int { panic("stub") }

// WindowSize returns the duration of the sliding window.
func (l *RateLimitSlidingWindow) WindowSize() time.Duration { panic("stub") }

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

// Apply calls f(req, via).
func (f RedirectPolicyFunc) Apply(req *http.Request, via []*http.Request) error { panic("stub") }

// RedirectNoPolicy disables all redirects in the Resty client.
func RedirectNoPolicy() RedirectPolicy { panic("stub") }

// RedirectFlexiblePolicy creates a [RedirectPolicy] that allows up to noOfRedirect redirects.
func RedirectFlexiblePolicy(noOfRedirect int) RedirectPolicy { panic("stub") }

// RedirectDomainCheckPolicy creates a [RedirectPolicy] that only allows redirects to the specified hostnames.
func RedirectDomainCheckPolicy(hostnames ...string) RedirectPolicy { panic("stub") }

// RedirectHeaderStripSensitivePolicy creates a [RedirectPolicy] that removes selected headers from redirected requests.
func RedirectHeaderStripSensitivePolicy(applyDefault bool, headers ...string) RedirectPolicy {
	panic("stub")
}

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

// SetCorrelationID method is used to set the correlation ID for the request
func (r *Request) SetCorrelationID(id string) *Request { panic("stub") }

// SetMethod method used to set the HTTP verb for the request
func (r *Request) SetMethod(m string) *Request { panic("stub") }

// SetURL method used to set the request URL for the request
func (r *Request) SetURL(url string) *Request { panic("stub") }

// Context method returns the request's [context.Context].
func (r *Request) Context() context.Context { panic("stub") }

// SetContext method sets the [context.Context] for the current [Request].
func (r *Request) SetContext(ctx context.Context) *Request { panic("stub") }

// WithContext method returns a shallow copy of r with its context changed to ctx.
func (r *Request) WithContext(ctx context.Context) *Request { panic("stub") }

// SetContentType method is a convenient way to set the header Content-Type in the request
func (r *Request) SetContentType(ct string) *Request { panic("stub") }

// SetHeader method sets a single header field and its value in the current request.
func (r *Request) SetHeader(header, value string) *Request { panic("stub") }

// SetHeaderAny method sets a single header field and its value in the current request.
func (r *Request) SetHeaderAny(header string, value any) *Request { panic("stub") }

// SetHeaders method sets multiple header fields and their values at one go in the current request.
func (r *Request) SetHeaders(headers map[string]string) *Request { panic("stub") }

// SetHeaderMultiValues sets multiple header fields and their values as a list of strings in the current request.
func (r *Request) SetHeaderMultiValues(headers map[string][]string) *Request { panic("stub") }

// SetHeaderVerbatim method is used to set the HTTP header key and value verbatim in the current request.
func (r *Request) SetHeaderVerbatim(header, value string) *Request { panic("stub") }

// SetHeaderVerbatimAny method sets the HTTP header key and value verbatim in the current request.
func (r *Request) SetHeaderVerbatimAny(header string, value any) *Request { panic("stub") }

// SetQueryParam method sets a single parameter and its value in the current request.
func (r *Request) SetQueryParam(param, value string) *Request { panic("stub") }

// SetQueryParamAny method sets a single query parameter and its value in the current request.
func (r *Request) SetQueryParamAny(param string, value any) *Request { panic("stub") }

// SetQueryParams method sets multiple parameters and their values at one go in the current request.
func (r *Request) SetQueryParams(params map[string]string) *Request { panic("stub") }

// SetQueryParamsFromValues method appends multiple parameters with multi-value ([url.Values]) at one go in the current request.
func (r *Request) SetQueryParamsFromValues(params url.Values) *Request { panic("stub") }

// SetQueryString method provides the ability to use string as an input to set URL query string for the request.
func (r *Request) SetQueryString(query string) *Request { panic("stub") }

// SetFormData method sets form parameters and their values in the current request.
func (r *Request) SetFormData(data map[string]string) *Request { panic("stub") }

// SetFormDataFromValues method appends multiple form parameters with multi-value ([url.Values]) at one go in the current request.
func (r *Request) SetFormDataFromValues(data url.Values) *Request { panic("stub") }

// SetBody method sets the request body for the request.
func (r *Request) SetBody(body any) *Request { panic("stub") }

// SetResult method registers the response `Result` object type for automatic unmarshalling of the HTTP response if the response status code is between 200 and ...
func (r *Request) SetResult(v any) *Request { panic("stub") }

// SetResultError method registers the response `ResultError` object type for automatic unmarshalling for the request, if the response status code is greater th...
func (r *Request) SetResultError(err any) *Request { panic("stub") }

// SetFile method sets a single file field name and its path for multipart upload.
func (r *Request) SetFile(fieldName, filePath string) *Request { panic("stub") }

// SetFiles method sets multiple file field names and their paths for multipart uploads.
func (r *Request) SetFiles(files map[string]string) *Request { panic("stub") }

// SetFileReader method is to set a file using [io.Reader] for multipart upload.
func (r *Request) SetFileReader(fieldName, fileName string, reader io.Reader) *Request { panic("stub") }

// SetMultipartFormData method sets simple form fields on the request and sends them as multipart/form-data.
func (r *Request) SetMultipartFormData(data map[string]string) *Request { panic("stub") }

// SetMultipartOrderedFormData method appends ordered multipart/form-data values for the same field name.
func (r *Request) SetMultipartOrderedFormData(name string, values []string) *Request { panic("stub") }

// SetMultipartField method sets custom data with Content-Type using [io.Reader] for multipart upload.
func (r *Request) SetMultipartField(fieldName, fileName, contentType string, reader io.Reader) *Request {
	panic("stub")
}

// SetMultipartFields method sets multiple data fields using [io.Reader] for multipart upload.
func (r *Request) SetMultipartFields(fields ...*MultipartField) *Request { panic("stub") }

// SetMultipartBoundary method sets the custom multipart boundary for the multipart request.
func (r *Request) SetMultipartBoundary(boundary string) *Request { panic("stub") }

// SetContentLength method sets the given content length value in the HTTP request.
func (r *Request) SetContentLength(v int64) *Request { panic("stub") }

// SetBasicAuth method sets the basic authentication header in the current HTTP request.
func (r *Request) SetBasicAuth(username, password string) *Request { panic("stub") }

// SetAuthToken method sets the auth token header(Default Scheme: Bearer) in the current HTTP request.
func (r *Request) SetAuthToken(authToken string) *Request { panic("stub") }

// SetAuthScheme method sets the auth token scheme type in the HTTP request.
func (r *Request) SetAuthScheme(scheme string) *Request { panic("stub") }

// SetHeaderAuthorizationKey method sets the given HTTP header name for Authorization in the request.
func (r *Request) SetHeaderAuthorizationKey(k string) *Request { panic("stub") }

// SetResponseSaveFileName method sets the output file for the current HTTP request.
func (r *Request) SetResponseSaveFileName(file string) *Request { panic("stub") }

// SetResponseSaveToFile method used to enable the save response option for the current requests
func (r *Request) SetResponseSaveToFile(save bool) *Request { panic("stub") }

// SetCloseConnection method sets variable `Close` in HTTP request struct with the given value.
func (r *Request) SetCloseConnection(close bool) *Request { panic("stub") }

// SetResponseDoNotParse method instructs Resty not to parse the response body automatically.
func (r *Request) SetResponseDoNotParse(notParse bool) *Request { panic("stub") }

// SetResponseBodyLimit method sets a maximum body size limit in bytes on response, avoid reading too much data to memory.
func (r *Request) SetResponseBodyLimit(v int64) *Request { panic("stub") }

// SetResponseBodyUnlimitedReads method is to turn on/off the response body in memory that provides an ability to do unlimited reads.
func (r *Request) SetResponseBodyUnlimitedReads(b bool) *Request { panic("stub") }

// SetPathParam method sets a single URL path key-value pair in the Resty current request instance.
func (r *Request) SetPathParam(param, value string) *Request { panic("stub") }

// SetPathParamAny method sets a single URL path key-value pair in the current request instance.
func (r *Request) SetPathParamAny(param string, value any) *Request { panic("stub") }

// SetPathParams method sets multiple URL path key-value pairs at one go in the Resty current request instance.
func (r *Request) SetPathParams(params map[string]string) *Request { panic("stub") }

// SetPathRawParam method sets a single URL path key-value pair in the Resty current request instance without path escape.
func (r *Request) SetPathRawParam(param, value string) *Request { panic("stub") }

// SetPathRawParamAny method sets a single URL path key-value pair in the current request instance without path escape.
func (r *Request) SetPathRawParamAny(param string, value any) *Request { panic("stub") }

// SetPathRawParams method sets multiple URL path key-value pairs at one go in the Resty current request instance without path escape.
func (r *Request) SetPathRawParams(params map[string]string) *Request { panic("stub") }

// SetResponseExpectContentType method allows to provide fallback `Content-Type` for automatic unmarshalling when the `Content-Type` response header is unavaila...
func (r *Request) SetResponseExpectContentType(contentType string) *Request { panic("stub") }

// SetResponseForceContentType method provides a strong sense of response `Content-Type` for automatic unmarshalling.
func (r *Request) SetResponseForceContentType(contentType string) *Request { panic("stub") }

// SetJSONEscapeHTML method enables or disables the HTML escape on JSON marshal.
func (r *Request) SetJSONEscapeHTML(b bool) *Request { panic("stub") }

// SetCookie method appends a single cookie in the current request instance.
func (r *Request) SetCookie(hc *http.Cookie) *Request { panic("stub") }

// SetCookies method sets an array of cookies in the current request instance.
func (r *Request) SetCookies(rs []*http.Cookie) *Request { panic("stub") }

// SetTimeout method is used to set a timeout for the current request
func (r *Request) SetTimeout(timeout time.Duration) *Request { panic("stub") }

// SetLogger method sets the [Logger] used for request and response logging.
func (r *Request) SetLogger(l Logger) *Request { panic("stub") }

// SetDebug method enables the debug mode on the current request.
func (r *Request) SetDebug(d bool) *Request { panic("stub") }

// AddRetryConditions method adds one or more retry condition functions into the request.
func (r *Request) AddRetryConditions(conditions ...RetryConditionFunc) *Request { panic("stub") }

// SetRetryConditions method overwrites the retry conditions in the request.
func (r *Request) SetRetryConditions(conditions ...RetryConditionFunc) *Request { panic("stub") }

// AddRetryHooks method adds one or more side-effecting retry hooks in the request.
func (r *Request) AddRetryHooks(hooks ...RetryHookFunc) *Request { panic("stub") }

// SetRetryHooks method overwrites side-effecting retry hooks in the request.
func (r *Request) SetRetryHooks(hooks ...RetryHookFunc) *Request { panic("stub") }

// SetRetryCount method enables retry on Resty client and allows you to set the retry count.
func (r *Request) SetRetryCount(count int) *Request { panic("stub") }

// SetRetryWaitTime method sets the default wait time for sleep before retrying
func (r *Request) SetRetryWaitTime(waitTime time.Duration) *Request { panic("stub") }

// SetRetryMaxWaitTime method sets the max wait time for sleep before retrying
func (r *Request) SetRetryMaxWaitTime(maxWaitTime time.Duration) *Request { panic("stub") }

// SetRetryDelayStrategy method used to set the custom Retry delay strategy on request, it is used to get wait time before each retry.
func (r *Request) SetRetryDelayStrategy(rs RetryDelayStrategyFunc) *Request { panic("stub") }

// SetRetryDefaultConditions method is used to enable/disable the Resty's default retry conditions on request level, that checks transport, headers and URL errors.
func (r *Request) SetRetryDefaultConditions(b bool) *Request { panic("stub") }

// SetRetryAllowNonIdempotent method is used to enable/disable non-idempotent HTTP methods retry.
func (r *Request) SetRetryAllowNonIdempotent(b bool) *Request { panic("stub") }

// SetTrace method is used to turn on/off the trace capability at the request level.
func (r *Request) SetTrace(t bool) *Request { panic("stub") }

// SetCurlCmdGenerate method is used to turn on/off the generate curl command for the current request.
func (r *Request) SetCurlCmdGenerate(b bool) *Request { panic("stub") }

// SetCurlCmdDebugLog method enables the curl command to be logged in the debug log for the current request.
func (r *Request) SetCurlCmdDebugLog(b bool) *Request { panic("stub") }

// CurlCmd method generates the curl command for the request.
func (r *Request) CurlCmd() string { panic("stub") }

// SetQueryParamsUnescape method sets the choice of unescape query parameters for the request URL.
func (r *Request) SetQueryParamsUnescape(unescape bool) *Request { panic("stub") }

// SetMethodGetAllowPayload method allows the GET method with payload on the request level.
func (r *Request) SetMethodGetAllowPayload(allow bool) *Request { panic("stub") }

// SetMethodDeleteAllowPayload method allows the DELETE method with payload on the request level.
func (r *Request) SetMethodDeleteAllowPayload(allow bool) *Request { panic("stub") }

// SetLabel method sets the label for the request, which can be used for logging and debugging purposes.
func (r *Request) SetLabel(label string) *Request { panic("stub") }

// TraceInfo method returns trace information for the request.
func (r *Request) TraceInfo() TraceInfo { panic("stub") }

// Get method does GET HTTP request.
func (r *Request) Get(url string) (*Response, error) { panic("stub") }

// Head method does HEAD HTTP request.
func (r *Request) Head(url string) (*Response, error) { panic("stub") }

// Post method does POST HTTP request.
func (r *Request) Post(url string) (*Response, error) { panic("stub") }

// Put method does PUT HTTP request.
func (r *Request) Put(url string) (*Response, error) { panic("stub") }

// Patch method does PATCH HTTP request.
func (r *Request) Patch(url string) (*Response, error) { panic("stub") }

// Delete method does DELETE HTTP request.
func (r *Request) Delete(url string) (*Response, error) { panic("stub") }

// Options method does OPTIONS HTTP request.
func (r *Request) Options(url string) (*Response, error) { panic("stub") }

// Trace method does TRACE HTTP request.
func (r *Request) Trace(url string) (*Response, error) { panic("stub") }

// Query method does QUERY HTTP request.
func (r *Request) Query(url string) (*Response, error) { panic("stub") }

// Send method performs the HTTP request using the method and URL already defined for current [Request].
func (r *Request) Send() (*Response, error) { panic("stub") }

// Execute method performs the HTTP request with the given HTTP method and URL for current [Request].
func (r *Request) Execute(method, url string) (res *Response, err error) { panic("stub") }

// Clone returns a deep copy of r with its context changed to ctx.
func (r *Request) Clone(ctx context.Context) *Request { panic("stub") }

// Funcs method gets executed on request composition that passes the current request instance to provided [RequestFunc], which could be used to apply common/reu...
func (r *Request) Funcs(funcs ...RequestFunc) *Request { panic("stub") }

// ---- response.go

// Response holds response values for an executed request.
type Response struct {
	Request     *Request
	Body        io.ReadCloser
	RawResponse *http.Response
	IsRead      bool

	CascadeError error
}

// Status method returns the HTTP status string for the executed request.
func (r *Response) Status() string { panic("stub") }

// StatusCode method returns the HTTP status code for the executed request.
func (r *Response) StatusCode() int { panic("stub") }

// Proto method returns the HTTP response protocol used for the request.
func (r *Response) Proto() string { panic("stub") }

// Result method returns the unmarshalled result response object if it exists, otherwise nil.
func (r *Response) Result() any { panic("stub") }

// ResultError method returns the unmarshalled result error object if it exists, otherwise nil.
func (r *Response) ResultError() any { panic("stub") }

// Header method returns the response headers.
func (r *Response) Header() http.Header { panic("stub") }

// Cookies method returns all response cookies.
func (r *Response) Cookies() []*http.Cookie { panic("stub") }

// String method returns the body of the HTTP response as a `string`.
func (r *Response) String() string { panic("stub") }

// Bytes method returns the body of the HTTP response as a byte slice.
func (r *Response) Bytes() []byte { panic("stub") }

// Duration method returns the end-to-end duration from request start to response completion.
func (r *Response) Duration() time.Duration { panic("stub") }

// ReceivedAt method returns the time we received a response from the server for the request.
func (r *Response) ReceivedAt() time.Time { panic("stub") }

// Size method returns the HTTP response size in bytes.
func (r *Response) Size() int64 { panic("stub") }

// IsStatusSuccess method returns true if HTTP status `code >= 200 and <= 299` otherwise false.
func (r *Response) IsStatusSuccess() bool { panic("stub") }

// IsStatusFailure method returns true if HTTP status `code >= 400` otherwise false.
func (r *Response) IsStatusFailure() bool { panic("stub") }

// RedirectHistory method returns redirect history entries with URL and status code.
func (r *Response) RedirectHistory() []*RedirectInfo { panic("stub") }

// ---- resty.go

// Version is the current Resty library version string.
const Version = "3.0.0-rc.4"

// New creates a new Resty client.
func New() *Client { panic("stub") }

// NewWithTransportSettings creates a new Resty client with the provided [TransportSettings].
func NewWithTransportSettings(transportSettings *TransportSettings) *Client { panic("stub") }

// NewWithClient creates a new Resty client with the given [http.Client].
func NewWithClient(hc *http.Client) *Client { panic("stub") }

// NewWithDialer creates a new Resty client with the given [net.Dialer].
func NewWithDialer(dialer *net.Dialer) *Client { panic("stub") }

// NewWithLocalAddr creates a new Resty client with the given local address.
func NewWithLocalAddr(localAddr net.Addr) *Client { panic("stub") }

// NewWithDialerAndTransportSettings creates a new Resty client with the given [net.Dialer] and [TransportSettings].
func NewWithDialerAndTransportSettings(dialer *net.Dialer, transportSettings *TransportSettings) *Client {
	panic("stub")
}

// ---- retry.go

type (
	RetryConditionFunc func(*Response, error) bool

	RetryHookFunc func(*Response, error)

	RetryDelayStrategyFunc func(*Response, error) (time.Duration, error)
)

// RetryConstantDelayStrategy returns a [RetryDelayStrategyFunc] that always returns the specified delay duration.
func RetryConstantDelayStrategy(delay time.Duration) RetryDelayStrategyFunc { panic("stub") }

// RetryConditionStatusTooManyRequests is a RetryConditionFunc that returns true if the response status code is 429 Too Many Requests.
func RetryConditionStatusTooManyRequests(res *Response, _ error) bool { panic("stub") }

// RetryConditionStatus5XX is a [RetryConditionFunc] that returns true when the response status code is 500 or above, excluding 501 (Not Implemented).
func RetryConditionStatus5XX(res *Response, _ error) bool { panic("stub") }

// RetryConditionStatusZero is a [RetryConditionFunc] that returns true if the response status code is 0.
func RetryConditionStatusZero(res *Response, _ error) bool { panic("stub") }

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

// NewSSESource creates a new [SSESource] with default SSE settings.
func NewSSESource() *SSESource { panic("stub") }

// SetURL method sets the event-source URL on the [SSESource] instance.
func (sse *SSESource) SetURL(url string) *SSESource { panic("stub") }

// SetMethod method sets the HTTP method used for the [SSESource] connection.
func (sse *SSESource) SetMethod(method string) *SSESource { panic("stub") }

// SetHeader method sets a header and its value on the [SSESource] instance.
func (sse *SSESource) SetHeader(header, value string) *SSESource { panic("stub") }

// Context method returns the [context.Context] from the SSE source instance.
func (sse *SSESource) Context() context.Context { panic("stub") }

// SetContext method sets the [context.Context] for the current [SSESource].
func (sse *SSESource) SetContext(ctx context.Context) *SSESource { panic("stub") }

// SetBody method sets the request body for the [SSESource] connection.
func (sse *SSESource) SetBody(body io.Reader) *SSESource { panic("stub") }

// TLSClientConfig method returns the [tls.Config] from the underlying client transport, or nil when unavailable.
func (sse *SSESource) TLSClientConfig() *tls.Config { panic("stub") }

// SetTLSClientConfig method sets TLS configuration on the underlying client transport.
func (sse *SSESource) SetTLSClientConfig(tlsConfig *tls.Config) *SSESource { panic("stub") }

// SetTransport method sets custom [http.Transport] or any [http.RoundTripper] on the underlying client transport.
func (sse *SSESource) SetTransport(transport http.RoundTripper) *SSESource { panic("stub") }

// AddHeader method appends a header value on the [SSESource] instance.
func (sse *SSESource) AddHeader(header, value string) *SSESource { panic("stub") }

// SetRetryCount method sets the retry count used while establishing an SSE connection with the server.
func (sse *SSESource) SetRetryCount(count int) *SSESource { panic("stub") }

// SetRetryWaitTime method sets the default wait time before retrying the connection request.
func (sse *SSESource) SetRetryWaitTime(waitTime time.Duration) *SSESource { panic("stub") }

// SetRetryMaxWaitTime method sets the maximum wait time before retrying the connection request.
func (sse *SSESource) SetRetryMaxWaitTime(maxWaitTime time.Duration) *SSESource { panic("stub") }

// SetSizeMaxBuffer method sets the maximum scanner buffer size for the SSE client.
func (sse *SSESource) SetSizeMaxBuffer(bufSize int) *SSESource { panic("stub") }

// Logger method returns the logger instance used by the event source instance.
func (sse *SSESource) Logger() Logger { panic("stub") }

// SetLogger method sets the [Logger] used by the SSE client.
func (sse *SSESource) SetLogger(l Logger) *SSESource { panic("stub") }

// OnOpen registers a callback that is triggered when a connection is established with the server.
func (sse *SSESource) OnOpen(ef SSEOpenFunc) *SSESource { panic("stub") }

// OnError registers a callback that is triggered when an error occurs.
func (sse *SSESource) OnError(ef SSEErrorFunc) *SSESource { panic("stub") }

// OnRequestFailure registers a callback that is triggered when the HTTP request fails while establishing an SSE connection.
func (sse *SSESource) OnRequestFailure(ef SSERequestFailureFunc) *SSESource { panic("stub") }

// OnMessage method registers a callback to emit every SSE event message from the server.
func (sse *SSESource) OnMessage(ef SSEMessageFunc, result any) *SSESource { panic("stub") }

// AddEventListener method registers a callback to consume messages for a specific event type from the server.
func (sse *SSESource) AddEventListener(eventName string, ef SSEMessageFunc, result any) *SSESource {
	panic("stub")
}

// Get method establishes the connection with the server.
func (sse *SSESource) Get() error { panic("stub") }

// Close method closes the SSE connection explicitly.
func (sse *SSESource) Close() {}

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
