package idempotency

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"time"
)

// Problem type URIs: every error answer of the middleware is an RFC 9457
// application/problem+json document whose "type" is one of these, so
// clients can tell the idempotency layer's answers from the application's.
const (
	problemBase = "https://github.com/idemlint/idemlint/blob/main/docs/runtime-idempotency.md#"
	// ProblemKeyMissing: 400, the method requires a key and none was sent.
	ProblemKeyMissing = problemBase + "idempotency-key-missing"
	// ProblemKeyInvalid: 400, the key is empty, too long, not printable
	// ASCII, or a malformed sf-string.
	ProblemKeyInvalid = problemBase + "idempotency-key-invalid"
	// ProblemScope: 400, the Scope hook rejected the request, or the scope
	// it returned cannot be stored (see CheckScope).
	ProblemScope = problemBase + "idempotency-scope-invalid"
	// ProblemKeyReused: 422, the key was used with a different request.
	ProblemKeyReused = problemBase + "idempotency-key-reused"
	// ProblemInProgress: 409, another attempt with this key is running.
	ProblemInProgress = problemBase + "idempotency-request-in-progress"
	// ProblemLeaseLost: 409, this attempt ran past its lease and a newer
	// attempt took the key over; its work was rolled back.
	ProblemLeaseLost = problemBase + "idempotency-lease-lost"
	// ProblemStoreUnavailable: 503, the store could not be reached; the
	// handler did not run or its work was rolled back.
	ProblemStoreUnavailable = problemBase + "idempotency-store-unavailable"
	// ProblemStoreFull: 503, a bounded store (MemoryStore) has no room for
	// a new key without forgetting a live one; the handler did not run.
	// Retry-After says when room may appear.
	ProblemStoreFull = problemBase + "idempotency-store-full"
	// ProblemStoreRejected: 400, the store cannot hold this request's key
	// or scope (ErrStoreRejected); retrying it cannot succeed, so there is
	// no Retry-After.
	ProblemStoreRejected = problemBase + "idempotency-store-rejected"
	// ProblemResponseUnstorable: 500, the store rejected the handler's
	// response (ErrStoreRejected on completion); the handler's work was
	// rolled back and the key released. No Retry-After.
	ProblemResponseUnstorable = problemBase + "idempotency-response-unstorable"
	// ProblemBodyTooLarge: 413, the request body exceeds the limit.
	ProblemBodyTooLarge = problemBase + "idempotency-body-too-large"
	// ProblemBodyUnreadable: 400, reading the request body failed.
	ProblemBodyUnreadable = problemBase + "idempotency-body-unreadable"
	// ProblemResponseTooLarge: 500, the response exceeds the storable size;
	// the handler's work was rolled back.
	ProblemResponseTooLarge = problemBase + "idempotency-response-too-large"
)

// Defaults of the middleware's options.
const (
	DefaultHeader           = "Idempotency-Key"
	DefaultTTL              = 24 * time.Hour
	DefaultLease            = 30 * time.Second
	DefaultMaxBodyBytes     = 1 << 20
	DefaultMaxResponseBytes = 1 << 20
)

// Option configures Middleware.
type Option func(*config)

type config struct {
	header        string
	methods       map[string]bool
	optional      bool
	scope         func(*http.Request) (string, error)
	ttl, lease    time.Duration
	maxBody       int64
	maxResp       int
	replayHeaders []string
	storable      func(int) bool
	retryAfter503 time.Duration
	onError       func(*http.Request, error)
	observe       func(context.Context, Event)
}

// WithHeader sets the request header carrying the key (default
// Idempotency-Key).
func WithHeader(name string) Option { return func(c *config) { c.header = name } }

// WithMethods sets the methods the middleware handles (default POST and
// PATCH). Requests with other methods pass through untouched, key or not.
func WithMethods(methods ...string) Option {
	return func(c *config) {
		c.methods = make(map[string]bool, len(methods))
		for _, m := range methods {
			c.methods[m] = true
		}
	}
}

