// Package shapes holds the retry shapes of real code that the model learned
// from the recall corpus (testdata/recall), each beside a look-alike.
package shapes

import (
	"errors"
	"io"
	"time"
)

var errBusy = errors.New("busy")

func connect() error { return nil }
func send() error    { return nil }

// asynq's subscriber: the failure branch ends in a select whose every case
// leaves the pass (continue after the wait, return when stopped).
func reconnect(done <-chan struct{}, d time.Duration) {
	for { // want "loop cap=none deadline=in-scope waits=constant body"
		err := connect()
		if err != nil {
			select {
			case <-time.After(d):
				continue
			case <-done:
				return
			}
		}
		break
	}
}

// Look-alike: one case falls out of the select to the break, so the loop
// leaves on a failure: it makes one attempt.
func reconnectOnce(done <-chan struct{}, d time.Duration) {
	for {
		err := connect()
		if err != nil {
			select {
			case <-time.After(d):
			case <-done:
				return
			}
		}
		break
	}
}

// A switch whose every clause leaves, the default included.
func classify(d time.Duration) error {
	for { // want "loop cap=unknown deadline=unknown waits=constant body"
		err := connect()
		if err != nil {
			switch {
			case errors.Is(err, errBusy):
				time.Sleep(d)
				continue
			default:
				return err
			}
		}
		return nil
	}
}

// nats' publish: the loop condition repeats while the error is a given one
// (errors.Is holds only for a non-nil error), the attempt at the end.
func publish(d time.Duration) error {
	err := send()
	for r := 0; errors.Is(err, errBusy) && r < 3; r++ { // want "loop cap=3 deadline=none waits=constant body"
		time.Sleep(d)
		err = send()
	}
	return err
}

type reader interface{ Read([]byte) (int, error) }

// Look-alike: reading until io.EOF; !errors.Is holds for a nil error too.
func drain(r reader, buf []byte) {
	var err error
	for !errors.Is(err, io.EOF) {
		_, err = r.Read(buf)
	}
}

// kafka-go's writer: the delay comes from a helper whose arguments are the
// attempt and two methods returning a field or a default.
type writer struct {
	WriteBackoffMin, WriteBackoffMax time.Duration
}

func (w *writer) backoffMin() time.Duration {
	if w.WriteBackoffMin > 0 {
		return w.WriteBackoffMin
	}
	return 100 * time.Millisecond
}

func (w *writer) backoffMax() time.Duration {
	if w.WriteBackoffMax > 0 {
		return w.WriteBackoffMax
	}
	return time.Second
}

func backoff(attempt int, min, max time.Duration) time.Duration {
	d := time.Duration(attempt*attempt) * min
	if d > max {
		d = max
	}
	return d
}

func (w *writer) write() error {
	var err error
	for attempt := 0; attempt < 10; attempt++ { // want "loop cap=10 deadline=none waits=deterministic-growth body"
		if attempt != 0 {
			delay := backoff(attempt, w.backoffMin(), w.backoffMax())
			time.Sleep(delay)
		}
		if err = send(); err == nil {
			return nil
		}
	}
	return err
}
