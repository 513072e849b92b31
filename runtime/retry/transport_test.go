package retry

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// fast keeps transport tests quick: waits below 2ms.
var fast = Policy{BaseDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond}

type seen struct {
	method, key, body string
}

// flaky is a test server that answers the first len(statuses) requests with those statuses, then 200.
type flaky struct {
	mu       sync.Mutex
	statuses []int
	header   http.Header // added to the error responses
	requests []seen
}

func (f *flaky) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	n := len(f.requests)
	f.requests = append(f.requests, seen{r.Method, r.Header.Get(IdempotencyKeyHeader), string(body)})
	status := http.StatusOK
	if n < len(f.statuses) {
		status = f.statuses[n]
		for k, v := range f.header {
			w.Header()[k] = v
		}
	}
	f.mu.Unlock()
	w.WriteHeader(status)
	_, _ = io.WriteString(w, "reply "+strconv.Itoa(n+1))
}

func (f *flaky) seen() []seen {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]seen(nil), f.requests...)
}

func serve(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

func client(p Policy) *http.Client {
	return &http.Client{Transport: NewTransport(nil, p)}
}

func readAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestNewIdempotencyKey(t *testing.T) {
	keys := map[string]bool{}
	for range 1000 {
		k := NewIdempotencyKey()
		if !uuidV4.MatchString(k) {
			t.Fatalf("key %q is not a version 4 UUID", k)
		}
		if keys[k] {
			t.Fatalf("key %q repeated", k)
		}
		keys[k] = true
	}
}

func TestTransport503ThenOK(t *testing.T) {
	f := &flaky{statuses: []int{503, 503}}
	url := serve(t, f)
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"amount":42}`))
	resp, err := client(fast).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || readAll(t, resp) != "reply 3" {
		t.Fatalf("got %d, want 200 on the third attempt", resp.StatusCode)
	}
	got := f.seen()
	if len(got) != 3 {
		t.Fatalf("%d attempts, want 3", len(got))
	}
	key := got[0].key
	if !uuidV4.MatchString(key) {
		t.Errorf("unkeyed POST got key %q, want a UUID", key)
	}
	for i, s := range got {
		if s.key != key || s.body != `{"amount":42}` || s.method != "POST" {
			t.Errorf("attempt %d: %+v; want the same key %s and body on every attempt", i+1, s, key)
		}
	}
	if req.Header.Get(IdempotencyKeyHeader) != "" {
		t.Error("the caller's request was modified: it has a key")
	}
}

func TestTransportBounded(t *testing.T) {
	f := &flaky{statuses: []int{503, 503, 503, 503, 503, 503, 503, 503}}
	url := serve(t, f)
	p := fast
	p.MaxAttempts = 3
	resp, err := client(p).Get(url)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 503 || readAll(t, resp) != "reply 3" {
		t.Errorf("got %d, want the third 503 returned as is", resp.StatusCode)
	}
	if n := len(f.seen()); n != 3 {
		t.Errorf("%d attempts, want 3", n)
	}
}

func TestTransportStatuses(t *testing.T) {
	for _, tc := range []struct {
		method string
		key    string
		status int
		want   int // attempts
	}{
		{"GET", "", 502, 2}, {"GET", "", 503, 2}, {"GET", "", 504, 2}, {"GET", "", 408, 2}, {"GET", "", 429, 2},
		{"HEAD", "", 503, 2}, {"PUT", "", 503, 2}, {"DELETE", "", 503, 2}, {"OPTIONS", "", 503, 2},
		{"GET", "", 500, 2}, {"POST", "", 500, 2}, {"POST", "k1", 500, 2}, {"PATCH", "", 503, 2},
		{"POST", "", 400, 1}, {"GET", "", 400, 1}, {"GET", "", 401, 1}, {"GET", "", 403, 1}, {"GET", "", 404, 1},
		{"POST", "k2", 409, 1}, {"POST", "", 422, 1}, {"GET", "", 501, 1},
		{"PURGE", "", 503, 1}, {"PURGE", "", 500, 1}, {"PURGE", "k3", 503, 2},
	} {
		f := &flaky{statuses: []int{tc.status}}
		url := serve(t, f)
		req, _ := http.NewRequest(tc.method, url, nil)
		if tc.key != "" {
			req.Header.Set(IdempotencyKeyHeader, tc.key)
		}
		resp, err := client(fast).Do(req)
		if err != nil {
			t.Fatalf("%s %d: %v", tc.method, tc.status, err)
		}
		resp.Body.Close()
		got := f.seen()
		if len(got) != tc.want {
			t.Errorf("%s (key %q) answered %d: %d attempts, want %d", tc.method, tc.key, tc.status, len(got), tc.want)
		}
		wantStatus := 200
		if tc.want == 1 {
			wantStatus = tc.status
		}
		if resp.StatusCode != wantStatus {
			t.Errorf("%s %d: final status %d, want %d", tc.method, tc.status, resp.StatusCode, wantStatus)
		}
		if tc.key != "" {
			for _, s := range got {
				if s.key != tc.key {
					t.Errorf("%s: the caller's key %q became %q", tc.method, tc.key, s.key)
				}
			}
		}
	}
}

func TestTransportRetryAfterClamped(t *testing.T) {
	for _, value := range []string{"3600", time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)} {
		_, waits, _, el := getRetryAfter(t, Policy{BaseDelay: time.Millisecond, MaxDelay: 20 * time.Millisecond}, value)
		if el > 2*time.Second {
			t.Errorf("Retry-After %s: took %v", value, el)
		}
		if len(waits) != 1 || waits[0] != 20*time.Millisecond {
			t.Errorf("Retry-After %s: waits %v, want [20ms] (clamped to MaxDelay)", value, waits)
		}
	}
	// A Retry-After that ends past the deadline: no wait, no doomed attempt; the 503 itself is returned.
	resp, waits, f, el := getRetryAfter(t, Policy{MaxDelay: time.Hour, Deadline: 50 * time.Millisecond}, "3")
	if len(waits) != 0 || resp.StatusCode != 503 || len(f.seen()) != 1 || el > 40*time.Millisecond {
		t.Errorf("waits %v, status %d, %d attempts in %v; want the first 503 back at once", waits, resp.StatusCode,
			len(f.seen()), el)
	}
}

// getRetryAfter GETs, through a client with p, a server that answers 503
// with Retry-After: value first. It returns the response (its body
// closed), the waits p's OnRetry saw, the server, and how long the GET
// took.
func getRetryAfter(t *testing.T, p Policy, value string) (*http.Response, []time.Duration, *flaky, time.Duration) {
	t.Helper()
	f := &flaky{statuses: []int{503}, header: http.Header{"Retry-After": {value}}}
	url := serve(t, f)
	var waits []time.Duration
	p.OnRetry = func(_ int, _ error, d time.Duration) { waits = append(waits, d) }
	start := time.Now()
	resp, err := client(p).Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp, waits, f, time.Since(start)
}

func TestTransportBodyWithoutGetBody(t *testing.T) {
	f := &flaky{statuses: []int{503, 502}}
	url := serve(t, f)
	body := strings.Repeat("x", 1000)
	// io.MultiReader hides the type, so NewRequest sets no GetBody.
	req, _ := http.NewRequest(http.MethodPut, url, io.MultiReader(strings.NewReader(body)))
	if req.GetBody != nil {
		t.Fatal("test setup: GetBody is set")
	}
	resp, err := client(fast).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	got := f.seen()
	if len(got) != 3 {
		t.Fatalf("%d attempts, want 3", len(got))
	}
	for i, s := range got {
		if s.body != body {
			t.Errorf("attempt %d sent %d bytes, want the same %d", i+1, len(s.body), len(body))
		}
	}
}

func TestTransportLargeBodySentOnce(t *testing.T) {
	f := &flaky{statuses: []int{503}}
	url := serve(t, f)
	body := bytes.Repeat([]byte("y"), MaxBufferedBody+10)
	req, _ := http.NewRequest(http.MethodPut, url, io.MultiReader(bytes.NewReader(body)))
	resp, err := client(fast).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	got := f.seen()
	if len(got) != 1 || resp.StatusCode != 503 || len(got[0].body) != len(body) {
		t.Errorf("large unrewindable body: %d attempts, status %d; want one full attempt", len(got), resp.StatusCode)
	}
}

// fakeRT answers from a script and records what happened to the bodies.
type fakeRT struct {
	mu     sync.Mutex
	script []func(*http.Request) (*http.Response, error)
	bodies []*trackedBody
	calls  int
}

type trackedBody struct {
	r      *strings.Reader
	closed bool
}

func (b *trackedBody) Read(p []byte) (int, error) { return b.r.Read(p) }
func (b *trackedBody) Close() error               { b.closed = true; return nil }

func (f *fakeRT) RoundTrip(r *http.Request) (*http.Response, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.Body != nil {
		_, _ = io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	i := min(f.calls, len(f.script)-1)
	f.calls++
	return f.script[i](r)
}

func (f *fakeRT) status(code int, body string) func(*http.Request) (*http.Response, error) {
	return func(r *http.Request) (*http.Response, error) {
		b := &trackedBody{r: strings.NewReader(body)}
		f.bodies = append(f.bodies, b)
		return &http.Response{StatusCode: code, Header: http.Header{}, Body: b, Request: r}, nil
	}
}

func TestTransportDrainsDiscardedResponses(t *testing.T) {
	f := &fakeRT{}
	big := strings.Repeat("z", 3*maxDrain)
	f.script = []func(*http.Request) (*http.Response, error){
		f.status(503, "busy"), f.status(502, big), f.status(200, "ok")}
	rt := NewTransport(f, fast)
	req, _ := http.NewRequest(http.MethodGet, "http://example.invalid/", nil)
	resp, err := rt.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	if readAll(t, resp) != "ok" {
		t.Fatal("wrong final response")
	}
	if len(f.bodies) != 3 {
		t.Fatalf("%d responses, want 3", len(f.bodies))
	}
	for i, b := range f.bodies[:2] {
		if !b.closed {
			t.Errorf("discarded response %d not closed", i+1)
		}
	}
	if f.bodies[0].r.Len() != 0 {
		t.Error("small discarded response not drained")
	}
	if left := f.bodies[1].r.Len(); left != len(big)-maxDrain {
		t.Errorf("large discarded response: %d bytes left unread, want %d (bounded drain)", left, len(big)-maxDrain)
	}
}

func TestTransportErrors(t *testing.T) {
	// A closed port: connection refused on every attempt.
	p := fast
	p.MaxAttempts = 3
	calls := 0
	p.OnRetry = func(int, error, time.Duration) { calls++ }
	_, err := client(p).Get(closedURL(t))
	var re *Error
	if !errors.As(err, &re) || re.Reason != ReasonExhausted || re.Attempts != 3 || calls != 2 {
		t.Fatalf("refused connection: %v (%d retries); want attempts exhausted after 3", err, calls)
	}
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("%v does not wrap ECONNREFUSED", err)
	}

	// A connection dropped once, then a good answer.
	url, requests := serveFirst(t, func(w http.ResponseWriter, r *http.Request) {
		c, _, _ := w.(http.Hijacker).Hijack()
		c.Close()
	}, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "fine")
	})
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader("payload"))
	resp, err := client(fast).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if n := requests(); readAll(t, resp) != "fine" || n != 2 {
		t.Errorf("dropped connection: %d requests, want 2", n)
	}
}

// serveFirst serves first to the first request and then to the others,
// and returns the URL and a count of the requests so far.
func serveFirst(t *testing.T, first, then http.HandlerFunc) (string, func() int) {
	var n int
	var mu sync.Mutex
	url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		h := then
		if n == 1 {
			h = first
		}
		mu.Unlock()
		h(w, r)
	}))
	return url, func() int {
		mu.Lock()
		defer mu.Unlock()
		return n
	}
}

func TestTransportCancelDuringWait(t *testing.T) {
	f := &flaky{statuses: []int{503, 503}, header: http.Header{"Retry-After": {"60"}}}
	url := serve(t, f)
	ctx, cancel := context.WithCancel(context.Background())
	p := Policy{MaxDelay: time.Minute, Deadline: 2 * time.Minute, OnRetry: func(int, error, time.Duration) {
		time.AfterFunc(5*time.Millisecond, cancel)
	}}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	start := time.Now()
	_, err := client(p).Do(req)
	if el := time.Since(start); el > time.Second {
		t.Errorf("cancel took %v to stop the wait", el)
	}
	var re *Error
	if !errors.As(err, &re) || re.Reason != ReasonContext || !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want a context error", err)
	}
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != 503 || se.RetryAfter != time.Minute {
		t.Errorf("err = %v, want it to wrap the last 503 with its Retry-After", err)
	}
}

func TestTransportAttemptTimeout(t *testing.T) {
	url, requests := serveFirst(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}, func(w http.ResponseWriter, r *http.Request) {
		w.(http.Flusher).Flush()
		time.Sleep(30 * time.Millisecond) // the body arrives after a while: the timeout must not cut it
		io.WriteString(w, "late but whole")
	})
	p := fast
	p.AttemptTimeout = 500 * time.Millisecond
	resp, err := client(p).Get(url)
	if err != nil {
		t.Fatal(err)
	}
	got := readAll(t, resp)
	if n := requests(); got != "late but whole" || n != 2 {
		t.Errorf("body %q after %d requests", got, n)
	}
}

func TestTransportNested(t *testing.T) {
	f := &flaky{statuses: []int{503, 503, 503, 503, 503, 503, 503, 503, 503}}
	url := serve(t, f)
	c := client(fast)
	outer := fast
	outer.MaxAttempts = 3
	err := Do(context.Background(), outer, func(ctx context.Context) error { return getWith(ctx, c, url) })
	if n := len(f.seen()); n != 3 {
		t.Errorf("transport inside Do: %d requests, want 3 (one layer)", n)
	}
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != 503 {
		t.Errorf("err = %v, want the 503", err)
	}
}

func TestTransportRequestNotModified(t *testing.T) {
	f := &flaky{statuses: []int{503}}
	url := serve(t, f)
	req, _ := http.NewRequest(http.MethodPatch, url, strings.NewReader("b"))
	req.Header = nil
	before := *req
	resp, err := NewTransport(nil, fast).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if req.Header != nil || req.Method != before.Method || req.URL != before.URL || req.Context() != before.Context() {
		t.Error("RoundTrip modified the caller's request")
	}
	if got := f.seen(); len(got) != 2 || got[0].key == "" || got[0].key != got[1].key {
		t.Errorf("PATCH with nil header: %+v; want two attempts with one key", got)
	}
}

func TestResponseError(t *testing.T) {
	if ResponseError(&http.Response{StatusCode: 204}) != nil {
		t.Error("204 is an error")
	}
	err := ResponseError(&http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {"7"}}})
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != 429 || se.RetryAfter != 7*time.Second {
		t.Errorf("ResponseError(429) = %#v", err)
	}
	if err.Error() != "http status 429 Too Many Requests" {
		t.Errorf("message %q", err.Error())
	}
}

func TestTransportBudget(t *testing.T) {
	f := &flaky{statuses: make([]int, 100)}
	for i := range f.statuses {
		f.statuses[i] = 503
	}
	url := serve(t, f)
	p := fast
	p.MaxAttempts = 100
	p.Budget = &Budget{}
	c := client(p)
	for i, want := range []int{5, 1, 1} {
		before := len(f.seen())
		resp, err := c.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := len(f.seen()) - before; got != want || resp.StatusCode != 503 {
			t.Errorf("request %d: %d attempts, status %d; want %d attempts and the 503", i+1, got, resp.StatusCode, want)
		}
	}
}

func TestTransportNestedAllowed(t *testing.T) {
	f := &flaky{statuses: []int{503, 503}}
	url := serve(t, f)
	p := fast
	p.AllowNested = true
	c := client(p)
	err := Do(context.Background(), Policy{MaxAttempts: 1}, func(ctx context.Context) error { return getWith(ctx, c, url) })
	if err != nil || len(f.seen()) != 3 {
		t.Errorf("AllowNested transport inside Do: %d requests, %v; want 3 and success", len(f.seen()), err)
	}
}

// getWith sends a GET of url with c and returns ResponseError of the
// answer (nil for a success).
func getWith(ctx context.Context, c *http.Client, url string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return ResponseError(resp)
}
