// Package riverdriver is a test stub of github.com/riverqueue/river/riverdriver@v0.51.2: signatures only.
// Driver declares only the methods whose signatures need no other driver types.
package riverdriver

import (
	"context"
	"time"
)

// ExecutorTx is an executor which is a transaction (its Executor methods omitted).
type ExecutorTx interface {
	Commit(ctx context.Context) error
	Rollback(ctx context.Context) error
}

// Driver provides a database driver for use with river.Client (method subset).
type Driver[TTx any] interface {
	ArgPlaceholder() string
	DatabaseName() string
	PoolIsSet() bool
	PoolSet(dbPool any) error
	SupportsListener() bool
	SupportsListenNotify() bool
	TimePrecision() time.Duration
	UnwrapExecutor(tx TTx) ExecutorTx
	UnwrapTx(execTx ExecutorTx) TTx
}
