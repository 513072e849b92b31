package timeouts

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"
)

var errStatus = errors.New("status")

func check(resp *http.Response, err error) error {
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 500 {
		return errStatus
	}
	return nil
}

// Positives in hand-written retry loops.

func packageGet(url string) error {
	var err error
	for i := 0; i < 3; i++ {
		resp, e := http.Get(url) // want `http\.Get in a retry can hang: no client Timeout, no context deadline; set either, or use retry\.NewTransport`
		if err = check(resp, e); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func packagePost(url string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = check(http.Post(url, "text/plain", strings.NewReader("x"))); err == nil { // want `http\.Post in a retry can hang: no client Timeout, no context deadline`
			return nil
		}
	}
	return err
}

func defaultClientDo(url string) error {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		if err = check(http.DefaultClient.Do(req)); err == nil { // want `\(\*http\.Client\)\.Do in a retry can hang: no client Timeout, no context deadline`
			return nil
		}
	}
	return err
}

func literalClient(url string) error {
	client := &http.Client{}
	var err error
	for i := 0; i < 3; i++ {
		if err = check(client.Get(url)); err == nil { // want `\(\*http\.Client\)\.Get in a retry can hang: no client Timeout, no context deadline`
			return nil
		}
	}
	return err
}

func newClientBackground(url string) error {
	client := new(http.Client)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		if err = check(client.Do(req)); err == nil { // want `\(\*http\.Client\)\.Do in a retry can hang: no client Timeout, no context deadline`
			return nil
		}
	}
	return err
}

func zeroValueClient(url string) error {
	var client http.Client
	var err error
	for {
		req, _ := http.NewRequestWithContext(context.TODO(), "GET", url, nil)
		if err = check(client.Do(req)); err == nil { // want `\(\*http\.Client\)\.Do in a retry can hang: no client Timeout, no context deadline`
			return nil
		}
		time.Sleep(time.Second)
	}
}

func explicitZeroTimeout(url string) error {
	client := &http.Client{Timeout: 0}
	var err error
	for i := 0; i < 3; i++ {
		base, _ := http.NewRequest("GET", url, nil)
		req := base.WithContext(context.Background())
		if err = check(client.Do(req)); err == nil { // want `\(\*http\.Client\)\.Do in a retry can hang: no client Timeout, no context deadline`
			return nil
		}
	}
	return err
}

// Look-alikes in hand-written loops: not reported.

func clientWithTimeout(url string) error {
	client := &http.Client{Timeout: 5 * time.Second}
	var err error
	for i := 0; i < 3; i++ {
		if err = check(client.Get(url)); err == nil {
			return nil
		}
	}
	return err
}

func timeoutSetLater(url string) error {
	client := &http.Client{}
	client.Timeout = 5 * time.Second
	var err error
	for i := 0; i < 3; i++ {
		if err = check(client.Get(url)); err == nil {
			return nil
		}
	}
	return err
}

func perAttemptDeadline(url string) error {
	client := &http.Client{}
	var err error
	for i := 0; i < 3; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
		err = check(client.Do(req))
		cancel()
		if err == nil {
			return nil
		}
	}
	return err
}

func deadlineAboveTheLoop(url string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var err error
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
		if err = check(http.DefaultClient.Do(req)); err == nil {
			return nil
		}
	}
	return err
}

func callersContext(ctx context.Context, url string) error {
	var err error
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
		if err = check(http.DefaultClient.Do(req)); err == nil { // the caller may have set a deadline
			return nil
		}
	}
	return err
}

type service struct{ client *http.Client }

func (s *service) fieldClient(url string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = check(s.client.Get(url)); err == nil { // a client from elsewhere: unknown
			return nil
		}
	}
	return err
}

func paramClient(client *http.Client, url string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = check(client.Get(url)); err == nil {
			return nil
		}
	}
	return err
}

func configure(c *http.Client) { c.Timeout = time.Second }

func escapingClient(url string) error {
	client := &http.Client{}
	configure(client)
	var err error
	for i := 0; i < 3; i++ {
		if err = check(client.Get(url)); err == nil {
			return nil
		}
	}
	return err
}

func customTransport(url string) error {
	client := &http.Client{Transport: &http.Transport{ResponseHeaderTimeout: time.Second}}
	var err error
	for i := 0; i < 3; i++ {
		if err = check(client.Get(url)); err == nil {
			return nil
		}
	}
	return err
}

func notARetry(urls []string) {
	for _, u := range urls {
		resp, err := http.Get(u) // a loop over items: not a retry
		if err != nil {
			continue
		}
		resp.Body.Close()
	}
}

func onceOnly(url string) error {
	return check(http.Get(url)) // no retry at all
}
