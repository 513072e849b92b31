package modelfuzz

import (
	"math/rand/v2"
	"testing"
)

// TestGeneratedMostlyCompile holds the grammar to valid Go on random
// input: the fuzzer wastes the inputs that do not type-check.
func TestGeneratedMostlyCompile(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 300
	bad := 0
	for range n {
		b := make([]byte, 1+r.IntN(40))
		for i := range b {
			b[i] = byte(r.UintN(256))
		}
		if _, err := typeCheck(Generate(b)); err != nil {
			bad++
			if bad <= 3 {
				t.Logf("does not type-check: %v", err)
			}
		}
	}
	if bad > n/20 {
		t.Errorf("%d of %d generated files do not type-check, want at most 5%%", bad, n)
	}
}
