// Package stripe is a test stub of github.com/stripe/stripe-go/v85@v85.0.0: signatures only.
//
// Only the surface retry checks need is declared: Params and its idempotency
// setters, BackendConfig, backends, pointer helpers, the stripe.Client with
// V1PaymentIntents, and a subset of the PaymentIntent types (struct fields are
// a subset of the real ones; the ones present have the real types).
//
// Real behaviour that matters: every API call retries internally
// (MaxNetworkRetries, default 2, i.e. 3 attempts, POST included). For
// POST/PUT/PATCH/DELETE with non-nil params and no IdempotencyKey, a fresh
// NewIdempotencyKey() is generated once per API call (stable across Stripe's own
// retries, different on every call; not written back to params).
package stripe

import (
	"bytes"
	"context"
	"io"
	"net/http"
)

// SupportedBackend is an enumeration of supported Stripe endpoints.
type SupportedBackend string

const (
	// APIBackend is a constant representing the API service backend.
	APIBackend SupportedBackend = "api"
	// ConnectBackend is a constant representing the Connect service backend for OAuth.
	ConnectBackend SupportedBackend = "connect"
	// UploadsBackend is a constant representing the uploads service backend.
	UploadsBackend SupportedBackend = "uploads"
	// MeterEventsBackend is a constant representing the meter events service backend.
	MeterEventsBackend SupportedBackend = "meterevents"
)

const (
	// DefaultMaxNetworkRetries is the default maximum number of retries made by a Stripe client.
	DefaultMaxNetworkRetries int64 = 2
)

// Key is the Stripe API key used globally in the binding.
var Key string

// Backend is an interface for making calls against a Stripe service.
type Backend interface {
	Call(method, path, key string, params ParamsContainer, v LastResponseSetter) error
	CallStreaming(method, path, key string, params ParamsContainer, v StreamingLastResponseSetter) error
	CallRaw(method, path, key string, body []byte, params *Params, v LastResponseSetter) error
	CallMultipart(method, path, key, boundary string, body *bytes.Buffer, params *Params, v LastResponseSetter) error
	SetMaxNetworkRetries(maxNetworkRetries int64)
}

// BackendConfig is used to configure a new Stripe backend.
type BackendConfig struct {
	// EnableTelemetry allows request metrics (request id and duration) to be sent to Stripe in subsequent requests via the `X-Stripe-Client-Telemetry` header.
	EnableTelemetry *bool

	// HTTPClient is an HTTP client instance to use when making API requests.
	// If left unset, it'll be set to a default HTTP client for the package
	// (timeout 80s per attempt).
	HTTPClient *http.Client

	// LeveledLogger is the logger that the backend will use to log errors, warnings, and informational messages.
	LeveledLogger interface{}

	// MaxNetworkRetries sets maximum number of times that the library will
	// retry requests that appear to have failed due to an intermittent problem.
	// Defaults to DefaultMaxNetworkRetries (2).
	MaxNetworkRetries *int64

	// URL is the base URL to use for API paths.
	URL *string

	// StripeContext is the default Stripe-Context header value.
	StripeContext *string
}

// Backends are the currently supported endpoints.
type Backends struct {
	API, Connect, Uploads, MeterEvents Backend
}

// GetBackendWithConfig is the same as GetBackend except that it can be given a configuration struct that will configure certain aspects of the backend that's return.
// A nil MaxNetworkRetries becomes DefaultMaxNetworkRetries.
func GetBackendWithConfig(backendType SupportedBackend, config *BackendConfig) Backend {
	panic("stub")
}

// GetBackend returns one of the library's supported backends based off of the given argument.
func GetBackend(backendType SupportedBackend) Backend { panic("stub") }

// SetBackend sets the backend used in the binding.
func SetBackend(backend SupportedBackend, b Backend) {}

// NewBackends creates a new set of backends with the given HTTP client.
func NewBackends(httpClient *http.Client) *Backends { panic("stub") }

