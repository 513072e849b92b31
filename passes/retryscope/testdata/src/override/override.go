// Package override holds waits through a local func variable that a helper
// of the package picks: the users' function when they set one, a default
// otherwise (Tencent Cloud's safeDurationFunc(c.profile.NetworkFailureRetryDuration),
// profile.ExponentialBackoff by default). The default decides: a
// deterministic default has no jitter, a jittered one has.
package override

import (
	"math"
	"math/rand"
	"time"
)

type DurationFunc func(index int) time.Duration

// ExponentialBackoff is 2^index seconds: no jitter.
func ExponentialBackoff(index int) time.Duration {
	return time.Duration(math.Pow(2, float64(index))) * time.Second
}

// JitteredBackoff draws in [0, 2^index) seconds.
func JitteredBackoff(index int) time.Duration {
	return time.Duration(rand.Int63n(int64(time.Second) << index))
}

type Profile struct {
	MaxRetries    int
	RetryDuration DurationFunc
	OtherDuration DurationFunc
}

func safeDurationFunc(f DurationFunc) DurationFunc {
	if f != nil {
		return f
	}
	return ExponentialBackoff
}

func jitteredDurationFunc(f DurationFunc) DurationFunc {
	if f != nil {
		return f
	}
	return JitteredBackoff
}

type Client struct{ profile *Profile }

func send() error { return nil }

func (c *Client) sendWithRetry() error {
	durationFunc := safeDurationFunc(c.profile.RetryDuration)
	var err error
	for idx := 0; idx <= 3; idx++ { // want "loop cap=4 deadline=none waits=deterministic-growth body"
		if err = send(); err == nil {
			return nil
		}
		time.Sleep(durationFunc(idx))
	}
	return err
}

// Look-alike: the default is jittered.
func (c *Client) sendJittered() error {
	durationFunc := jitteredDurationFunc(c.profile.RetryDuration)
	var err error
	for idx := 0; idx <= 3; idx++ { // want "loop cap=4 deadline=none waits=jittered body"
		if err = send(); err == nil {
			return nil
		}
		time.Sleep(durationFunc(idx))
	}
	return err
}

// Look-alike: the package sets OtherDuration to a jittered function of its
// own, so the override branch is taken: jittered too.
func NewClient() *Client {
	return &Client{profile: &Profile{OtherDuration: JitteredBackoff}}
}

func (c *Client) sendOther() error {
	durationFunc := safeDurationFunc(c.profile.OtherDuration)
	var err error
	for idx := 0; idx <= 3; idx++ { // want "loop cap=4 deadline=none waits=unknown body"
		if err = send(); err == nil {
			return nil
		}
		time.Sleep(durationFunc(idx))
	}
	return err
}
