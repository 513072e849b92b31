// Package backoff is a test stub of github.com/jpillora/backoff@v1.1.0: signatures only.
package backoff

import (
	"time"
)

// ---- backoff.go

// Backoff is a time.Duration counter, starting at Min.
// A calculator only: there is no retry loop and no attempt cap.
type Backoff struct {
	Factor float64       // Factor is the multiplying factor for each increment step; 0 means 2
	Jitter bool          // Jitter eases contention by randomizing backoff steps; defaults to false
	Min    time.Duration // Min is the minimum value of the counter; 0 means 100ms
	Max    time.Duration // Max is the maximum value of the counter; 0 means 10s
}

// Duration returns the duration for the current attempt before incrementing the attempt counter.
func (b *Backoff) Duration() time.Duration { panic("stub") }

// ForAttempt returns the duration for a specific attempt.
func (b *Backoff) ForAttempt(attempt float64) time.Duration { panic("stub") }

// Reset restarts the current attempt counter at zero.
func (b *Backoff) Reset() {}

// Attempt returns the current attempt counter value.
func (b *Backoff) Attempt() float64 { panic("stub") }

// Copy returns a backoff with equals constraints as the original
func (b *Backoff) Copy() *Backoff { panic("stub") }
