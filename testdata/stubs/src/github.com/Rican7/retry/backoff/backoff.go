// Package backoff is a test stub of github.com/Rican7/retry@v0.3.1: signatures only.
package backoff

import (
	"time"
)

// ---- backoff.go

// Algorithm defines a function that calculates a time.Duration based on the given retry attempt number.
type Algorithm func(attempt uint) time.Duration

// Incremental creates a Algorithm that increments the initial duration by the given increment for each attempt.
func Incremental(initial, increment time.Duration) Algorithm { panic("stub") }

// Linear creates a Algorithm that linearly multiplies the factor duration by the attempt number for each attempt.
func Linear(factor time.Duration) Algorithm { panic("stub") }

// Exponential creates a Algorithm that multiplies the factor duration by an exponentially increasing factor for each attempt, where the factor is calculated as...
func Exponential(factor time.Duration, base float64) Algorithm { panic("stub") }

// BinaryExponential creates a Algorithm that multiplies the factor duration by an exponentially increasing factor for each attempt, where the factor is calcula...
func BinaryExponential(factor time.Duration) Algorithm { panic("stub") }

// Fibonacci creates a Algorithm that multiplies the factor duration by an increasing factor for each attempt, where the factor is the Nth number in the Fibonac...
func Fibonacci(factor time.Duration) Algorithm { panic("stub") }
