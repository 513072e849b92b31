package retry_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/retry"
)

func TestJitterRange(t *testing.T) {
	if got := retry.Jitter(0); got != 0 {
		t.Errorf("Jitter(0) = %v, want 0", got)
	}
	if got := retry.Jitter(-time.Second); got != 0 {
		t.Errorf("Jitter(-1s) = %v, want 0", got)
	}
	const d = time.Second
	var below, above int
	for range 10000 {
		got := retry.Jitter(d)
		if got < 0 || got >= d {
			t.Fatalf("Jitter(%v) = %v, outside [0, %v)", d, got, d)
		}
		if got < d/2 {
			below++
		} else {
			above++
		}
	}
	// Uniform: each half holds about 5000 of 10000 draws; 4500 is over ten
	// standard deviations away, so this never fails by chance.
	if below < 4500 || above < 4500 {
		t.Errorf("halves hold %d and %d of 10000 draws; want both near 5000", below, above)
	}
}

func ExampleJitter() {
	backoff := 200 * time.Millisecond
	wait := retry.Jitter(backoff)
	fmt.Println(wait >= 0 && wait < backoff)
	// Output: true
}