// WithOptionalKey lets requests without a key pass through without
// idempotency instead of answering 400.
func WithOptionalKey() Option { return func(c *config) { c.optional = true } }

// WithScope sets the hook returning the tenant a request's key belongs to:
// keys of different tenants never meet. Put every server-side attribute
// that must separate key spaces in it (account, and principal if clients
// of one account must not share keys). An error answers 400.
//
// The default scope is the empty tenant: all clients share one key space.
// That is only right for single-tenant services; a multi-tenant service must
// set a scope, or one client's key could replay another client's response.
func WithScope(scope func(r *http.Request) (string, error)) Option {
	return func(c *config) { c.scope = scope }
}

// WithTTL sets how long a key lives from its first request (default 24 h).
// Expiry is checked on every read; after it the key may be reused.
func WithTTL(d time.Duration) Option { return func(c *config) { c.ttl = d } }

// WithLease sets the lease of an attempt (default 30 s): while it runs, a
// duplicate gets 409; once it has passed without completion (a crash), a
// retry takes the key over. Set it above the slowest handler.
func WithLease(d time.Duration) Option { return func(c *config) { c.lease = d } }

// WithMaxBodyBytes limits the request body read for the fingerprint
// (default 1 MiB); a larger body answers 413.
func WithMaxBodyBytes(n int64) Option { return func(c *config) { c.maxBody = n } }

// WithMaxResponseBytes limits the response body stored for replay (default
// 1 MiB); a larger response is rolled back and answers 500.
func WithMaxResponseBytes(n int) Option { return func(c *config) { c.maxResp = n } }

// WithReplayHeaders sets the response headers stored and replayed (default
// Content-Type, Content-Encoding, Content-Language, Content-Location,
// Location, ETag and Last-Modified). Other headers are sent on the first
// answer only.
func WithReplayHeaders(names ...string) Option {
	return func(c *config) { c.replayHeaders = names }
}

// WithStorable sets which statuses are final and stored for replay. The
// default stores every status below 500 except the transient 408, 409, 423,
// 424, 425 and 429; 5xx is never stored, whatever this returns.
func WithStorable(f func(status int) bool) Option { return func(c *config) { c.storable = f } }

// WithErrorHandler receives store errors that do not change the answer
// (a failed release, for example) and the errors behind 503 answers.
func WithErrorHandler(f func(r *http.Request, err error)) Option {
	return func(c *config) { c.onError = f }
}

// WithObserver sets a function called once per request the middleware
// handles (not for the methods it passes through), after the answer is
// written, with what happened: the outcome, the scope, a hash of the key,
// the status, the durations and the store error if any. It runs on the
// request's goroutine and must be safe for concurrent use. SlogObserver
// logs the events; cmd/idemdemo counts them for /metrics.
func WithObserver(f func(ctx context.Context, e Event)) Option {
	return func(c *config) { c.observe = f }
}

func defaultStorable(status int) bool {
	switch status {
	case 408, 409, 423, 424, 425, 429:
		return false
	}
	return status < 500
}

