// Package override: a delay picked by "the users' function, or a default"
// (Tencent Cloud's safeDurationFunc) is the default's when users set none.
package override

import "time"

func exponential(n int) time.Duration { return time.Second << n }

type Settings struct{ Delay func(int) time.Duration }

func pick(f func(int) time.Duration) func(int) time.Duration {
	if f != nil {
		return f
	}
	return exponential
}

func call() error { return nil }

func (s *Settings) run() error {
	delay := pick(s.Delay)
	err := call()
	for n := 0; err != nil && n < 5; n++ {
		time.Sleep(delay(n)) // want "deterministic backoff between retry attempts has no jitter; wait a random duration in \\[0, d\\), e.g. retry.Jitter\\(d\\)"
		err = call()
	}
	return err
}