// NewBackendsWithConfig creates a new set of backends with the given config for all backends.
func NewBackendsWithConfig(config *BackendConfig) *Backends { panic("stub") }

// Bool returns a pointer to the bool value passed in.
func Bool(v bool) *bool { return &v }

// BoolValue returns the value of the bool pointer passed in or false if the pointer is nil.
func BoolValue(v *bool) bool { return v != nil && *v }

// Float64 returns a pointer to the float64 value passed in.
func Float64(v float64) *float64 { return &v }

// Int64 returns a pointer to the int64 value passed in.
func Int64(v int64) *int64 { return &v }

// Int64Value returns the value of the int64 pointer passed in or 0 if the pointer is nil.
func Int64Value(v *int64) int64 {
	if v == nil {
		return 0
	}
	return *v
}

// String returns a pointer to the string value passed in.
func String[T ~string](v T) *string {
	s := string(v)
	return &s
}

// StringValue returns the value of the string pointer passed in or "" if the pointer is nil.
func StringValue(v *string) string {
	if v == nil {
		return ""
	}
	return *v
}

// StringSlice returns a slice of string pointers given a slice of strings.
func StringSlice(v []string) []*string { panic("stub") }

// ---- params.go

// ExtraValues are extra parameters that are attached to an API request.
type ExtraValues struct{}

// Params is the structure that contains the common properties of any *Params structure.
type Params struct {
	// Context used for request.
	Context context.Context `form:"-" json:"-"`

	// Deprecated: please use Expand in the surrounding struct instead.
	Expand []*string    `form:"expand" json:"-"`
	Extra  *ExtraValues `form:"*"  json:"-"`

	// Headers may be used to provide extra header lines on the HTTP request.
	Headers http.Header `form:"-" json:"-"`

	IdempotencyKey *string `form:"-" json:"-"` // Passed as header

	// Deprecated: Please use Metadata in the surrounding struct instead.
	Metadata map[string]string `form:"metadata" json:"-"`

	// StripeAccount may contain the ID of a connected account.
	StripeAccount *string `form:"-" json:"-"` // Passed as header

	// StripeContext is used to set the Stripe-Context header on a request.
	StripeContext *string `form:"-" json:"-"` // Passed as header
}

// AddExpand appends a new field to expand.
func (p *Params) AddExpand(f string) {}

// AddExtra adds a new arbitrary key-value pair to the request data
func (p *Params) AddExtra(key, value string) {}

// AddMetadata adds a new key-value pair to the Metadata.
func (p *Params) AddMetadata(key, value string) {}

// GetParams returns a Params struct (itself).
func (p *Params) GetParams() *Params { return p }

// SetIdempotencyKey sets a value for the Idempotency-Key header.
func (p *Params) SetIdempotencyKey(val string) { p.IdempotencyKey = &val }

// SetStripeAccount sets a value for the Stripe-Account header.
func (p *Params) SetStripeAccount(val string) { p.StripeAccount = &val }

// SetStripeContext sets a value for the Stripe-Context header.
func (p *Params) SetStripeContext(val string) { p.StripeContext = &val }

// ParamsContainer is a general interface for which all parameter structs should comply.
type ParamsContainer interface {
	GetParams() *Params
}

// NewIdempotencyKey generates a new idempotency key that can be used on a request.
// Real format: "<unix nanos>_<6 base64 chars>".
func NewIdempotencyKey() string { panic("stub") }

// ---- responses

// APIResponse encapsulates some common features of a response from the Stripe API.
type APIResponse struct {
	Header         http.Header
	IdempotencyKey string
	RawJSON        []byte
	RequestID      string
	Status         string
	StatusCode     int
}

// StreamingAPIResponse encapsulates some common features of a response from the Stripe API whose body can be streamed.
type StreamingAPIResponse struct {
	Header         http.Header
	IdempotencyKey string
	Body           io.ReadCloser
	RequestID      string
	Status         string
	StatusCode     int
}

