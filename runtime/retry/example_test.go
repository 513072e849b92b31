package retry_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/idemlint/idemlint/runtime/retry"
)

func ExampleDo() {
	p := retry.Policy{MaxAttempts: 5, BaseDelay: time.Millisecond}
	attempts := 0
	err := retry.Do(context.Background(), p, func(ctx context.Context) error {
		attempts++
		if attempts < 3 {
			return &retry.StatusError{StatusCode: http.StatusServiceUnavailable} // transient: retried
		}
		return nil
	})
	fmt.Println(attempts, err)
	// Output: 3 <nil>
}

func ExampleDo_giveUp() {
	p := retry.Policy{MaxAttempts: 3, BaseDelay: time.Millisecond}
	err := retry.Do(context.Background(), p, func(ctx context.Context) error {
		return &retry.StatusError{StatusCode: http.StatusBadGateway}
	})
	fmt.Println(err)
	var re *retry.Error
	if errors.As(err, &re) {
		fmt.Println(re.Reason, re.Attempts)
	}
	// Output:
	// retry: attempts exhausted after 3 attempts: http status 502 Bad Gateway
	// attempts exhausted 3
}

func ExamplePermanent() {
	errInvalid := errors.New("invalid amount")
	attempts := 0
	err := retry.Do(context.Background(), retry.Policy{}, func(ctx context.Context) error {
		attempts++
		return retry.Permanent(errInvalid)
	})
	fmt.Println(attempts, errors.Is(err, errInvalid))
	fmt.Println(err)
	// Output:
	// 1 true
	// retry: permanent error after 1 attempt: invalid amount
}

func ExampleDoValue() {
	calls := 0
	n, err := retry.DoValue(context.Background(), retry.Policy{BaseDelay: time.Millisecond},
		func(ctx context.Context) (int, error) {
			calls++
			if calls == 1 {
				return 0, errors.New("flaky")
			}
			return 42, nil
		})
	fmt.Println(n, err)
	// Output: 42 <nil>
}

func ExampleDo_nested() {
	outer := retry.Policy{MaxAttempts: 3, BaseDelay: time.Millisecond}
	inner := retry.Policy{MaxAttempts: 5, BaseDelay: time.Millisecond}
	calls := 0
	_ = retry.Do(context.Background(), outer, func(ctx context.Context) error {
		// Inside another Do, this Do makes one attempt: 3 calls in all, not 15.
		return retry.Do(ctx, inner, func(ctx context.Context) error {
			calls++
			return errors.New("down")
		})
	})
	fmt.Println(calls)
	// Output: 3
}

func ExampleNewTransport() {
	// A server that is unavailable twice, then creates the payment.
	var (
		mu   sync.Mutex
		hits int
		keys = map[string]bool{}
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		hits++
		keys[r.Header.Get(retry.IdempotencyKeyHeader)] = true
		if hits <= 2 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintf(w, "created %s", body)
	}))
	defer srv.Close()

	client := &http.Client{Transport: retry.NewTransport(nil, retry.Policy{
		BaseDelay: time.Millisecond,
		MaxDelay:  10 * time.Millisecond, // also caps the server's Retry-After of 1s
	})}
	// No Idempotency-Key: the transport adds one, the same on every attempt.
	resp, err := client.Post(srv.URL, "application/json", strings.NewReader(`{"amount":42}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	mu.Lock()
	defer mu.Unlock()
	fmt.Println(resp.StatusCode, string(body))
	fmt.Println("attempts:", hits, "distinct keys:", len(keys))
	// Output:
	// 200 created {"amount":42}
	// attempts: 3 distinct keys: 1
}

func ExampleBudget() {
	// One budget per downstream service, shared by every call to it.
	budget := &retry.Budget{}
	p := retry.Policy{MaxAttempts: 100, BaseDelay: time.Millisecond, Budget: budget}
	down := func(ctx context.Context) error { return errors.New("connection refused") }

	err := retry.Do(context.Background(), p, down)
	var re *retry.Error
	errors.As(err, &re)
	fmt.Println(re.Reason, re.Attempts, budget.Tokens())

	err = retry.Do(context.Background(), p, down) // fails fast: no retry
	errors.As(err, &re)
	fmt.Println(re.Reason, re.Attempts, budget.Tokens())
	// Output:
	// retry budget exhausted 5 5
	// retry budget exhausted 1 4
}

func ExampleBreaker() {
	// One breaker per downstream service, shared by every call to it.
	payments := retry.NewBreaker(retry.BreakerConfig{Name: "payments", Window: 10, MinCalls: 4, OpenFor: time.Minute})
	p := retry.Policy{MaxAttempts: 1, Breaker: payments}
	down := func(ctx context.Context) error { return errors.New("connection refused") }

	for range 4 {
		_ = retry.Do(context.Background(), p, down)
	}
	fmt.Println(payments.State())

	calls := 0
	err := retry.Do(context.Background(), p, func(ctx context.Context) error { calls++; return nil })
	var oe *retry.OpenError
	errors.As(err, &oe)
	fmt.Println(calls, errors.Is(err, retry.ErrCircuitOpen), time.Until(oe.ProbeAt) > 59*time.Second)
	// Output:
	// open
	// 0 true true
}

func ExampleHonorDeadline() {
	// The server stops working when its caller stops waiting.
	srv := httptest.NewServer(retry.HonorDeadline(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(10 * time.Second): // slow work
			fmt.Fprint(w, "done")
		case <-r.Context().Done():
			_, hasDeadline := r.Context().Deadline() // from the X-Request-Timeout-Ms header
			fmt.Println("server: work abandoned; deadline from the caller:", hasDeadline)
			panic(http.ErrAbortHandler) // send nothing: nobody is waiting
		}
	})))
	defer srv.Close()

	client := &http.Client{Transport: retry.NewTransport(nil, retry.Policy{MaxAttempts: 1})}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	_, err := client.Do(req) // carries X-Request-Timeout-Ms: 49 (or so)
	fmt.Println("client: gave up:", err != nil)
	time.Sleep(20 * time.Millisecond) // let the server print
	// Unordered output:
	// server: work abandoned; deadline from the caller: true
	// client: gave up: true
}

func ExamplePolicy_observe() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	p := retry.Policy{
		MaxDelay: time.Minute,
		Observe: func(_ context.Context, e retry.Event) {
			if e.GaveUp {
				fmt.Println("gave up after attempt", e.Attempt, "-", e.Reason)
			}
		},
	}
	// The server asks for 30 s; the caller has 1 s: Do stops at once with the 429 as the cause.
	err := retry.Do(ctx, p, func(ctx context.Context) error {
		return &retry.StatusError{StatusCode: http.StatusTooManyRequests, RetryAfter: 30 * time.Second}
	})
	fmt.Println(err)
	// Output:
	// gave up after attempt 1 - deadline reached
	// retry: deadline reached after 1 attempt: http status 429 Too Many Requests
}
