// Package resty is a test stub of github.com/go-resty/resty/v2@v2.17.2: signatures only.
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

// ---- client.go

const (
	MethodGet = "GET"

	MethodPost = "POST"

	MethodPut = "PUT"

	MethodDelete = "DELETE"

	MethodPatch = "PATCH"

	MethodHead = "HEAD"

	MethodOptions = "OPTIONS"
)

type (
	RequestMiddleware func(*Client, *Request) error

	ResponseMiddleware func(*Client, *Response) error

	PreRequestHook func(*Client, *http.Request) error

	RequestLogCallback func(*RequestLog) error

	ResponseLogCallback func(*ResponseLog) error

	ErrorHook func(*Request, error)

	SuccessHook func(*Client, *Response)
)

// Client struct is used to create a Resty client with client-level settings, these settings apply to all the requests raised from the client.
type Client struct {
	BaseURL               string
	HostURL               string
	QueryParam            url.Values
	FormData              url.Values
	PathParams            map[string]string
	RawPathParams         map[string]string
	Header                http.Header
	UserInfo              *User
	Token                 string
	AuthScheme            string
	Cookies               []*http.Cookie
	Error                 reflect.Type
	Debug                 bool
	DisableWarn           bool
	AllowGetMethodPayload bool
	RetryCount            int
	RetryWaitTime         time.Duration
	RetryMaxWaitTime      time.Duration
	RetryConditions       []RetryConditionFunc
	RetryHooks            []OnRetryFunc
	RetryAfter            RetryAfterFunc
	RetryResetReaders     bool
	JSONMarshal           func(v interface{}) ([]byte, error)
	JSONUnmarshal         func(data []byte, v interface{}) error
	XMLMarshal            func(v interface{}) ([]byte, error)
	XMLUnmarshal          func(data []byte, v interface{}) error

	HeaderAuthorizationKey string
	ResponseBodyLimit      int
}

// User type is to hold an username and password information
type User struct {
	Username, Password string
}

// SetHostURL method sets the Host URL in the client instance.
//
// Deprecated: see upstream.
func (c *Client) SetHostURL(url string) *Client { panic("stub") }

// SetBaseURL method sets the Base URL in the client instance.
func (c *Client) SetBaseURL(url string) *Client { panic("stub") }

// SetHeader method sets a single header field and its value in the client instance.
func (c *Client) SetHeader(header, value string) *Client { panic("stub") }

// SetHeaders method sets multiple header fields and their values at one go in the client instance.
func (c *Client) SetHeaders(headers map[string]string) *Client { panic("stub") }

// SetHeaderVerbatim method sets a single header field and its value verbatim in the current request.
func (c *Client) SetHeaderVerbatim(header, value string) *Client { panic("stub") }

// SetCookieJar method sets custom [http.CookieJar] in the resty client.
func (c *Client) SetCookieJar(jar http.CookieJar) *Client { panic("stub") }

// SetCookie method appends a single cookie to the client instance.
func (c *Client) SetCookie(hc *http.Cookie) *Client { panic("stub") }

// SetCookies method sets an array of cookies in the client instance.
func (c *Client) SetCookies(cs []*http.Cookie) *Client { panic("stub") }

// SetQueryParam method sets a single parameter and its value in the client instance.
func (c *Client) SetQueryParam(param, value string) *Client { panic("stub") }

// SetQueryParams method sets multiple parameters and their values at one go in the client instance.
func (c *Client) SetQueryParams(params map[string]string) *Client { panic("stub") }

// SetUnescapeQueryParams method sets the unescape query parameters choice for request URL.
func (c *Client) SetUnescapeQueryParams(unescape bool) *Client { panic("stub") }

// SetFormData method sets Form parameters and their values in the client instance.
func (c *Client) SetFormData(data map[string]string) *Client { panic("stub") }

// SetBasicAuth method sets the basic authentication header in the HTTP request.
func (c *Client) SetBasicAuth(username, password string) *Client { panic("stub") }

