package storetest

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// Inbox runs the conformance tests of an idempotency.Inbox backend as
// subtests, each on the inbox newInbox makes for it. For a backend with
// transactions (idempotency.Tx in the handler), newInbox also returns the
// database, holding the table inbox_test_effects (message_id text, n int)
// that the handlers write in the message's transaction; nil otherwise.
func Inbox(t *testing.T, newInbox func(t *testing.T) (*idempotency.Inbox, *sql.DB)) {
	for _, c := range []struct {
		name string
		f    func(t *testing.T, in *idempotency.Inbox, db *sql.DB)
	}{
		{"ConcurrentRedeliveries", testInboxConcurrentRedeliveries},
		{"FailedHandlerIsRetried", testInboxFailedHandlerIsRetried},
		{"ConcurrentFailureThenSuccess", testInboxConcurrentFailureThenSuccess},
		{"InvalidAndPrune", testInboxInvalidAndPrune},
	} {
		t.Run(c.name, func(t *testing.T) {
			in, db := newInbox(t)
			c.f(t, in, db)
		})
	}
}

// inboxEffects counts the rows the handlers committed to inbox_test_effects.
func inboxEffects(t *testing.T, db *sql.DB) int {
	t.Helper()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM inbox_test_effects`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func testInboxConcurrentRedeliveries(t *testing.T, in *idempotency.Inbox, db *sql.DB) {
	ctx := context.Background()
	var runs atomic.Int64
	var ranCount atomic.Int64
	start := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			ran, err := in.Consume(ctx, "msg-1", func(ctx context.Context) error {
				runs.Add(1)
				time.Sleep(20 * time.Millisecond) // keep the others waiting on this delivery
				if db != nil {
					tx := idempotency.Tx(ctx)
					if tx == nil {
						return errors.New("no transaction in the handler's context")
					}
					_, err := tx.ExecContext(ctx, `INSERT INTO inbox_test_effects VALUES ('msg-1', $1)`, i)
					return err
				}
				return nil
			})
			if ran {
				ranCount.Add(1)
			}
			errs <- err
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if runs.Load() != 1 || ranCount.Load() != 1 {
		t.Fatalf("10 concurrent deliveries: handler ran %d times (%d reported ran); want 1", runs.Load(), ranCount.Load())
	}
	if db != nil {
		if n := inboxEffects(t, db); n != 1 {
			t.Errorf("%d effects committed, want 1", n)
		}
	}
	if seen, err := in.Seen(ctx, "msg-1"); !seen || err != nil {
		t.Errorf("Seen = %v, %v", seen, err)
	}
	ran, err := in.Consume(ctx, "msg-1", func(context.Context) error { t.Error("ran again"); return nil })
	if ran || err != nil {
		t.Errorf("later redelivery: ran %v, %v", ran, err)
	}
}

func testInboxFailedHandlerIsRetried(t *testing.T, in *idempotency.Inbox, db *sql.DB) {
	ctx := context.Background()
	errBoom := errors.New("boom")
	ran, err := in.Consume(ctx, "msg-2", func(ctx context.Context) error {
		if db != nil {
			if _, err := idempotency.Tx(ctx).ExecContext(ctx, `INSERT INTO inbox_test_effects VALUES ('msg-2', 1)`); err != nil {
				return err
			}
		}
		return errBoom
	})
	if !ran || !errors.Is(err, errBoom) {
		t.Fatalf("failing handler: ran %v, %v", ran, err)
	}
	if seen, _ := in.Seen(ctx, "msg-2"); seen {
		t.Error("a failed message was recorded")
	}
	if db != nil {
		if inboxEffects(t, db) != 0 {
			t.Errorf("the failed handler's write was committed")
		}
	}
	calls := 0
	ran, err = in.Consume(ctx, "msg-2", func(context.Context) error { calls++; return nil })
	if !ran || err != nil || calls != 1 {
		t.Errorf("redelivery after a failure: ran %v, %v, %d calls; want it to run", ran, err, calls)
	}
	// A panic leaves the id free too.
	func() {
		defer func() { recover() }()
		in.Consume(ctx, "msg-3", func(context.Context) error { panic("handler bug") })
	}()
	if ran, err := in.Consume(ctx, "msg-3", func(context.Context) error { return nil }); !ran || err != nil {
		t.Errorf("redelivery after a panic: ran %v, %v", ran, err)
	}
}

// The first delivery fails while a second one waits: the second must run the handler.
func testInboxConcurrentFailureThenSuccess(t *testing.T, in *idempotency.Inbox, _ *sql.DB) {
	ctx := context.Background()
	entered := make(chan struct{})
	var second struct {
		ran bool
		err error
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		<-entered
		time.Sleep(10 * time.Millisecond) // let it block on the running delivery
		second.ran, second.err = in.Consume(ctx, "msg-4", func(context.Context) error { return nil })
	}()
	ran, err := in.Consume(ctx, "msg-4", func(context.Context) error {
		close(entered)
		time.Sleep(60 * time.Millisecond)
		return errors.New("transient")
	})
	<-done
	if !ran || err == nil || !second.ran || second.err != nil {
		t.Errorf("first: %v %v; second: %v %v; want the second to run after the first failed", ran, err, second.ran, second.err)
	}
}

func testInboxInvalidAndPrune(t *testing.T, in *idempotency.Inbox, _ *sql.DB) {
	ctx := context.Background()
	for _, id := range []string{"", strings.Repeat("x", 256)} {
		if _, err := in.Consume(ctx, id, func(context.Context) error { return nil }); !errors.Is(err, idempotency.ErrInvalidMessageID) {
			t.Errorf("id of %d bytes: %v", len(id), err)
		}
	}
	for i := range 3 {
		in.Consume(ctx, "old-"+strconv.Itoa(i), func(context.Context) error { return nil })
	}
	if n, err := in.Prune(ctx, time.Hour); n != 0 || err != nil {
		t.Errorf("Prune(1h) removed %d, %v", n, err)
	}
	time.Sleep(5 * time.Millisecond)
	if n, err := in.Prune(ctx, time.Millisecond); n != 3 || err != nil {
		t.Errorf("Prune(1ms) removed %d, %v; want 3", n, err)
	}
	if seen, _ := in.Seen(ctx, "old-1"); seen {
		t.Error("pruned id still seen")
	}
}
