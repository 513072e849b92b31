package policyuse

import (
	"context"

	retry "github.com/avast/retry-go/v4"

	"policies"
)

// The service's request retries only when a user sets a policy: by default
// one layer, retry.Do's.
func commit(ctx context.Context, s *policies.Service) error {
	return retry.Do(func() error {
		return s.Do(ctx)
	})
}

// A client whose default policy retries: two layers.
func perform(ctx context.Context, c *policies.BackoffClient) error {
	return retry.Do(func() error {
		return c.Perform(ctx) // want `\(\*policies\.BackoffClient\)\.Perform reaches retry loop inside retry\.Do \(10 attempts\); retry in one layer only`
	})
}
