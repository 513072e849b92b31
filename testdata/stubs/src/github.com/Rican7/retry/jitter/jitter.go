// Package jitter is a test stub of github.com/Rican7/retry@v0.3.1: signatures only.
package jitter

import (
	"math/rand"
	"time"
)

// ---- jitter.go

// Transformation defines a function that calculates a time.Duration based on the given duration.
type Transformation func(duration time.Duration) time.Duration

// Full creates a Transformation that transforms a duration into a result duration in [0, n) randomly, where n is the given duration.
func Full(generator *rand.Rand) Transformation { panic("stub") }

// Equal creates a Transformation that transforms a duration into a result duration in [n/2, n) randomly, where n is the given duration.
func Equal(generator *rand.Rand) Transformation { panic("stub") }

// Deviation creates a Transformation that transforms a duration into a result duration that deviates from the input randomly by a given factor.
func Deviation(generator *rand.Rand, factor float64) Transformation { panic("stub") }

// NormalDistribution creates a Transformation that transforms a duration into a result duration based on a normal distribution of the input and the given stand...
func NormalDistribution(generator *rand.Rand, standardDeviation float64) Transformation {
	panic("stub")
}
