package pgstore

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"strings"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// DefaultConflictRetries is how many times PostgresStore runs one of its own
// statements again after a serialization failure or a deadlock (see
// WithConflictRetries).
const DefaultConflictRetries = 3

// sqlState returns the SQLSTATE of a database error (pgx's *pgconn.PgError
// and other drivers' errors have a SQLState method), or "".
func sqlState(err error) string {
	var se interface{ SQLState() string }
	if errors.As(err, &se) {
		return se.SQLState()
	}
	return ""
}

// conflict reports whether err is a serialization failure (40001) or a
// deadlock (40P01): the transaction was rolled back and running it again
// may succeed.
func conflict(err error) bool {
	switch sqlState(err) {
	case "40001", "40P01":
		return true
	}
	return false
}

// classifyPG wraps a PostgreSQL error with its class, by SQLSTATE:
//
//   - 08 (connection), 53 (insufficient resources), 57P01 to 57P05
//     (operator intervention: shutdown, cannot connect now, idle session
//     timeout), 57014 (statement timeout or cancel), 55P03 (lock timeout)
//     and 40001/40P01 (once the store's own retries are spent):
//     idempotency.ErrStoreUnavailable;
//   - 22 (data exception) and 54 (program limit exceeded, such as an index
//     row too large): idempotency.ErrStoreRejected;
//   - a network error, a broken connection or a driver.ErrBadConn without
//     a SQLSTATE: idempotency.ErrStoreUnavailable.
//
// Other errors are returned as they are: idempotency.Middleware treats them as
// unavailability too (fail closed), but without a class.
func classifyPG(err error) error {
	if err == nil || errors.Is(err, idempotency.ErrStoreUnavailable) || errors.Is(err, idempotency.ErrStoreRejected) || errors.Is(err, idempotency.ErrLeaseLost) {
		return err
	}
	state := sqlState(err)
	switch {
	case state == "":
		var ne net.Error
		if errors.As(err, &ne) || errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.ErrUnexpectedEOF) ||
			errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("%w: %w", idempotency.ErrStoreUnavailable, err)
		}
		return err
	case strings.HasPrefix(state, "08"), strings.HasPrefix(state, "53"), strings.HasPrefix(state, "57P"),
		state == "57014", state == "55P03", state == "40001", state == "40P01":
		return fmt.Errorf("%w: %w", idempotency.ErrStoreUnavailable, err)
	case strings.HasPrefix(state, "22"), strings.HasPrefix(state, "54"):
		return fmt.Errorf("%w: %w", idempotency.ErrStoreRejected, err)
	}
	return err
}

// retryConflicts runs op, and again after a serialization failure or a
// deadlock, at most 1 + s.conflictRetries times in all, waiting a few
// jittered milliseconds between runs. op must be one of the store's own
// statements or transactions (never the handler's transaction, whose work
// the store cannot redo). The result is classified (classifyPG).
func (s *PostgresStore) retryConflicts(ctx context.Context, op func() error) error {
	return s.retryConflictsFrom(ctx, 0, nil, op)
}

// retryConflictsFrom is retryConflicts when op has already run n times, the
// last time failing with err, a conflict (ClaimBegin's pipelined claim is
// the first run of the claim's).
func (s *PostgresStore) retryConflictsFrom(ctx context.Context, n int, err error, op func() error) error {
	for ; ; n++ {
		if n > 0 {
			if n > s.conflictRetries {
				return classifyPG(err)
			}
			t := time.NewTimer(time.Duration(1+rand.IntN(5<<(n-1))) * time.Millisecond)
			select {
			case <-ctx.Done():
				t.Stop()
				return classifyPG(err)
			case <-t.C:
			}
		}
		if err = op(); err == nil || !conflict(err) {
			return classifyPG(err)
		}
	}
}
