// Package predicate: retries decided by a predicate on the response, as
// generated API SDKs write them.
package predicate

import (
	"math"
	"math/rand"
	"net/http"
	"time"
)

func shouldRetry(res *http.Response) bool {
	return res == nil || res.StatusCode == http.StatusTooManyRequests || res.StatusCode >= 500
}

func backoffDelay(n int) time.Duration {
	return time.Duration(math.Pow(2, float64(n))) * 100 * time.Millisecond
}

func jitteredDelay(n int) time.Duration {
	d := backoffDelay(n)
	return d/2 + time.Duration(rand.Int63n(int64(d/2)))
}

func send(c *http.Client, req *http.Request, max int) (*http.Response, error) {
	do := c.Do
	var res *http.Response
	var err error
	for n := 0; n <= max; n++ {
		res, err = do(req)
		if !shouldRetry(res) || n == max {
			break
		}
		time.Sleep(backoffDelay(n)) // want `deterministic backoff between retry attempts has no jitter`
	}
	return res, err
}

func sendStatus(c *http.Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 4; i++ {
		res, err := c.Do(req)
		if res != nil && res.StatusCode != http.StatusServiceUnavailable {
			return res, err
		}
		time.Sleep(time.Second) // want `constant wait between retry attempts has no jitter`
	}
	return nil, nil
}

// sendJittered is the look-alike: the same loop with a jittered delay.
func sendJittered(c *http.Client, req *http.Request, max int) (*http.Response, error) {
	var res *http.Response
	var err error
	for n := 0; n <= max; n++ {
		res, err = c.Do(req)
		if !shouldRetry(res) || n == max {
			break
		}
		time.Sleep(jitteredDelay(n))
	}
	return res, err
}

type job struct{ Done bool }

func status() (*job, error) { return nil, nil }
func finished(j *job) bool  { return j != nil && j.Done }

// poll is the other look-alike: it waits for a state, it does not retry.
func poll() {
	for {
		j, _ := status()
		if finished(j) {
			return
		}
		time.Sleep(5 * time.Second)
	}
}