// SetAuthToken method sets the auth token of the `Authorization` header for all HTTP requests.
func (c *Client) SetAuthToken(token string) *Client { panic("stub") }

// SetAuthScheme method sets the auth scheme type in the HTTP request.
func (c *Client) SetAuthScheme(scheme string) *Client { panic("stub") }

// SetDigestAuth method sets the Digest Access auth scheme for the client.
func (c *Client) SetDigestAuth(username, password string) *Client { panic("stub") }

// R method creates a new request instance; it's used for Get, Post, Put, Delete, Patch, Head, Options, etc.
func (c *Client) R() *Request { panic("stub") }

// NewRequest method is an alias for method `R()`.
func (c *Client) NewRequest() *Request { panic("stub") }

// OnBeforeRequest method appends a request middleware to the before request chain.
func (c *Client) OnBeforeRequest(m RequestMiddleware) *Client { panic("stub") }

// OnAfterResponse method appends response middleware to the after-response chain.
func (c *Client) OnAfterResponse(m ResponseMiddleware) *Client { panic("stub") }

// OnError method adds a callback that will be run whenever a request execution fails.
func (c *Client) OnError(h ErrorHook) *Client { panic("stub") }

// OnSuccess method adds a callback that will be run whenever a request execution succeeds.
func (c *Client) OnSuccess(h SuccessHook) *Client { panic("stub") }

// OnInvalid method adds a callback that will be run whenever a request execution fails before it starts because the request is invalid.
func (c *Client) OnInvalid(h ErrorHook) *Client { panic("stub") }

// OnPanic method adds a callback that will be run whenever a request execution panics.
func (c *Client) OnPanic(h ErrorHook) *Client { panic("stub") }

// SetPreRequestHook method sets the given pre-request function into a resty client.
func (c *Client) SetPreRequestHook(h PreRequestHook) *Client { panic("stub") }

// SetDebug method enables the debug mode on the Resty client.
func (c *Client) SetDebug(d bool) *Client { panic("stub") }

// SetDebugBodyLimit sets the maximum size in bytes for which the response and request body will be logged in debug mode.
func (c *Client) SetDebugBodyLimit(sl int64) *Client { panic("stub") }

// OnRequestLog method sets the request log callback to Resty.
func (c *Client) OnRequestLog(rl RequestLogCallback) *Client { panic("stub") }

// OnResponseLog method sets the response log callback to Resty.
func (c *Client) OnResponseLog(rl ResponseLogCallback) *Client { panic("stub") }

// SetDisableWarn method disables the warning log message on the Resty client.
func (c *Client) SetDisableWarn(d bool) *Client { panic("stub") }

// SetAllowGetMethodPayload method allows the GET method with payload on the Resty client.
func (c *Client) SetAllowGetMethodPayload(a bool) *Client { panic("stub") }

// SetLogger method sets given writer for logging Resty request and response details.
func (c *Client) SetLogger(l Logger) *Client { panic("stub") }

// SetContentLength method enables the HTTP header `Content-Length` value for every request.
func (c *Client) SetContentLength(l bool) *Client { panic("stub") }

// SetTimeout method sets the timeout for a request raised by the client.
func (c *Client) SetTimeout(timeout time.Duration) *Client { panic("stub") }

// SetError method registers the global or client common `Error` object into Resty.
func (c *Client) SetError(err interface{}) *Client { panic("stub") }

// SetRedirectPolicy method sets the redirect policy for the client.
func (c *Client) SetRedirectPolicy(policies ...interface{}) *Client { panic("stub") }

// SetRetryCount method enables retry on Resty client and allows you to set no.
// count is retries; client default 0 = no retry. Once >0, transport errors are retried for every method, POST included.
func (c *Client) SetRetryCount(count int) *Client { panic("stub") }

// SetRetryWaitTime method sets the default wait time for sleep before retrying request.
// Default 100ms; delays are always jittered.
func (c *Client) SetRetryWaitTime(waitTime time.Duration) *Client { panic("stub") }

