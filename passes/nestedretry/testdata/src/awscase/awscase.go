package awscase

import (
	"context"
	"time"

	retry "github.com/avast/retry-go/v4"
	"github.com/aws/aws-sdk-go-v2/aws"
	retry2 "github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
)

func launch(ctx context.Context, in *ec2.RunInstancesInput) error {
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return err
	}
	client := ec2.NewFromConfig(cfg)
	for i := 0; i < 5; i++ {
		if _, err = client.RunInstances(ctx, in); err == nil { // want `\(\*github.com/aws/aws-sdk-go-v2/service/ec2.Client\).RunInstances retries by itself \(3 attempts\) inside a retry loop \(5 attempts\), up to 5×3 = 15 calls; retry in one layer only: give this client aws.NopRetryer\{\} \(or RetryMaxAttempts 1\), or drop the outer retry`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func maxAttempts(ctx context.Context, in *ec2.TerminateInstancesInput) error {
	cfg, err := config.LoadDefaultConfig(ctx, config.WithRetryMaxAttempts(4))
	if err != nil {
		return err
	}
	client := ec2.NewFromConfig(cfg)
	return retry.Do(func() error {
		_, err := client.TerminateInstances(ctx, in) // want `TerminateInstances retries by itself \(4 attempts\) inside github.com/avast/retry-go/v4.Do \(10 attempts\), up to 10×4 = 40 calls`
		return err
	})
}

func customRetryer(ctx context.Context, cfg aws.Config, in *ec2.RunInstancesInput) error {
	client := ec2.NewFromConfig(cfg, func(o *ec2.Options) {
		o.Retryer = retry2.AddWithMaxAttempts(retry2.NewStandard(), 2)
	})
	return retry.Do(func() error {
		_, err := client.RunInstances(ctx, in) // want `RunInstances retries by itself \(2 attempts\) inside github.com/avast/retry-go/v4.Do \(10 attempts\), up to 10×2 = 20 calls`
		return err
	})
}

// ---- negatives

func nopRetryer(ctx context.Context, cfg aws.Config, in *ec2.RunInstancesInput) error {
	client := ec2.NewFromConfig(cfg, func(o *ec2.Options) {
		o.Retryer = aws.NopRetryer{}
	})
	return retry.Do(func() error {
		_, err := client.RunInstances(ctx, in)
		return err
	})
}

func oneAttempt(ctx context.Context, in *ec2.RunInstancesInput) error {
	cfg, err := config.LoadDefaultConfig(ctx, config.WithRetryMaxAttempts(1))
	if err != nil {
		return err
	}
	client := ec2.NewFromConfig(cfg)
	return retry.Do(func() error {
		_, err := client.RunInstances(ctx, in)
		return err
	})
}

func perCall(ctx context.Context, client *ec2.Client, in *ec2.RunInstancesInput) error {
	return retry.Do(func() error {
		_, err := client.RunInstances(ctx, in, func(o *ec2.Options) { o.RetryMaxAttempts = 1 })
		return err
	})
}

// Options() is not an operation.
func options(client *ec2.Client) error {
	return retry.Do(func() error {
		_ = client.Options()
		return nil
	})
}
