// Package sqs is a test stub of github.com/aws/aws-sdk-go-v2/service/sqs@v1.53.0: signatures only.
//
// Subset: Client, NewFromConfig, Options, ReceiveMessage and DeleteMessage.
package sqs

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// Options are the service client options (field subset).
type Options struct {
	Region           string
	RetryMaxAttempts int
}

// Client provides the API client to make operations call for Amazon Simple Queue Service.
type Client struct{ options Options }

// NewFromConfig returns a new client from the provided config.
func NewFromConfig(cfg aws.Config, optFns ...func(*Options)) *Client { return &Client{} }

type ReceiveMessageInput struct {
	QueueUrl                    *string
	AttributeNames              []types.QueueAttributeName
	MaxNumberOfMessages         int32
	MessageAttributeNames       []string
	MessageSystemAttributeNames []types.MessageSystemAttributeName
	ReceiveRequestAttemptId     *string
	VisibilityTimeout           int32
	WaitTimeSeconds             int32
}

type ReceiveMessageOutput struct {
	Messages []types.Message
}

func (c *Client) ReceiveMessage(ctx context.Context, params *ReceiveMessageInput, optFns ...func(*Options)) (*ReceiveMessageOutput, error) {
	return &ReceiveMessageOutput{}, nil
}

type DeleteMessageInput struct {
	QueueUrl      *string
	ReceiptHandle *string
}

type DeleteMessageOutput struct{}

func (c *Client) DeleteMessage(ctx context.Context, params *DeleteMessageInput, optFns ...func(*Options)) (*DeleteMessageOutput, error) {
	return &DeleteMessageOutput{}, nil
}