// APIResource is a type assigned to structs that may come from Stripe API endpoints and contains facilities common to all of them.
type APIResource struct {
	LastResponse *APIResponse `json:"-"`
}

// SetLastResponse sets the HTTP response that returned the API resource.
func (r *APIResource) SetLastResponse(response *APIResponse) { r.LastResponse = response }

// LastResponseSetter defines a type that contains an HTTP response from a Stripe API endpoint.
type LastResponseSetter interface {
	SetLastResponse(response *APIResponse)
}

// StreamingLastResponseSetter defines a type that contains an HTTP response from a Stripe API endpoint.
type StreamingLastResponseSetter interface {
	SetLastResponse(response *StreamingAPIResponse)
}

// ---- error.go

// ErrorType is the list of allowed values for the error's type.
type ErrorType string

// ErrorCode is the list of allowed values for the error's code.
type ErrorCode string

// Error is the response returned when a call is unsuccessful (field subset).
type Error struct {
	APIResource

	ChargeID       string    `json:"charge,omitempty"`
	Code           ErrorCode `json:"code,omitempty"`
	DocURL         string    `json:"doc_url,omitempty"`
	Err            error     `json:"-"`
	HTTPStatusCode int       `json:"status,omitempty"`
	Msg            string    `json:"message"`
	Param          string    `json:"param,omitempty"`
	RequestID      string    `json:"request_id,omitempty"`
	Type           ErrorType `json:"type"`
}

// Error serializes the error object to JSON and returns it as a string.
func (e *Error) Error() string { return e.Msg }

// Unwrap returns the wrapped typed error.
func (e *Error) Unwrap() error { return e.Err }

// ---- currency.go, paymentintent.go (subset)

// Currency is the list of supported currencies.
type Currency string

// PaymentIntentStatus is the status of the PaymentIntent (its constants are
// left out: no test uses them).
type PaymentIntentStatus string

// PaymentIntentParams are the legacy-API parameters for a PaymentIntent (field subset).
type PaymentIntentParams struct {
	Params        `form:"*"`
	Amount        *int64            `form:"amount" json:"amount,omitempty"`
	CaptureMethod *string           `form:"capture_method" json:"capture_method,omitempty"`
	ClientSecret  *string           `form:"client_secret" json:"client_secret,omitempty"`
	Confirm       *bool             `form:"confirm" json:"confirm,omitempty"`
	Currency      *string           `form:"currency" json:"currency,omitempty"`
	Customer      *string           `form:"customer" json:"customer,omitempty"`
	Description   *string           `form:"description" json:"description,omitempty"`
	Expand        []*string         `form:"expand" json:"expand,omitempty"`
	Metadata      map[string]string `form:"metadata" json:"metadata,omitempty"`
	PaymentMethod *string           `form:"payment_method" json:"payment_method,omitempty"`
	ReceiptEmail  *string           `form:"receipt_email" json:"receipt_email,omitempty"`
}

// AddExpand appends a new field to expand.
func (p *PaymentIntentParams) AddExpand(f string) {}

// AddMetadata adds a new key-value pair to the Metadata.
func (p *PaymentIntentParams) AddMetadata(key string, value string) {}

// PaymentIntentCreateParams are the parameters for V1PaymentIntents.Create (field subset).
type PaymentIntentCreateParams struct {
	Params   `form:"*"`
	Amount   *int64            `form:"amount" json:"amount"`
	Currency *string           `form:"currency" json:"currency"`
	Customer *string           `form:"customer" json:"customer,omitempty"`
	Metadata map[string]string `form:"metadata" json:"metadata,omitempty"`
}

// AddExpand appends a new field to expand.
func (p *PaymentIntentCreateParams) AddExpand(f string) {}

// AddMetadata adds a new key-value pair to the Metadata.
func (p *PaymentIntentCreateParams) AddMetadata(key string, value string) {}