// Middleware makes the handlers it wraps idempotent per key, as described
// in docs/runtime-idempotency.md:
//
//   - a new key runs the handler and stores the request's fingerprint and,
//     for a 2xx or deterministic 4xx, the final response;
//   - the same key with the same request, completed, replays the stored
//     status, body and allow-listed headers with Idempotent-Replayed: true,
//     without running the handler;
//   - the same key while the first attempt holds its lease answers 409 with
//     Retry-After; with a different request, 422;
//   - a missing key (on a handled method) or an invalid one answers 400, a
//     body over the limit 413, an unreachable store 503 with Retry-After;
//   - a 5xx, a panic (re-raised after the release) or a failed transaction
//     stores nothing and releases the key for a clean retry.
func Middleware(s Store, opts ...Option) func(http.Handler) http.Handler {
	cfg := config{
		header:        DefaultHeader,
		methods:       map[string]bool{http.MethodPost: true, http.MethodPatch: true},
		scope:         func(*http.Request) (string, error) { return "", nil },
		ttl:           DefaultTTL,
		lease:         DefaultLease,
		maxBody:       DefaultMaxBodyBytes,
		maxResp:       DefaultMaxResponseBytes,
		replayHeaders: []string{"Content-Type", "Content-Encoding", "Content-Language", "Content-Location", "Location", "ETag", "Last-Modified"},
		storable:      defaultStorable,
		retryAfter503: time.Second,
		onError:       func(*http.Request, error) {},
	}
	for _, o := range opts {
		o(&cfg)
	}
	return func(next http.Handler) http.Handler {
		replayable := make(map[string]bool, len(cfg.replayHeaders))
		for _, h := range cfg.replayHeaders {
			replayable[http.CanonicalHeaderKey(h)] = true
		}
		return &middleware{cfg: cfg, store: s, next: next, replayable: replayable}
	}
}

type middleware struct {
	cfg        config
	store      Store
	next       http.Handler
	replayable map[string]bool // canonical names of cfg.replayHeaders
}

func (m *middleware) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !m.cfg.methods[r.Method] {
		m.next.ServeHTTP(w, r)
		return
	}
	if m.cfg.observe == nil {
		m.serve(w, r, nil)
		return
	}
	ev := Event{start: time.Now()}
	defer func() { // deferred: a panicking handler's attempt is observed too
		ev.Duration = time.Since(ev.start)
		m.cfg.observe(r.Context(), ev)
	}()
	m.serve(w, r, &ev)
}

// serve handles a request of a handled method; ev, when not nil, collects
// the event for the observer.
func (m *middleware) serve(w http.ResponseWriter, r *http.Request, ev *Event) {
	values := r.Header.Values(m.cfg.header)
	if len(values) == 0 {
		if m.cfg.optional {
			ev.set(OutcomeUnkeyed, 0, nil)
			m.next.ServeHTTP(w, r)
			return
		}
		m.problem(w, ev, OutcomeBadRequest, http.StatusBadRequest, ProblemKeyMissing, "Idempotency-Key is missing",
			"This operation requires an "+m.cfg.header+" header.", 0)
		return
	}
	if len(values) > 1 {
		m.problem(w, ev, OutcomeBadRequest, http.StatusBadRequest, ProblemKeyInvalid, "Idempotency-Key is invalid",
			"Send exactly one "+m.cfg.header+" header.", 0)
		return
	}
	key, err := ParseKey(values[0])
	if err != nil {
		m.problem(w, ev, OutcomeBadRequest, http.StatusBadRequest, ProblemKeyInvalid, "Idempotency-Key is invalid", err.Error(), 0)
		return
	}
	tenant, err := m.cfg.scope(r)
	if err == nil {
		err = CheckScope(tenant)
	}
	if err != nil {
		m.problem(w, ev, OutcomeBadRequest, http.StatusBadRequest, ProblemScope, "Request scope is invalid", err.Error(), 0)
		return
	}
	if ev != nil {
		ev.Scope, ev.KeyHash = tenant, KeyHash(tenant, key)
	}
	c := &call{}
	body, err := m.readBody(w, r, c.buf[:0])
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			m.problem(w, ev, OutcomeBadRequest, http.StatusRequestEntityTooLarge, ProblemBodyTooLarge, "Request body is too large",
				fmt.Sprintf("The body exceeds %d bytes.", m.cfg.maxBody), 0)
			return
		}
		m.problem(w, ev, OutcomeBadRequest, http.StatusBadRequest, ProblemBodyUnreadable, "Request body unreadable", err.Error(), 0)
		return
	}
	c.body.Reset(body)
	r.Body = &c.body
	fp := Fingerprint(r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("Content-Type"), body)

	t0 := ev.clock()
	req := ClaimRequest{Tenant: tenant, Key: key, Fingerprint: fp, LeaseTTL: m.cfg.lease, TTL: m.cfg.ttl}
	var (
		claim ClaimResult
		work  Work
	)
	if cb, ok := m.store.(ClaimBeginner); ok {
		claim, work, err = cb.ClaimBegin(r.Context(), req)
	} else {
		claim, err = m.store.Claim(r.Context(), req)
	}
	ev.storeTime(t0)
	if err != nil {
		m.claimFailed(w, r, ev, err)
		return
	}
	switch claim.Outcome {
	case Completed:
		ev.set(OutcomeReplayed, claim.Response.Status, nil)
		replay(w, claim.Response)
		return
	case Mismatch:
		m.problem(w, ev, OutcomeMismatch, http.StatusUnprocessableEntity, ProblemKeyReused, "Idempotency-Key is already used",
			"This key was used with a different request; send a new key for a new request.", 0)
		return
	case InProgress:
		m.problem(w, ev, OutcomeInProgress, http.StatusConflict, ProblemInProgress, "A request is outstanding for this Idempotency-Key",
			"Retry with the same key after the Retry-After delay.", max(claim.RetryAfter, time.Millisecond))
		return
	case Acquired, TakenOver:
	default:
		m.unavailable(w, r, ev, fmt.Errorf("idempotency: store returned outcome %v", claim.Outcome))
		return
	}
	m.run(w, r, ev, c, tenant, key, claim, work)
}

