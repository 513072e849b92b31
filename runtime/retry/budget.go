package retry

import (
	"fmt"
	"math"
	"sync/atomic"
)

// Defaults of a [Budget] whose fields are zero: gRPC's retry throttling example (proposal A6).
const (
	DefaultBudgetMaxTokens  = 10
	DefaultBudgetTokenRatio = 0.1
)

// Budget is a retry budget shared by every call that names it in its Policy, in the style of gRPC retry
// throttling: a bucket that starts full at MaxTokens; each attempt that fails with a retryable error takes
// one token, each success gives back TokenRatio tokens, and retries are allowed only while more than half
// the tokens are left. With the defaults (10 tokens, ratio 0.1) calls stop retrying, and fail fast with
// ReasonBudget, once failures run above about 10% of successes; first attempts are never refused.
// Non-retryable failures (a 404, say) take nothing.
//
// The zero Budget is ready to use with the defaults. Set the fields, or use [NewBudget], before the first
// use and do not change them afterwards. A Budget is safe for concurrent use and never allocates; it must
// not be copied after first use.
type Budget struct {
	// MaxTokens is the bucket size; 0 means DefaultBudgetMaxTokens (10).
	MaxTokens float64
	// TokenRatio is what a success gives back; 0 means DefaultBudgetTokenRatio (0.1).
	TokenRatio float64

	// deficit is how many milli-tokens the bucket lacks; 0 means full. Counting down from full makes the
	// zero Budget a full one.
	deficit atomic.Int64
}

// NewBudget returns a Budget holding maxTokens tokens (at most 1e6) of which each success gives back
// tokenRatio (more than 0, at most maxTokens), as in gRPC's retryThrottling.
func NewBudget(maxTokens, tokenRatio float64) (*Budget, error) {
	if !(maxTokens > 0 && maxTokens <= 1e6) {
		return nil, fmt.Errorf("retry: budget maxTokens %v out of range (0, 1e6]", maxTokens)
	}
	if !(tokenRatio > 0 && tokenRatio <= maxTokens) {
		return nil, fmt.Errorf("retry: budget tokenRatio %v out of range (0, %v]", tokenRatio, maxTokens)
	}
	return &Budget{MaxTokens: maxTokens, TokenRatio: tokenRatio}, nil
}

// Milli-tokens, so that a ratio of 0.1 is exact.
const milli = 1000

func (b *Budget) capacity() int64 {
	if b.MaxTokens <= 0 {
		return DefaultBudgetMaxTokens * milli
	}
	return int64(math.Round(b.MaxTokens * milli))
}

func (b *Budget) ratio() int64 {
	if b.TokenRatio <= 0 {
		return DefaultBudgetTokenRatio * milli
	}
	return max(int64(math.Round(b.TokenRatio*milli)), 1)
}

// Tokens returns the tokens left.
func (b *Budget) Tokens() float64 {
	return float64(b.capacity()-b.deficit.Load()) / milli
}

// allow reports whether a retry may start: more than half the tokens are left.
func (b *Budget) allow() bool {
	c := b.capacity()
	return c-b.deficit.Load() > c/2
}

// failure takes one token for an attempt that failed with a retryable error.
func (b *Budget) failure() {
	c := b.capacity()
	for {
		d := b.deficit.Load()
		if d >= c || b.deficit.CompareAndSwap(d, min(d+milli, c)) {
			return
		}
	}
}

// success gives back TokenRatio tokens. A full bucket, the usual case, costs one atomic load.
func (b *Budget) success() {
	r := b.ratio()
	for {
		d := b.deficit.Load()
		if d == 0 || b.deficit.CompareAndSwap(d, max(d-r, 0)) {
			return
		}
	}
}
