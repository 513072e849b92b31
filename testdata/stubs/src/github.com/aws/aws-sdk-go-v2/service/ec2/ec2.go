// Package ec2 is a test stub of github.com/aws/aws-sdk-go-v2/service/ec2@v1.347.0: signatures only.
//
// Subset: Client, New, NewFromConfig, Options (retry-related fields),
// RunInstances and TerminateInstances. RunInstancesInput.ClientToken carries the
// idempotencyToken trait: when nil it is auto-filled in the Initialize step
// (before the Finalize-step retry loop) and written back into the input struct,
// so SDK retries reuse it but a fresh input per outer-loop iteration gets a new one.
package ec2

import (
	"context"
	"net/http"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
)

// HTTPClient is the HTTP client used by the service client.
type HTTPClient interface {
	Do(*http.Request) (*http.Response, error)
}

// IdempotencyTokenProvider interface for providing idempotency token
type IdempotencyTokenProvider interface {
	GetIdempotencyToken() (string, error)
}

// Options are the service client options (field subset).
type Options struct {
	AppID        string
	BaseEndpoint *string
	Credentials  aws.CredentialsProvider

	// Provides idempotency tokens values that will be automatically populated
	// into idempotent API operations.
	IdempotencyTokenProvider IdempotencyTokenProvider

	Region string

	// The maximum number attempts an API client will call an operation that fails
	// with a retryable error. A value of 0 is ignored (default 3).
	RetryMaxAttempts int

	// The retry mode API calls will use.
	RetryMode aws.RetryMode

	// Retryer guides how HTTP requests should be retried in case of recoverable
	// failures. When nil the API client will use a default retryer (3 attempts).
	Retryer aws.Retryer

	HTTPClient HTTPClient
}

// Copy creates a clone where the APIOptions list is deep copied.
func (o Options) Copy() Options { return o }

// Client provides the API client to make operations call for Amazon Elastic Compute Cloud.
type Client struct{}

// New returns an initialized Client based on the functional options.
func New(options Options, optFns ...func(*Options)) *Client { panic("stub") }

// Options returns a copy of the client configuration.
func (c *Client) Options() Options { panic("stub") }

// NewFromConfig returns a new client from the provided config.
func NewFromConfig(cfg aws.Config, optFns ...func(*Options)) *Client { panic("stub") }

// RunInstancesInput is the input of RunInstances (field subset).
type RunInstancesInput struct {
	// The maximum number of instances to launch.
	//
	// This member is required.
	MaxCount *int32

	// The minimum number of instances to launch.
	//
	// This member is required.
	MinCount *int32

	// Unique, case-sensitive identifier you provide to ensure the idempotency of
	// the request. Auto-filled (idempotencyToken trait) when nil.
	ClientToken *string

	DryRun           *bool
	ImageId          *string
	InstanceType     types.InstanceType
	KeyName          *string
	SecurityGroupIds []string
	SecurityGroups   []string
	SubnetId         *string
	UserData         *string
}

// RunInstancesOutput describes a launch request (field subset).
type RunInstancesOutput struct {
	Instances     []types.Instance
	OwnerId       *string
	RequesterId   *string
	ReservationId *string
}

// RunInstances launches the specified number of instances using an AMI for which you have permissions.
func (c *Client) RunInstances(ctx context.Context, params *RunInstancesInput, optFns ...func(*Options)) (*RunInstancesOutput, error) {
	panic("stub")
}

// TerminateInstancesInput is the input of TerminateInstances (field subset).
type TerminateInstancesInput struct {
	// The IDs of the instances.
	//
	// This member is required.
	InstanceIds []string

	DryRun         *bool
	Force          *bool
	SkipOsShutdown *bool
}

// TerminateInstancesOutput is the output of TerminateInstances (field subset).
type TerminateInstancesOutput struct {
	TerminatingInstances []types.InstanceStateChange
}

// TerminateInstances shuts down the specified instances.
func (c *Client) TerminateInstances(ctx context.Context, params *TerminateInstancesInput, optFns ...func(*Options)) (*TerminateInstancesOutput, error) {
	panic("stub")
}
