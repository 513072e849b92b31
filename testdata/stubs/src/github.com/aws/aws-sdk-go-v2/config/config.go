// Package config is a test stub of github.com/aws/aws-sdk-go-v2/config@v1.33.18: signatures only
// (LoadDefaultConfig and the retry-related load options).
package config

import (
	"context"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// HTTPClient is an HTTP client implementation
type HTTPClient interface {
	Do(*http.Request) (*http.Response, error)
}

// LoadOptions are discrete set of options that are valid for loading the configuration (field subset).
type LoadOptions struct {
	Region           string
	Credentials      aws.CredentialsProvider
	HTTPClient       HTTPClient
	RetryMaxAttempts int           // 0 = unset (retryer default, 3); ignored when Retryer is set
	RetryMode        aws.RetryMode // default standard
	Retryer          func() aws.Retryer
	AppID            string
	BaseEndpoint     string
}

// LoadOptionsFunc is a type alias for LoadOptions functional option
type LoadOptionsFunc func(*LoadOptions) error

// LoadDefaultConfig reads the SDK's default external configurations, and populates an AWS Config with the values from the external configurations.
func LoadDefaultConfig(ctx context.Context, optFns ...func(*LoadOptions) error) (cfg aws.Config, err error) {
	panic("stub")
}

// WithRegion is a helper function to construct functional options that sets Region on config's LoadOptions.
func WithRegion(v string) LoadOptionsFunc { panic("stub") }

// WithAppID is a helper function to construct functional options that sets AppID on config's LoadOptions.
func WithAppID(ID string) LoadOptionsFunc { panic("stub") }

// WithCredentialsProvider is a helper function to construct functional options that sets Credential provider value on config's LoadOptions.
func WithCredentialsProvider(v aws.CredentialsProvider) LoadOptionsFunc { panic("stub") }

// WithHTTPClient is a helper function to construct functional options that sets HTTPClient on LoadOptions.
func WithHTTPClient(v HTTPClient) LoadOptionsFunc { panic("stub") }

// WithRetryMaxAttempts is a helper function to construct functional options that sets RetryMaxAttempts on LoadOptions.
// Will be ignored of LoadOptions.Retryer or WithRetryer are used.
func WithRetryMaxAttempts(v int) LoadOptionsFunc { panic("stub") }

// WithRetryMode is a helper function to construct functional options that sets RetryMode on LoadOptions.
func WithRetryMode(v aws.RetryMode) LoadOptionsFunc { panic("stub") }

// WithRetryer is a helper function to construct functional options that sets Retryer on LoadOptions.
func WithRetryer(v func() aws.Retryer) LoadOptionsFunc { panic("stub") }

// WithBaseEndpoint is a helper function to construct functional options that sets BaseEndpoint on config's LoadOptions.
func WithBaseEndpoint(v string) LoadOptionsFunc { panic("stub") }