// SetRetryMaxWaitTime method sets the max wait time for sleep before retrying request.
// Default 2s.
func (c *Client) SetRetryMaxWaitTime(maxWaitTime time.Duration) *Client { panic("stub") }

// SetRetryAfter sets a callback to calculate the wait time between retries.
func (c *Client) SetRetryAfter(callback RetryAfterFunc) *Client { panic("stub") }

// SetJSONMarshaler method sets the JSON marshaler function to marshal the request body.
func (c *Client) SetJSONMarshaler(marshaler func(v interface{}) ([]byte, error)) *Client {
	panic("stub")
}

// SetJSONUnmarshaler method sets the JSON unmarshaler function to unmarshal the response body.
func (c *Client) SetJSONUnmarshaler(unmarshaler func(data []byte, v interface{}) error) *Client {
	panic("stub")
}

// SetXMLMarshaler method sets the XML marshaler function to marshal the request body.
func (c *Client) SetXMLMarshaler(marshaler func(v interface{}) ([]byte, error)) *Client {
	panic("stub")
}

// SetXMLUnmarshaler method sets the XML unmarshaler function to unmarshal the response body.
func (c *Client) SetXMLUnmarshaler(unmarshaler func(data []byte, v interface{}) error) *Client {
	panic("stub")
}

// AddRetryCondition method adds a retry condition function to an array of functions that are checked to determine if the request is retried.
// 5xx is not retried by default; adding any condition replaces the default "err != nil" rule.
func (c *Client) AddRetryCondition(condition RetryConditionFunc) *Client { panic("stub") }

// AddRetryAfterErrorCondition adds the basic condition of retrying after encountering an error from the HTTP response
func (c *Client) AddRetryAfterErrorCondition() *Client { panic("stub") }

// AddRetryHook adds a side-effecting retry hook to an array of hooks that will be executed on each retry.
func (c *Client) AddRetryHook(hook OnRetryFunc) *Client { panic("stub") }

// SetRetryResetReaders method enables the Resty client to seek the start of all file readers are given as multipart files if the object implements [io.ReadSeek...
func (c *Client) SetRetryResetReaders(b bool) *Client { panic("stub") }

// SetTLSClientConfig method sets TLSClientConfig for underlying client Transport.
func (c *Client) SetTLSClientConfig(config *tls.Config) *Client { panic("stub") }

// SetProxy method sets the Proxy URL and Port for the Resty client.
func (c *Client) SetProxy(proxyURL string) *Client { panic("stub") }

// RemoveProxy method removes the proxy configuration from the Resty client
func (c *Client) RemoveProxy() *Client { panic("stub") }

// SetCertificates method helps to conveniently set client certificates into Resty.
func (c *Client) SetCertificates(certs ...tls.Certificate) *Client { panic("stub") }

// SetRootCertificate method helps to add one or more root certificates into the Resty client
func (c *Client) SetRootCertificate(pemFilePath string) *Client { panic("stub") }

// SetRootCertificateFromString method helps to add one or more root certificates into the Resty client
func (c *Client) SetRootCertificateFromString(pemCerts string) *Client { panic("stub") }

// SetClientRootCertificate method helps to add one or more client's root certificates into the Resty client
func (c *Client) SetClientRootCertificate(pemFilePath string) *Client { panic("stub") }

// SetClientRootCertificateFromString method helps to add one or more clients root certificates into the Resty client
func (c *Client) SetClientRootCertificateFromString(pemCerts string) *Client { panic("stub") }

// SetOutputDirectory method sets the output directory for saving HTTP responses in a file.
func (c *Client) SetOutputDirectory(dirPath string) *Client { panic("stub") }

// SetRateLimiter sets an optional [RateLimiter].
func (c *Client) SetRateLimiter(rl RateLimiter) *Client { panic("stub") }

// SetTransport method sets custom [http.Transport] or any [http.RoundTripper] compatible interface implementation in the Resty client.
func (c *Client) SetTransport(transport http.RoundTripper) *Client { panic("stub") }