// call is a keyed request's state past its body, allocated at once: the
// body replayed to the handler, the attempt, the recorded answer.
type call struct {
	body replayBody
	at   attempt
	rec  recorder
	buf  [512]byte // the request body, when it fits
}

// replayBody is the request body, read by the middleware, for the handler.
type replayBody struct{ bytes.Reader }

func (*replayBody) Close() error { return nil }

// readBody reads the request body, at most maxBody bytes (else an
// *http.MaxBytesError): into buf's capacity, or one buffer, of the declared
// Content-Length when there is one within the limit, else through
// http.MaxBytesReader.
func (m *middleware) readBody(w http.ResponseWriter, r *http.Request, buf []byte) ([]byte, error) {
	n := r.ContentLength
	if n < 0 || n > m.cfg.maxBody {
		return io.ReadAll(http.MaxBytesReader(w, r.Body, m.cfg.maxBody))
	}
	if int64(cap(buf)) > n {
		buf = buf[:n+1] // one more, to see the end
	} else {
		buf = make([]byte, n+1)
	}
	k, err := readFull(r.Body, buf)
	switch {
	case err != nil:
		return nil, err
	case int64(k) <= n:
		return buf[:k], nil
	}
	// Longer than declared: the rest, within the limit.
	rest, err := io.ReadAll(http.MaxBytesReader(w, r.Body, m.cfg.maxBody-n-1))
	return append(buf, rest...), err
}

// readFull reads into buf until it is full or the reader ends (io.EOF,
// which is not an error here).
func readFull(rd io.Reader, buf []byte) (int, error) {
	k := 0
	for k < len(buf) {
		nr, err := rd.Read(buf[k:])
		k += nr
		if err == io.EOF {
			return k, nil
		}
		if err != nil {
			return k, err
		}
	}
	return k, nil
}

// problem writes a problem answer and records it in ev.
func (m *middleware) problem(w http.ResponseWriter, ev *Event, o EventOutcome, status int, typ, title, detail string, retryAfter time.Duration) {
	ev.set(o, status, nil)
	writeProblem(w, status, typ, title, detail, retryAfter)
}

