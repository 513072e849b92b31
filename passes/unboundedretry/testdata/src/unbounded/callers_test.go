package unbounded

import (
	"context"
	"testing"
)

// A test's context.Background() is no path of the package's own.
func TestResolve(t *testing.T) {
	_ = ResolveContext(context.Background())
}