// SetScheme method sets a custom scheme for the Resty client.
func (c *Client) SetScheme(scheme string) *Client { panic("stub") }

// SetCloseConnection method sets variable `Close` in HTTP request struct with the given value.
func (c *Client) SetCloseConnection(close bool) *Client { panic("stub") }

// SetDoNotParseResponse method instructs Resty not to parse the response body automatically.
func (c *Client) SetDoNotParseResponse(notParse bool) *Client { panic("stub") }

// SetPathParam method sets a single URL path key-value pair in the Resty client instance.
func (c *Client) SetPathParam(param, value string) *Client { panic("stub") }

// SetPathParams method sets multiple URL path key-value pairs at one go in the Resty client instance.
func (c *Client) SetPathParams(params map[string]string) *Client { panic("stub") }

// SetRawPathParam method sets a single URL path key-value pair in the Resty client instance.
func (c *Client) SetRawPathParam(param, value string) *Client { panic("stub") }

// SetRawPathParams method sets multiple URL path key-value pairs at one go in the Resty client instance.
func (c *Client) SetRawPathParams(params map[string]string) *Client { panic("stub") }

// SetJSONEscapeHTML method enables or disables the HTML escape on JSON marshal.
func (c *Client) SetJSONEscapeHTML(b bool) *Client { panic("stub") }

// SetResponseBodyLimit method sets a maximum body size limit in bytes on response, avoid reading too much data to memory.
func (c *Client) SetResponseBodyLimit(v int) *Client { panic("stub") }

// EnableTrace method enables the Resty client trace for the requests fired from the client using [httptrace.ClientTrace] and provides insights.
func (c *Client) EnableTrace() *Client { panic("stub") }

// DisableTrace method disables the Resty client trace.
func (c *Client) DisableTrace() *Client { panic("stub") }

// EnableGenerateCurlOnDebug method enables the generation of CURL commands in the debug log.
func (c *Client) EnableGenerateCurlOnDebug() *Client { panic("stub") }

// DisableGenerateCurlOnDebug method disables the option set by [Client.EnableGenerateCurlOnDebug].
func (c *Client) DisableGenerateCurlOnDebug() *Client { panic("stub") }

// IsProxySet method returns the true is proxy is set from the Resty client; otherwise false.
func (c *Client) IsProxySet() bool { panic("stub") }

// GetClient method returns the underlying [http.Client] used by the Resty.
func (c *Client) GetClient() *http.Client { panic("stub") }

// Clone returns a clone of the original client.
func (c *Client) Clone() *Client { panic("stub") }

var ErrResponseBodyTooLarge = errors.New("resty: response body too large")

// Transport method returns [http.Transport] currently in use or error in case the currently used `transport` is not a [http.Transport].
func (c *Client) Transport() (*http.Transport, error) { panic("stub") }

// ResponseError is a wrapper that includes the server response with an error.
type ResponseError struct {
	Response *Response
	Err      error
}

func (e *ResponseError) Error() string { panic("stub") }

func (e *ResponseError) Unwrap() error { panic("stub") }

// File struct represents file information for multipart request
type File struct {
	Name      string
	ParamName string
	io.Reader
}

// String method returns the string value of current file details
func (f *File) String() string { panic("stub") }

// MultipartField struct represents the custom data part for a multipart request
type MultipartField struct {
	Param       string
	FileName    string
	ContentType string
	io.Reader
}

// ---- digest.go

var (
	ErrDigestBadChallenge    = errors.New("digest: challenge is bad")
	ErrDigestCharset         = errors.New("digest: unsupported charset")
	ErrDigestAlgNotSupported = errors.New("digest: algorithm is not supported")
	ErrDigestQopNotSupported = errors.New("digest: no supported qop in list")
	ErrDigestNoQop           = errors.New("digest: qop must be specified")
)

// ---- redirect.go

var ErrAutoRedirectDisabled = errors.New("auto redirect is disabled")

type (
	RedirectPolicy interface {
		Apply(req *http.Request, via []*http.Request) error
	}

	RedirectPolicyFunc func(*http.Request, []*http.Request) error
)