// claimFailed answers a failed claim by the error's class: a full store
// 503 (its own type), data the store cannot hold 400 (no Retry-After),
// anything else 503 with Retry-After (fail closed).
func (m *middleware) claimFailed(w http.ResponseWriter, r *http.Request, ev *Event, err error) {
	switch {
	case errors.Is(err, ErrStoreFull):
		m.cfg.onError(r, err)
		ra, ok := RetryAfter(err)
		if !ok {
			ra = m.cfg.retryAfter503
		}
		ev.set(OutcomeStoreFull, http.StatusServiceUnavailable, err)
		writeProblem(w, http.StatusServiceUnavailable, ProblemStoreFull, "Idempotency store full",
			"The request was not processed: the store has no room for a new key. Retry with the same key after the Retry-After delay.", ra)
	case errors.Is(err, ErrStoreRejected):
		m.cfg.onError(r, err)
		ev.set(OutcomeStoreRejected, http.StatusBadRequest, err)
		writeProblem(w, http.StatusBadRequest, ProblemStoreRejected, "Idempotency store rejected the request",
			"The request was not processed: its key or scope cannot be stored. Retrying it cannot succeed.", 0)
	default:
		m.unavailable(w, r, ev, err)
	}
}

func (m *middleware) unavailable(w http.ResponseWriter, r *http.Request, ev *Event, err error) {
	m.cfg.onError(r, err)
	ra, ok := RetryAfter(err)
	if !ok {
		ra = m.cfg.retryAfter503
	}
	ev.set(OutcomeStoreUnavailable, http.StatusServiceUnavailable, err)
	writeProblem(w, http.StatusServiceUnavailable, ProblemStoreUnavailable, "Idempotency store unavailable",
		"The request was not processed; retry with the same key.", ra)
}

// abort discards the attempt's work.
func (m *middleware) abort(r *http.Request, work Work) {
	if err := work.Abort(context.WithoutCancel(r.Context())); err != nil {
		m.cfg.onError(r, err)
	}
}

// release gives the key up with a context that outlives the request.
func (m *middleware) release(r *http.Request, l Lease) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), 5*time.Second)
	defer cancel()
	if err := m.store.Release(ctx, l); err != nil {
		m.cfg.onError(r, err)
	}
}

// run runs the handler under claim's lease, in work (begun by ClaimBegin)
// or, when work is nil, in a unit of work it begins.
func (m *middleware) run(w http.ResponseWriter, r *http.Request, ev *Event, c *call, tenant, key string, claim ClaimResult, work Work) {
	var err error
	if work == nil {
		if work, err = m.store.Begin(r.Context(), claim.Lease); err != nil {
			m.release(r, claim.Lease)
			m.unavailable(w, r, ev, err)
			return
		}
	}
	at := &c.at
	at.store, at.lease, at.work, at.tenant, at.key, at.steps = m.store, claim.Lease, work, tenant, key, claim.Steps
	ctx := work.Context(context.WithValue(r.Context(), attemptKey{}, at))
	rec := &c.rec
	rec.header, rec.max = make(http.Header, 4), m.cfg.maxResp
	finished := false
	defer func() {
		if finished {
			return
		}
		// The handler panicked: discard its work, release, re-panic.
		v := recover()
		m.abort(r, work)
		m.release(r, claim.Lease)
		ev.set(OutcomeFailed, http.StatusInternalServerError, nil)
		if v != nil { // nil: runtime.Goexit, which goes on unwinding
			panic(v)
		}
	}()
	m.next.ServeHTTP(rec, r.WithContext(ctx))
	finished = true
	if !rec.wrote {
		rec.status = http.StatusOK
	}

	fail := func() {
		m.abort(r, work)
		m.release(r, claim.Lease)
	}
	switch {
	case rec.overflow:
		fail()
		m.problem(w, ev, OutcomeFailed, http.StatusInternalServerError, ProblemResponseTooLarge, "Response too large to store",
			fmt.Sprintf("The response exceeds %d bytes; nothing was done.", m.cfg.maxResp), 0)
		return
	case r.Context().Err() != nil:
		fail()
		m.unavailable(w, r, ev, fmt.Errorf("idempotency: request ended before completion: %w", r.Context().Err()))
		return
	case rec.status >= 500 || !m.cfg.storable(rec.status):
		fail()
		ev.set(OutcomeFailed, rec.status, nil)
		rec.flush(w)
		return
	}
	resp := &Response{Status: rec.status, Header: m.replayHeader(rec.header), Body: rec.body.Bytes()}
	at.prepareCommit()
	t0 := ev.clock()
	err = work.Complete(r.Context(), resp)
	ev.storeTime(t0)
	if err != nil {
		switch {
		case errors.Is(err, ErrLeaseLost):
			m.cfg.onError(r, err)
			ev.set(OutcomeLeaseLost, http.StatusConflict, err)
			writeProblem(w, http.StatusConflict, ProblemLeaseLost, "Attempt outlived its lease",
				"A newer attempt took this key over; this attempt's work was rolled back. Retry with the same key.", time.Second)
		case errors.Is(err, ErrStoreRejected):
			m.release(r, claim.Lease)
			m.cfg.onError(r, err)
			ev.set(OutcomeStoreRejected, http.StatusInternalServerError, err)
			writeProblem(w, http.StatusInternalServerError, ProblemResponseUnstorable, "Response cannot be stored",
				"The store rejected the response; nothing was done.", 0)
		default:
			m.release(r, claim.Lease)
			m.unavailable(w, r, ev, err)
		}
		return
	}
	at.committed()
	ev.set(OutcomeExecuted, rec.status, nil)
	rec.flush(w)
}

