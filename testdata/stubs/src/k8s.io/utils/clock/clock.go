// Package clock is a test stub of k8s.io/utils@v0.0.0-20260626114624-be93311217bd: signatures only.
package clock

import (
	"time"
)

// ---- clock.go

// PassiveClock allows for injecting fake or real clocks into code that needs to read the current time but does not support scheduling activity in the future.
type PassiveClock interface {
	Now() time.Time
	Since(time.Time) time.Duration
}

// Clock allows for injecting fake or real clocks into code that needs to do arbitrary things based on time.
type Clock interface {
	PassiveClock

	After(d time.Duration) <-chan time.Time

	NewTimer(d time.Duration) Timer

	Sleep(d time.Duration)

	Tick(d time.Duration) <-chan time.Time
}

// WithTicker allows for injecting fake or real clocks into code that needs to do arbitrary things based on time.
type WithTicker interface {
	Clock

	NewTicker(time.Duration) Ticker
}

// WithDelayedExecution allows for injecting fake or real clocks into code that needs to make use of AfterFunc functionality.
type WithDelayedExecution interface {
	Clock

	AfterFunc(d time.Duration, f func()) Timer
}

// WithTickerAndDelayedExecution allows for injecting fake or real clocks into code that needs Ticker and AfterFunc functionality
type WithTickerAndDelayedExecution interface {
	WithTicker

	AfterFunc(d time.Duration, f func()) Timer
}

// Ticker defines the Ticker interface.
type Ticker interface {
	C() <-chan time.Time
	Stop()
}

// RealClock really calls time.Now()
type RealClock struct {
}

// Now returns the current time.
func (RealClock) Now() time.Time { panic("stub") }

// Since returns time since the specified timestamp.
func (RealClock) Since(ts time.Time) time.Duration { panic("stub") }

// After is the same as time.After(d).
func (RealClock) After(d time.Duration) <-chan time.Time { panic("stub") }

// NewTimer is the same as time.NewTimer(d)
func (RealClock) NewTimer(d time.Duration) Timer { panic("stub") }

// AfterFunc is the same as time.AfterFunc(d, f).
func (RealClock) AfterFunc(d time.Duration, f func()) Timer { panic("stub") }

// Tick is the same as time.Tick(d) This method does not allow to free/GC the backing ticker.
func (RealClock) Tick(d time.Duration) <-chan time.Time { panic("stub") }

// NewTicker returns a new Ticker.
func (RealClock) NewTicker(d time.Duration) Ticker { panic("stub") }

// Sleep is the same as time.Sleep(d) Consider making the sleep interruptible by using 'select' on a context channel and a timer channel.
func (RealClock) Sleep(d time.Duration) {}

// Timer allows for injecting fake or real timers into code that needs to do arbitrary things based on time.
type Timer interface {
	C() <-chan time.Time
	Stop() bool
	Reset(d time.Duration) bool
}
