// Package aws is a test stub of github.com/aws/aws-sdk-go-v2@v1.48.0: signatures only.
//
// Subset: Config (fields that need no smithy types), Retryer/RetryerV2,
// NopRetryer, RetryMode, Ternary, credentials types and pointer helpers.
// Every service operation retries internally (default 3 attempts, full jitter,
// any HTTP method).
package aws

import (
	"context"
	"net/http"
	"time"
)

// HTTPClient provides the interface to provide custom HTTPClients.
type HTTPClient interface {
	Do(*http.Request) (*http.Response, error)
}

// A Config provides service configuration for service clients (field subset).
type Config struct {
	// The region to send requests to.
	Region string

	// The credentials object to use when signing requests.
	Credentials CredentialsProvider

	// The HTTP Client the SDK's API clients will use to invoke HTTP requests.
	HTTPClient HTTPClient

	// RetryMaxAttempts specifies the maximum number attempts an API client will
	// call an operation that fails with a retryable error. 0 means unset (the
	// retryer's own default, 3).
	RetryMaxAttempts int

	// RetryMode specifies the retry model the API client will be created with.
	RetryMode RetryMode

	// Retryer is a function that provides a Retryer implementation. A Retryer
	// guides how HTTP requests should be retried in case of recoverable failures.
	Retryer func() Retryer

	// ConfigSources are the sources that were used to construct the Config.
	ConfigSources []interface{}

	// The configured application ID.
	AppID string

	// BaseEndpoint is an intermediary transfer location to a service specific BaseEndpoint on a service's Options.
	BaseEndpoint *string
}

// NewConfig returns a new Config pointer that can be chained with builder methods to set multiple configuration values inline without using pointers.
func NewConfig() *Config { return &Config{} }

// Copy will return a shallow copy of the Config object.
func (c Config) Copy() Config { return c }

// Credentials is the AWS credentials value for individual credential fields.
type Credentials struct {
	AccessKeyID     string
	SecretAccessKey string
	SessionToken    string
	Source          string
	CanExpire       bool
	Expires         time.Time
	AccountID       string
}

// CredentialsProvider is the interface for any component which will provide credentials Credentials.
type CredentialsProvider interface {
	Retrieve(ctx context.Context) (Credentials, error)
}

// RetryMode provides the mode the API client will use to create a retryer based on.
type RetryMode string

const (
	// RetryModeStandard model provides rate limited retry attempts with exponential backoff delay.
	RetryModeStandard RetryMode = "standard"

	// RetryModeAdaptive model provides attempt send rate limiting on throttle responses in addition to standard mode's retry rate limiting.
	RetryModeAdaptive RetryMode = "adaptive"
)

// ParseRetryMode attempts to parse a RetryMode from the given string.
func ParseRetryMode(v string) (mode RetryMode, err error) { panic("stub") }

func (m RetryMode) String() string { return string(m) }

// Retryer is an interface to determine if a given error from an attempt should be retried, and if so what backoff delay to apply.
type Retryer interface {
	IsErrorRetryable(error) bool
	MaxAttempts() int
	RetryDelay(attempt int, opErr error) (time.Duration, error)
	GetRetryToken(ctx context.Context, opErr error) (releaseToken func(error) error, err error)
	GetInitialToken() (releaseToken func(error) error)
}

// RetryerV2 is an interface to determine if a given error from an attempt should be retried, and if so what backoff delay to apply.
type RetryerV2 interface {
	Retryer
	GetInitialToken() (releaseToken func(error) error)
	GetAttemptToken(context.Context) (func(error) error, error)
}

// NopRetryer provides a RequestRetryDecider implementation that will flag all attempt errors as not retryable, with a max attempts of 1.
type NopRetryer struct{}

// IsErrorRetryable returns false for all error values.
func (NopRetryer) IsErrorRetryable(error) bool { return false }

// MaxAttempts always returns 1 for the original attempt.
func (NopRetryer) MaxAttempts() int { return 1 }

// RetryDelay is not valid for the NopRetryer. Will always return error.
func (NopRetryer) RetryDelay(int, error) (time.Duration, error) { panic("stub") }

// GetRetryToken returns a stub function that does nothing.
func (NopRetryer) GetRetryToken(context.Context, error) (func(error) error, error) { panic("stub") }

// GetInitialToken returns a stub function that does nothing.
func (NopRetryer) GetInitialToken() func(error) error { panic("stub") }

// GetAttemptToken returns a stub function that does nothing.
func (NopRetryer) GetAttemptToken(context.Context) (func(error) error, error) { panic("stub") }

// Ternary is an enum allowing an unknown or none state in addition to a bool's true and false.
type Ternary int

func (t Ternary) String() string { panic("stub") }

// Bool returns true if the value is TrueTernary, false otherwise.
func (t Ternary) Bool() bool { return t == TrueTernary }

// Enumerations for the values of the Ternary type.
const (
	UnknownTernary Ternary = iota
	FalseTernary
	TrueTernary
)

// BoolTernary returns a true or false Ternary value for the bool provided.
func BoolTernary(v bool) Ternary { panic("stub") }

// Bool returns a pointer value for the bool value passed in.
func Bool(v bool) *bool { return &v }

// String returns a pointer value for the string value passed in.
func String(v string) *string { return &v }

// Int32 returns a pointer value for the int32 value passed in.
func Int32(v int32) *int32 { return &v }

// Int64 returns a pointer value for the int64 value passed in.
func Int64(v int64) *int64 { return &v }

// Time returns a pointer value for the time.Time value passed in.
func Time(v time.Time) *time.Time { return &v }

// ToBool returns bool value dereferenced if the passed in pointer was not nil.
func ToBool(p *bool) (v bool) { panic("stub") }

// ToString returns string value dereferenced if the passed in pointer was not nil.
func ToString(p *string) (v string) { panic("stub") }

// ToInt32 returns int32 value dereferenced if the passed in pointer was not nil.
func ToInt32(p *int32) (v int32) { panic("stub") }

// ToInt64 returns int64 value dereferenced if the passed in pointer was not nil.
func ToInt64(p *int64) (v int64) { panic("stub") }
