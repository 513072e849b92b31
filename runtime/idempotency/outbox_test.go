package idempotency

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestOutboxRun(t *testing.T) {
	o := NewMemoryOutbox()
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan string, 10)
	done := make(chan error)
	go func() {
		done <- o.Run(ctx, func(ctx context.Context, e OutboxEntry) error { got <- e.Key; return nil },
			RelayOptions{Interval: 5 * time.Millisecond})
	}()
	for _, k := range []string{"a", "b"} {
		o.Add(context.Background(), OutboxMessage{Kind: "k", Key: k})
		select {
		case g := <-got:
			if g != k {
				t.Errorf("delivered %q, want %q", g, k)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%q not delivered by Run", k)
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run returned %v", err)
	}
}
