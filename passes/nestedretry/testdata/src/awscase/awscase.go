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
		if _, err = client.RunInstances(ctx, in); err == nil { // want `\(\*ec2\.Client\)\.RunInstances \(3 attempts\) inside a retry, up to 5×3 = 15 calls; give the client aws\.NopRetryer\{\}`
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
		_, err := client.TerminateInstances(ctx, in) // want `\(\*ec2\.Client\)\.TerminateInstances \(4 attempts\) inside a retry, up to 10×4 = 40 calls`
		return err
	})
}

func customRetryer(ctx context.Context, cfg aws.Config, in *ec2.RunInstancesInput) error {
	client := ec2.NewFromConfig(cfg, func(o *ec2.Options) {
		o.Retryer = retry2.AddWithMaxAttempts(retry2.NewStandard(), 2)
	})
	return retry.Do(func() error {
		_, err := client.RunInstances(ctx, in) // want `\(\*ec2\.Client\)\.RunInstances \(2 attempts\) inside a retry, up to 10×2 = 20 calls`
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
