package retry

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

func TestDeadlinePropagated(t *testing.T) {
	type visit struct {
		header   string
		received time.Time
		deadline time.Time
		hasDL    bool
		ended    time.Time
		err      error
	}
	var mu sync.Mutex
	var visits []visit
	h := HonorDeadline(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v := visit{header: r.Header.Get(DeadlineHeader), received: time.Now()}
		v.deadline, v.hasDL = r.Context().Deadline()
		mu.Lock()
		first := len(visits) == 0
		mu.Unlock()
		if first {
			w.WriteHeader(http.StatusServiceUnavailable) // the retry must carry a smaller value
		} else {
			select { // the server's work: much longer than the caller waits
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
			v.err = r.Context().Err()
		}
		v.ended = time.Now()
		if !first {
			// Answer late, so that the client sees its own deadline rather than this response (the server's
			// deadline is a little earlier than the client's).
			time.Sleep(150 * time.Millisecond)
		}
		mu.Lock()
		visits = append(visits, v)
		mu.Unlock()
	}))
	url := serve(t, h)
	p := Policy{BaseDelay: 20 * time.Millisecond, MaxDelay: 20 * time.Millisecond}
	c := client(p)
	const timeout = 400 * time.Millisecond
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if _, err := c.Do(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the caller's deadline", err)
	}
	deadline := start.Add(timeout)
	var all []visit
	for range 100 { // the handler may finish just after the client returned
		mu.Lock()
		all = append(all[:0], visits...)
		mu.Unlock()
		if len(all) == 2 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(all) != 2 {
		t.Fatalf("%d requests reached the server, want 2", len(all))
	}
	var prev int64 = timeout.Milliseconds() + 1
	for i, v := range all {
		ms, err := strconv.ParseInt(v.header, 10, 64)
		if err != nil || ms <= 0 || ms >= prev {
			t.Errorf("attempt %d: %s = %q; want a positive number of ms, below %d", i+1, DeadlineHeader, v.header, prev)
		}
		prev = ms
		// The header is relative: the server's deadline is the caller's plus the request's transit time, which
		// is at most v.received - start.
		if !v.hasDL || v.deadline.After(deadline.Add(v.received.Sub(start)+time.Millisecond)) ||
			v.deadline.Before(deadline.Add(-50*time.Millisecond)) {
			t.Errorf("attempt %d: server deadline %v (set %v), want about %v", i+1, v.deadline, v.hasDL, deadline)
		}
	}
	if v := all[1]; v.err == nil || v.ended.After(deadline.Add(100*time.Millisecond)) {
		t.Errorf("the server's work ran until %v after the caller's deadline (ctx err %v)", v.ended.Sub(deadline), v.err)
	}
}

func TestHonorDeadline(t *testing.T) {
	run := func(ctx context.Context, values ...string) (time.Time, bool, error) {
		var dl time.Time
		var ok bool
		var err error
		h := HonorDeadline(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			dl, ok = r.Context().Deadline()
			if ok {
				<-r.Context().Done()
				err = r.Context().Err()
			}
		}))
		r := httptest.NewRequestWithContext(ctx, http.MethodGet, "/", nil)
		for _, v := range values {
			r.Header.Add(DeadlineHeader, v)
		}
		h.ServeHTTP(httptest.NewRecorder(), r)
		return dl, ok, err
	}
	start := time.Now()
	dl, ok, err := run(context.Background(), "50")
	if !ok || dl.Before(start.Add(50*time.Millisecond)) || dl.After(time.Now()) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("50ms: deadline in %v (%v), ctx err %v", dl.Sub(start), ok, err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("handler ran %v", el)
	}
	// Never extends.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	parent, _ := ctx.Deadline()
	if dl, _, _ := run(ctx, "600000"); !dl.Equal(parent) {
		t.Errorf("a larger header moved the deadline from %v to %v", parent, dl)
	}
	// Malformed values are ignored.
	for _, v := range []string{"", "abc", "-5", "+5", "1.5", " 10", "10ms", "1e3", "0x10", "9999999999999"} {
		if _, ok, _ := run(context.Background(), v); ok {
			t.Errorf("header %q set a deadline", v)
		}
	}
	// Several values: the smallest well-formed one.
	start = time.Now()
	if dl, ok, _ := run(context.Background(), "junk", "90000", "20"); !ok || dl.After(start.Add(25*time.Millisecond)) {
		t.Errorf("values junk, 90000, 20: deadline in %v", dl.Sub(start))
	}
	// 0: the caller has no time left.
	if _, ok, err := run(context.Background(), "0"); !ok || err == nil {
		t.Error("0 did not give a done context")
	}
}

func TestDeadlineHeaderOptions(t *testing.T) {
	var mu sync.Mutex
	got := map[string]string{}
	url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got[r.URL.Path] = r.Header.Get(DeadlineHeader) + "|" + r.Header.Get("Grpc-Ish-Timeout")
		mu.Unlock()
	}))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for path, p := range map[string]Policy{
		"/default": {}, "/custom": {DeadlineHeader: "Grpc-Ish-Timeout"}, "/off": {DeadlineHeader: "-"},
	} {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+path, nil)
		resp, err := client(p).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if req.Header.Get(DeadlineHeader) != "" || req.Header.Get("Grpc-Ish-Timeout") != "" {
			t.Errorf("%s: the caller's request was modified", path)
		}
	}
	// No deadline: no header.
	resp, err := client(Policy{}).Get(url + "/none")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	mu.Lock()
	defer mu.Unlock()
	near := func(v string) bool { n, err := strconv.Atoi(v); return err == nil && n > 50000 && n <= 60000 }
	if d := got["/default"]; len(d) < 2 || !near(d[:len(d)-1]) {
		t.Errorf("default header: %q", d)
	}
	if c := got["/custom"]; len(c) < 2 || c[0] != '|' || !near(c[1:]) {
		t.Errorf("custom header: %q", c)
	}
	if got["/off"] != "|" || got["/none"] != "|" {
		t.Errorf("off: %q, no deadline: %q; want no header", got["/off"], got["/none"])
	}
	// HonorDeadlineHeader reads the custom name.
	var ok bool
	h := HonorDeadlineHeader("grpc-ish-timeout")(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, ok = r.Context().Deadline()
	}))
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Header.Set("Grpc-Ish-Timeout", "1000")
	h.ServeHTTP(httptest.NewRecorder(), r)
	if !ok {
		t.Error("HonorDeadlineHeader ignored its header")
	}
}
