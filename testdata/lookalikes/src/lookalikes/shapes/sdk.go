package shapes

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/idemlint/idemlint/runtime/retry"
)

// RequestConfig is a generated SDK's request: its method is a parameter of
// the builder, its key set once for every method but GET.
type RequestConfig struct {
	Method     string
	URL        string
	Body       []byte
	Header     http.Header
	HTTPClient *http.Client
	MaxRetries int
}

// NewRequestConfig builds a request and, for a method that is not
// idempotent, sets an idempotency key once, before any attempt.
func NewRequestConfig(method, url string, body []byte) *RequestConfig {
	cfg := &RequestConfig{Method: method, URL: url, Body: body, Header: http.Header{}, HTTPClient: &http.Client{Timeout: 60 * time.Second}, MaxRetries: 2}
	if method != http.MethodGet && method != http.MethodHead {
		cfg.Header.Set("Idempotency-Key", "sdk-retry-"+uuid.NewString())
	}
	return cfg
}

// Execute sends the request up to MaxRetries+1 times, with the key the
// builder set, jittered, honouring Retry-After, stopping on 4xx but 408,
// 409 and 429.
//
// lookalike unkeyedpost,retrystatus,nojitter openai-execute-unkeyed: a generated SDK's loop re-sending a POST whose method is a builder parameter
func (cfg *RequestConfig) Execute(ctx context.Context) (*http.Response, error) {
	var lastErr error
	for n := 0; n <= cfg.MaxRetries; n++ {
		req, err := http.NewRequestWithContext(ctx, cfg.Method, cfg.URL, bytes.NewReader(cfg.Body))
		if err != nil {
			return nil, err
		}
		req.Header = cfg.Header.Clone()
		resp, err := cfg.HTTPClient.Do(req)
		wait := time.Duration(rand.Int64N(int64(500*time.Millisecond) << n))
		switch {
		case err != nil:
			lastErr = err
		case resp.StatusCode == http.StatusRequestTimeout || resp.StatusCode == http.StatusConflict || resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
			if s, perr := strconv.Atoi(resp.Header.Get("Retry-After")); perr == nil && s > 0 && s < 60 {
				wait = time.Duration(s) * time.Second
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			lastErr = errors.New(resp.Status)
		default:
			return resp, nil
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return nil, lastErr
}

// CreateThing calls the builder with POST, as generated Create methods do.
func CreateThing(ctx context.Context, body []byte) (*http.Response, error) {
	return NewRequestConfig(http.MethodPost, "https://api.example.com/v1/things", body).Execute(ctx)
}

// NewAPIClient falls back to a client with a timeout when the caller gives
// none.
func NewAPIClient(hc *http.Client) *http.Client {
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	return hc
}

// CallWithFallback retries over a client the constructor chose, which
// has a timeout when the caller gave none.
//
// lookalike retrytimeout cloudflare-request-timeout: a constructor falling back to http.DefaultClient
func CallWithFallback(ctx context.Context, url string) error {
	hc := NewAPIClient(nil)
	return retry.Do(ctx, retry.Policy{MaxAttempts: 3, Deadline: time.Minute}, func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return retry.ResponseError(resp)
	})
}

// item is a queued occurrence, its uuid minted when it is queued.
type item struct {
	uuid    string
	body    []byte
	retries int
}

// AsyncSender POSTs queued items from a worker; a failed item is queued
// again with its uuid, at most three times.
type AsyncSender struct {
	mu    sync.Mutex
	queue []item
	hc    *http.Client
}

// Enqueue mints the item's uuid once.
func (s *AsyncSender) Enqueue(body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, item{uuid: uuid.NewString(), body: body})
}

// sendOne POSTs an item keyed by its uuid.
func (s *AsyncSender) sendOne(ctx context.Context, it item) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/item", bytes.NewReader(it.body))
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", it.uuid)
	resp, err := s.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return retry.ResponseError(resp)
}

// Flush sends what is queued; a transient failure is queued again, keyed
// by the same uuid, a permanent one dropped.
//
// lookalike unkeyedpost,retrystatus rollbar-async-unkeyed: an async worker re-queueing a POST with no key
func (s *AsyncSender) Flush(ctx context.Context) {
	s.mu.Lock()
	items := s.queue
	s.queue = nil
	s.mu.Unlock()
	for _, it := range items {
		err := s.sendOne(ctx, it)
		if err == nil || retry.Classify(err) != retry.ClassTransient || it.retries >= 3 {
			continue
		}
		it.retries++
		s.mu.Lock()
		s.queue = append(s.queue, it)
		s.mu.Unlock()
	}
}