// Apply calls f(req, via).
func (f RedirectPolicyFunc) Apply(req *http.Request, via []*http.Request) error { panic("stub") }

// NoRedirectPolicy is used to disable redirects in the Resty client
func NoRedirectPolicy() RedirectPolicy { panic("stub") }

// FlexibleRedirectPolicy method is convenient for creating several redirect policies for Resty clients.
func FlexibleRedirectPolicy(noOfRedirect int) RedirectPolicy { panic("stub") }

// DomainCheckRedirectPolicy method is convenient for defining domain name redirect rules in Resty clients.
func DomainCheckRedirectPolicy(hostnames ...string) RedirectPolicy { panic("stub") }

// ---- request.go

// Request struct is used to compose and fire individual requests from Resty client.
type Request struct {
	URL           string
	Method        string
	Token         string
	AuthScheme    string
	QueryParam    url.Values
	FormData      url.Values
	PathParams    map[string]string
	RawPathParams map[string]string
	Header        http.Header
	Time          time.Time
	Body          interface {
	}
	Result interface {
	}

	Error interface {
	}
	RawRequest *http.Request
	SRV        *SRVRecord
	UserInfo   *User
	Cookies    []*http.Cookie
	Debug      bool

	Attempt int
}

// GenerateCurlCommand method generates the CURL command for the request.
func (r *Request) GenerateCurlCommand() string { panic("stub") }

// Context method returns the Context if it is already set in the [Request] otherwise, it creates a new one using [context.Background].
func (r *Request) Context() context.Context { panic("stub") }

// SetContext method sets the [context.Context] for current [Request].
func (r *Request) SetContext(ctx context.Context) *Request { panic("stub") }

// SetHeader method sets a single header field and its value in the current request.
func (r *Request) SetHeader(header, value string) *Request { panic("stub") }

// SetHeaders method sets multiple header fields and their values at one go in the current request.
func (r *Request) SetHeaders(headers map[string]string) *Request { panic("stub") }

// SetHeaderMultiValues sets multiple header fields and their values as a list of strings in the current request.
func (r *Request) SetHeaderMultiValues(headers map[string][]string) *Request { panic("stub") }

// SetHeaderVerbatim method sets a single header field and its value verbatim in the current request.
func (r *Request) SetHeaderVerbatim(header, value string) *Request { panic("stub") }

// SetQueryParam method sets a single parameter and its value in the current request.
func (r *Request) SetQueryParam(param, value string) *Request { panic("stub") }

// SetQueryParams method sets multiple parameters and their values at one go in the current request.
func (r *Request) SetQueryParams(params map[string]string) *Request { panic("stub") }

// SetUnescapeQueryParams method sets the unescape query parameters choice for request URL.
func (r *Request) SetUnescapeQueryParams(unescape bool) *Request { panic("stub") }

// SetQueryParamsFromValues method appends multiple parameters with multi-value ([url.Values]) at one go in the current request.
func (r *Request) SetQueryParamsFromValues(params url.Values) *Request { panic("stub") }

// SetQueryString method provides the ability to use string as an input to set URL query string for the request.
func (r *Request) SetQueryString(query string) *Request { panic("stub") }

// SetFormData method sets Form parameters and their values for the current request.
func (r *Request) SetFormData(data map[string]string) *Request { panic("stub") }

// SetFormDataFromValues method appends multiple form parameters with multi-value ([url.Values]) at one go in the current request.
func (r *Request) SetFormDataFromValues(data url.Values) *Request { panic("stub") }

// SetBody method sets the request body for the request.
func (r *Request) SetBody(body interface{}) *Request { panic("stub") }

// SetResult method is to register the response `Result` object for automatic unmarshalling of the HTTP response if the response status code is between 200 and ...
func (r *Request) SetResult(res interface{}) *Request { panic("stub") }

// SetError method is to register the request `Error` object for automatic unmarshalling for the request, if the response status code is greater than 399 and th...
func (r *Request) SetError(err interface{}) *Request { panic("stub") }