// PaymentIntentRetrieveParams are the parameters for V1PaymentIntents.Retrieve (field subset).
type PaymentIntentRetrieveParams struct {
	Params       `form:"*"`
	ClientSecret *string   `form:"client_secret" json:"client_secret,omitempty"`
	Expand       []*string `form:"expand" json:"expand,omitempty"`
}

// PaymentIntentConfirmParams are the parameters for V1PaymentIntents.Confirm (field subset).
type PaymentIntentConfirmParams struct {
	Params        `form:"*"`
	Expand        []*string `form:"expand" json:"expand,omitempty"`
	PaymentMethod *string   `form:"payment_method" json:"payment_method,omitempty"`
}

// PaymentIntentCancelParams are the parameters for V1PaymentIntents.Cancel (field subset).
type PaymentIntentCancelParams struct {
	Params             `form:"*"`
	CancellationReason *string   `form:"cancellation_reason" json:"cancellation_reason,omitempty"`
	Expand             []*string `form:"expand" json:"expand,omitempty"`
}

// PaymentIntentCaptureParams are the parameters for V1PaymentIntents.Capture (field subset).
type PaymentIntentCaptureParams struct {
	Params          `form:"*"`
	AmountToCapture *int64    `form:"amount_to_capture" json:"amount_to_capture,omitempty"`
	Expand          []*string `form:"expand" json:"expand,omitempty"`
}

// PaymentIntent is a Stripe PaymentIntent (field subset).
type PaymentIntent struct {
	APIResource
	Amount       int64               `json:"amount"`
	ClientSecret string              `json:"client_secret"`
	Created      int64               `json:"created"`
	Currency     Currency            `json:"currency"`
	Description  string              `json:"description"`
	ID           string              `json:"id"`
	Livemode     bool                `json:"livemode"`
	Metadata     map[string]string   `json:"metadata"`
	Object       string              `json:"object"`
	ReceiptEmail string              `json:"receipt_email"`
	Status       PaymentIntentStatus `json:"status"`
}

// ---- paymentintent_service.go, stripe_client.go

// v1PaymentIntentService is used to invoke /v1/payment_intents APIs.
// Its methods replace nil params with an empty struct, so writes always get an Idempotency-Key.
type v1PaymentIntentService struct {
	B   Backend
	Key string
}

// Create creates a PaymentIntent object.
func (c v1PaymentIntentService) Create(ctx context.Context, params *PaymentIntentCreateParams) (*PaymentIntent, error) {
	panic("stub")
}

// Retrieve retrieves the details of a PaymentIntent that has previously been created.
func (c v1PaymentIntentService) Retrieve(ctx context.Context, id string, params *PaymentIntentRetrieveParams) (*PaymentIntent, error) {
	panic("stub")
}

// Cancel cancels a PaymentIntent.
func (c v1PaymentIntentService) Cancel(ctx context.Context, id string, params *PaymentIntentCancelParams) (*PaymentIntent, error) {
	panic("stub")
}

// Capture captures the funds of an existing uncaptured PaymentIntent.
func (c v1PaymentIntentService) Capture(ctx context.Context, id string, params *PaymentIntentCaptureParams) (*PaymentIntent, error) {
	panic("stub")
}

// Confirm confirms that your customer intends to pay with current or provided payment method.
func (c v1PaymentIntentService) Confirm(ctx context.Context, id string, params *PaymentIntentConfirmParams) (*PaymentIntent, error) {
	panic("stub")
}

// Client is the Stripe client (only V1PaymentIntents of its many services is declared).
type Client struct {
	// V1PaymentIntents is the service used to invoke /v1/payment_intents APIs.
	V1PaymentIntents *v1PaymentIntentService
}

type clientConfig struct {
	backends *Backends
	key      string
}

// ClientOption configures NewClient.
type ClientOption func(*clientConfig)

// NewClient creates a new Stripe Client with the given API key and options.
func NewClient(key string, opts ...ClientOption) *Client { panic("stub") }

// WithBackends sets the backends for the client.
func WithBackends(backends *Backends) ClientOption { panic("stub") }