// replayHeader returns the headers of h to store for replay: h itself
// when it holds only those (the handler has returned: nothing writes to h
// any more), else a copy of those.
func (m *middleware) replayHeader(h http.Header) http.Header {
	only := true
	for k := range h {
		if !m.replayable[k] {
			only = false
			break
		}
	}
	if only {
		return h
	}
	out := make(http.Header)
	for _, name := range m.cfg.replayHeaders {
		if v := h.Values(name); len(v) > 0 {
			out[http.CanonicalHeaderKey(name)] = v
		}
	}
	return out
}

func replay(w http.ResponseWriter, resp *Response) {
	h := w.Header()
	for k, v := range resp.Header {
		h[k] = append([]string(nil), v...)
	}
	h.Set("Idempotent-Replayed", "true")
	h.Set("Content-Length", strconv.Itoa(len(resp.Body)))
	w.WriteHeader(resp.Status)
	w.Write(resp.Body)
}

type problem struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail,omitempty"`
}

func writeProblem(w http.ResponseWriter, status int, typ, title, detail string, retryAfter time.Duration) {
	b, _ := json.Marshal(problem{Type: typ, Title: title, Status: status, Detail: detail})
	h := w.Header()
	h.Set("Content-Type", "application/problem+json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	h.Set("Link", "<"+typ+`>; rel="describedby"`)
	if retryAfter > 0 {
		h.Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(retryAfter.Seconds())))))
	}
	w.WriteHeader(status)
	w.Write(b)
}

// recorder buffers the handler's answer until the outcome is known.
type recorder struct {
	header   http.Header
	status   int
	wrote    bool
	body     bytes.Buffer
	max      int
	overflow bool
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if r.wrote || code < 200 {
		return
	}
	r.status, r.wrote = code, true
}

func (r *recorder) Write(p []byte) (int, error) {
	if !r.wrote {
		r.WriteHeader(http.StatusOK)
	}
	if r.body.Len()+len(p) > r.max {
		r.overflow = true
		return 0, errors.New("idempotency: response exceeds the storable size")
	}
	return r.body.Write(p)
}

func (r *recorder) flush(w http.ResponseWriter) {
	h := w.Header()
	for k, v := range r.header {
		h[k] = v
	}
	w.WriteHeader(r.status)
	w.Write(r.body.Bytes())
}