// SetFile method sets a single file field name and its path for multipart upload.
func (r *Request) SetFile(param, filePath string) *Request { panic("stub") }

// SetFiles method sets multiple file field names and their paths for multipart uploads.
func (r *Request) SetFiles(files map[string]string) *Request { panic("stub") }

// SetFileReader method is to set a file using [io.Reader] for multipart upload.
func (r *Request) SetFileReader(param, fileName string, reader io.Reader) *Request { panic("stub") }

// SetMultipartFormData method allows simple form data to be attached to the request as `multipart:form-data`
func (r *Request) SetMultipartFormData(data map[string]string) *Request { panic("stub") }

// SetMultipartField method sets custom data with Content-Type using [io.Reader] for multipart upload.
func (r *Request) SetMultipartField(param, fileName, contentType string, reader io.Reader) *Request {
	panic("stub")
}

// SetMultipartFields method sets multiple data fields using [io.Reader] for multipart upload.
func (r *Request) SetMultipartFields(fields ...*MultipartField) *Request { panic("stub") }

// SetMultipartBoundary method sets the custom multipart boundary for the multipart request.
func (r *Request) SetMultipartBoundary(boundary string) *Request { panic("stub") }

// SetContentLength method sets the current request's HTTP header `Content-Length` value.
func (r *Request) SetContentLength(l bool) *Request { panic("stub") }

// SetBasicAuth method sets the basic authentication header in the current HTTP request.
func (r *Request) SetBasicAuth(username, password string) *Request { panic("stub") }

// SetAuthToken method sets the auth token header(Default Scheme: Bearer) in the current HTTP request.
func (r *Request) SetAuthToken(token string) *Request { panic("stub") }

// SetAuthScheme method sets the auth token scheme type in the HTTP request.
func (r *Request) SetAuthScheme(scheme string) *Request { panic("stub") }

// SetDigestAuth method sets the Digest Access auth scheme for the HTTP request.
func (r *Request) SetDigestAuth(username, password string) *Request { panic("stub") }

// SetOutput method sets the output file for the current HTTP request.
func (r *Request) SetOutput(file string) *Request { panic("stub") }

// SetSRV method sets the details to query the service SRV record and execute the request.
func (r *Request) SetSRV(srv *SRVRecord) *Request { panic("stub") }

// SetDoNotParseResponse method instructs Resty not to parse the response body automatically.
func (r *Request) SetDoNotParseResponse(parse bool) *Request { panic("stub") }

// SetResponseBodyLimit method sets a maximum body size limit in bytes on response, avoid reading too much data to memory.
func (r *Request) SetResponseBodyLimit(v int) *Request { panic("stub") }

// SetPathParam method sets a single URL path key-value pair in the Resty current request instance.
func (r *Request) SetPathParam(param, value string) *Request { panic("stub") }

// SetPathParams method sets multiple URL path key-value pairs at one go in the Resty current request instance.
func (r *Request) SetPathParams(params map[string]string) *Request { panic("stub") }

// SetRawPathParam method sets a single URL path key-value pair in the Resty current request instance.
func (r *Request) SetRawPathParam(param, value string) *Request { panic("stub") }

// SetRawPathParams method sets multiple URL path key-value pairs at one go in the Resty current request instance.
func (r *Request) SetRawPathParams(params map[string]string) *Request { panic("stub") }

// ExpectContentType method allows to provide fallback `Content-Type` for automatic unmarshalling when the `Content-Type` response header is unavailable.
func (r *Request) ExpectContentType(contentType string) *Request { panic("stub") }

// ForceContentType method provides a strong sense of response `Content-Type` for automatic unmarshalling.
func (r *Request) ForceContentType(contentType string) *Request { panic("stub") }

// SetJSONEscapeHTML method enables or disables the HTML escape on JSON marshal.
func (r *Request) SetJSONEscapeHTML(b bool) *Request { panic("stub") }

// SetCookie method appends a single cookie in the current request instance.
func (r *Request) SetCookie(hc *http.Cookie) *Request { panic("stub") }

