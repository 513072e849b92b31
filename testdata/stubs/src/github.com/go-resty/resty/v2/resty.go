// Package resty is a test stub of github.com/go-resty/resty/v2@v2.17.2: signatures only.
// It keeps every type, and the functions, methods and constants that the
// test packages importing resty or the checks' tables name; the rest are
// left out.
package resty

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"reflect"
	"time"
)

// ---- client.go

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

// R method creates a new request instance; it's used for Get, Post, Put, Delete, Patch, Head, Options, etc.
func (c *Client) R() *Request { panic("stub") }

// NewRequest method is an alias for method `R()`.
func (c *Client) NewRequest() *Request { panic("stub") }

// OnError method adds a callback that will be run whenever a request execution fails.
func (c *Client) OnError(h ErrorHook) *Client { panic("stub") }

// SetRetryCount method enables retry on Resty client and allows you to set no.
// count is retries; client default 0 = no retry. Once >0, transport errors are retried for every method, POST included.
func (c *Client) SetRetryCount(count int) *Client { panic("stub") }

// AddRetryCondition method adds a retry condition function to an array of functions that are checked to determine if the request is retried.
// 5xx is not retried by default; adding any condition replaces the default "err != nil" rule.
func (c *Client) AddRetryCondition(condition RetryConditionFunc) *Client { panic("stub") }

// AddRetryAfterErrorCondition adds the basic condition of retrying after encountering an error from the HTTP response
func (c *Client) AddRetryAfterErrorCondition() *Client { panic("stub") }

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

// ---- redirect.go

var ErrAutoRedirectDisabled = errors.New("auto redirect is disabled")

type (
	RedirectPolicy interface {
		Apply(req *http.Request, via []*http.Request) error
	}

	RedirectPolicyFunc func(*http.Request, []*http.Request) error
)

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

// Context method returns the Context if it is already set in the [Request] otherwise, it creates a new one using [context.Background].
func (r *Request) Context() context.Context { panic("stub") }

// AddRetryCondition method adds a retry condition function to the request's array of functions is checked to determine if the request can be retried.
func (r *Request) AddRetryCondition(condition RetryConditionFunc) *Request { panic("stub") }

// Get method does GET HTTP request.
func (r *Request) Get(url string) (*Response, error) { panic("stub") }

// Head method does HEAD HTTP request.
func (r *Request) Head(url string) (*Response, error) { panic("stub") }

// Post method does POST HTTP request.
func (r *Request) Post(url string) (*Response, error) { panic("stub") }

// Options method does OPTIONS HTTP request.
func (r *Request) Options(url string) (*Response, error) { panic("stub") }

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

// StatusCode method returns the HTTP status code for the executed request.
func (r *Response) StatusCode() int { panic("stub") }

// Error method returns the error object if it has one
func (r *Response) Error() interface{} { panic("stub") }

// Header method returns the response headers
func (r *Response) Header() http.Header { panic("stub") }

// String method returns the body of the HTTP response as a `string`.
func (r *Response) String() string { panic("stub") }

// Time method returns the duration of HTTP response time from the request we sent and received a request.
func (r *Response) Time() time.Duration { panic("stub") }

// IsSuccess method returns true if HTTP status `code >= 200 and <= 299` otherwise false.
func (r *Response) IsSuccess() bool { panic("stub") }

// IsError method returns true if HTTP status `code >= 400` otherwise false.
func (r *Response) IsError() bool { panic("stub") }

// ---- resty.go

// Version # of resty
const Version = "2.17.2"

// New method creates a new Resty client.
func New() *Client { panic("stub") }

// ---- retry.go

type (
	Option func(*Options)

	RetryConditionFunc func(*Response, error) bool

	OnRetryFunc func(*Response, error)

	RetryAfterFunc func(*Client, *Response) (time.Duration, error)

	Options struct {
	}
)

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
