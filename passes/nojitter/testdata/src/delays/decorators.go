package delays

import (
	"math"
	"math/rand"
	"net/http"
	"time"
)

// go-autorest's retry decorators: the loop is in a func literal that an
// exported decorator returns, and it waits through a helper that waits
// through another (DelayForBackoff calls DelayForBackoffWithCap, which
// selects on time.After of 2^attempt seconds).

type Sender interface {
	Do(*http.Request) (*http.Response, error)
}

type SenderFunc func(*http.Request) (*http.Response, error)

func (sf SenderFunc) Do(r *http.Request) (*http.Response, error) { return sf(r) }

type SendDecorator func(Sender) Sender

func DoRetryForAttempts(attempts int, backoff time.Duration) SendDecorator {
	return func(s Sender) Sender {
		return SenderFunc(func(r *http.Request) (resp *http.Response, err error) {
			for attempt := 0; attempt < attempts; attempt++ {
				resp, err = s.Do(r)
				if err == nil {
					return resp, err
				}
				if !DelayForBackoff(backoff, attempt, r.Context().Done()) { // want `deterministic backoff between retry attempts has no jitter`
					return nil, r.Context().Err()
				}
			}
			return resp, err
		})
	}
}

func DelayForBackoff(backoff time.Duration, attempt int, cancel <-chan struct{}) bool {
	return DelayForBackoffWithCap(backoff, 0, attempt, cancel)
}

func DelayForBackoffWithCap(backoff, cap time.Duration, attempt int, cancel <-chan struct{}) bool {
	d := time.Duration(backoff.Seconds()*math.Pow(2, float64(attempt))) * time.Second
	if cap > 0 && d > cap {
		d = cap
	}
	select {
	case <-time.After(d):
		return true
	case <-cancel:
		return false
	}
}

// The same chain with a constant wait passed through both helpers.
func sendFixed(s Sender, r *http.Request) (resp *http.Response, err error) {
	for attempt := 0; attempt < 3; attempt++ {
		if resp, err = s.Do(r); err == nil {
			return resp, nil
		}
		pauseOuter(r, 2*time.Second) // want `constant wait between retry attempts has no jitter`
	}
	return resp, err
}

func pauseOuter(r *http.Request, d time.Duration) { pauseInner(r.Context().Done(), d) }

func pauseInner(cancel <-chan struct{}, d time.Duration) {
	select {
	case <-time.After(d):
	case <-cancel:
	}
}

// ---- look-alikes

// The inner helper adds jitter: the chain's wait is jittered.
func sendJittered(s Sender, r *http.Request) (resp *http.Response, err error) {
	for attempt := 0; attempt < 3; attempt++ {
		if resp, err = s.Do(r); err == nil {
			return resp, nil
		}
		waitOuter(attempt)
	}
	return resp, err
}

func waitOuter(attempt int) { waitInner(time.Second << attempt) }

func waitInner(d time.Duration) { time.Sleep(time.Duration(rand.Int63n(int64(d)))) }

// A helper three deep: the wait summaries follow helpers to any depth, and
// the constant second deep3 sleeps is the loop's wait, with no jitter.
func sendDeep(s Sender, r *http.Request) (resp *http.Response, err error) {
	for attempt := 0; attempt < 3; attempt++ {
		if resp, err = s.Do(r); err == nil {
			return resp, nil
		}
		deep1(time.Second) // want `constant wait between retry attempts has no jitter`
	}
	return resp, err
}

func deep1(d time.Duration) { deep2(d) }
func deep2(d time.Duration) { deep3(d) }
func deep3(d time.Duration) { time.Sleep(d) }