// SetCookies method sets an array of cookies in the current request instance.
func (r *Request) SetCookies(rs []*http.Cookie) *Request { panic("stub") }

// SetLogger method sets given writer for logging Resty request and response details.
func (r *Request) SetLogger(l Logger) *Request { panic("stub") }

// SetDebug method enables the debug mode on the current request.
func (r *Request) SetDebug(d bool) *Request { panic("stub") }

// AddRetryCondition method adds a retry condition function to the request's array of functions is checked to determine if the request can be retried.
func (r *Request) AddRetryCondition(condition RetryConditionFunc) *Request { panic("stub") }

// EnableTrace method enables trace for the current request using [httptrace.ClientTrace] and provides insights.
func (r *Request) EnableTrace() *Request { panic("stub") }

// EnableGenerateCurlOnDebug method enables the generation of CURL commands in the debug log.
func (r *Request) EnableGenerateCurlOnDebug() *Request { panic("stub") }

// DisableGenerateCurlOnDebug method disables the option set by [Request.EnableGenerateCurlOnDebug].
func (r *Request) DisableGenerateCurlOnDebug() *Request { panic("stub") }

// TraceInfo method returns the trace info for the request.
func (r *Request) TraceInfo() TraceInfo { panic("stub") }

// Get method does GET HTTP request.
func (r *Request) Get(url string) (*Response, error) { panic("stub") }

// Head method does HEAD HTTP request.
func (r *Request) Head(url string) (*Response, error) { panic("stub") }

// Post method does POST HTTP request.
func (r *Request) Post(url string) (*Response, error) { panic("stub") }

// Put method does PUT HTTP request.
func (r *Request) Put(url string) (*Response, error) { panic("stub") }

// Delete method does DELETE HTTP request.
func (r *Request) Delete(url string) (*Response, error) { panic("stub") }

// Options method does OPTIONS HTTP request.
func (r *Request) Options(url string) (*Response, error) { panic("stub") }

// Patch method does PATCH HTTP request.
func (r *Request) Patch(url string) (*Response, error) { panic("stub") }

// Send method performs the HTTP request using the method and URL already defined for current [Request].
func (r *Request) Send() (*Response, error) { panic("stub") }

// Execute method performs the HTTP request with the given HTTP method and URL for current [Request].
func (r *Request) Execute(method, url string) (*Response, error) { panic("stub") }

// SRVRecord struct holds the data to query the SRV record for the following service.
type SRVRecord struct {
	Service string
	Domain  string
}

// ---- response.go

// Response struct holds response values of executed requests.
type Response struct {
	Request     *Request
	RawResponse *http.Response
}

// Body method returns the HTTP response as `[]byte` slice for the executed request.
func (r *Response) Body() []byte { panic("stub") }

// SetBody method sets [Response] body in byte slice.
func (r *Response) SetBody(b []byte) *Response { panic("stub") }

// Status method returns the HTTP status string for the executed request.
func (r *Response) Status() string { panic("stub") }

// StatusCode method returns the HTTP status code for the executed request.
func (r *Response) StatusCode() int { panic("stub") }

// Proto method returns the HTTP response protocol used for the request.
func (r *Response) Proto() string { panic("stub") }

// Result method returns the response value as an object if it has one
func (r *Response) Result() interface{} { panic("stub") }

// Error method returns the error object if it has one
func (r *Response) Error() interface{} { panic("stub") }

// Header method returns the response headers
func (r *Response) Header() http.Header { panic("stub") }

// Cookies method to returns all the response cookies
func (r *Response) Cookies() []*http.Cookie { panic("stub") }

// String method returns the body of the HTTP response as a `string`.
func (r *Response) String() string { panic("stub") }

// Time method returns the duration of HTTP response time from the request we sent and received a request.
func (r *Response) Time() time.Duration { panic("stub") }

// ReceivedAt method returns the time we received a response from the server for the request.
func (r *Response) ReceivedAt() time.Time { panic("stub") }

// Size method returns the HTTP response size in bytes.
func (r *Response) Size() int64 { panic("stub") }

// RawBody method exposes the HTTP raw response body.
func (r *Response) RawBody() io.ReadCloser { panic("stub") }

// IsSuccess method returns true if HTTP status `code >= 200 and <= 299` otherwise false.
func (r *Response) IsSuccess() bool { panic("stub") }

// IsError method returns true if HTTP status `code >= 400` otherwise false.
func (r *Response) IsError() bool { panic("stub") }

// ---- resty.go

// Version # of resty
const Version = "2.17.2"

// New method creates a new Resty client.
func New() *Client { panic("stub") }

// NewWithClient method creates a new Resty client with given [http.Client].
func NewWithClient(hc *http.Client) *Client { panic("stub") }

// NewWithLocalAddr method creates a new Resty client with the given Local Address.
func NewWithLocalAddr(localAddr net.Addr) *Client { panic("stub") }

// ---- retry.go

type (
	Option func(*Options)

	RetryConditionFunc func(*Response, error) bool

	OnRetryFunc func(*Response, error)

	RetryAfterFunc func(*Client, *Response) (time.Duration, error)

	Options struct {
	}
)

// Retries sets the max number of retries
func Retries(value int) Option { panic("stub") }

// WaitTime sets the default wait time to sleep between requests
func WaitTime(value time.Duration) Option { panic("stub") }

// MaxWaitTime sets the max wait time to sleep between requests
func MaxWaitTime(value time.Duration) Option { panic("stub") }

// RetryConditions sets the conditions that will be checked for retry
func RetryConditions(conditions []RetryConditionFunc) Option { panic("stub") }

// RetryHooks sets the hooks that will be executed after each retry
func RetryHooks(hooks []OnRetryFunc) Option { panic("stub") }

// ResetMultipartReaders sets a boolean value which will lead the start being seeked out on all multipart file readers if they implement [io.ReadSeeker]
func ResetMultipartReaders(value bool) Option { panic("stub") }

// Backoff retries with increasing timeout duration up until X amount of retries (Default is 3 attempts, Override with option Retries(n))
func Backoff(operation func() (*Response, error), options ...Option) error { panic("stub") }

// ---- trace.go

// TraceInfo struct is used to provide request trace info such as DNS lookup duration, Connection obtain duration, Server processing duration, etc.
type TraceInfo struct {
	DNSLookup time.Duration

	ConnTime time.Duration

	TCPConnTime time.Duration

	TLSHandshake time.Duration

	ServerTime time.Duration

	ResponseTime time.Duration

	TotalTime time.Duration

	IsConnReused bool

	IsConnWasIdle bool

	ConnIdleTime time.Duration

	RequestAttempt int

	RemoteAddr net.Addr
}

// ---- util.go

// Logger interface is to abstract the logging from Resty.
type Logger interface {
	Errorf(format string, v ...interface{})
	Warnf(format string, v ...interface{})
	Debugf(format string, v ...interface{})
}

type RateLimiter interface {
	Allow() bool
}

var ErrRateLimitExceeded = errors.New("rate limit exceeded")

// IsStringEmpty method tells whether given string is empty or not
func IsStringEmpty(str string) bool { panic("stub") }

// DetectContentType method is used to figure out `Request.Body` content type for request header
func DetectContentType(body interface{}) string { panic("stub") }

// IsJSONType method is to check JSON content type or not
func IsJSONType(ct string) bool { panic("stub") }

// IsXMLType method is to check XML content type or not
func IsXMLType(ct string) bool { panic("stub") }

// Unmarshalc content into object from JSON or XML
func Unmarshalc(c *Client, ct string, b []byte, d interface{}) (err error) { panic("stub") }

// RequestLog struct is used to collected information from resty request instance for debug logging.
type RequestLog struct {
	Header http.Header
	Body   string
}

// ResponseLog struct is used to collected information from resty response instance for debug logging.
type ResponseLog struct {
	Header http.Header
	Body   string
}
