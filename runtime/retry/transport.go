package retry

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"time"
)

// IdempotencyKeyHeader is the request header that carries an idempotency key
// (draft-ietf-httpapi-idempotency-key-header).
const IdempotencyKeyHeader = "Idempotency-Key"

// MaxBufferedBody is the largest request body, in bytes, that a [NewTransport] round trip buffers in memory
// so that it can send it again when the request has no GetBody. A larger body is sent once, without retries.
const MaxBufferedBody = 1 << 20

// maxDrain bounds how much of a discarded response body is read, so that its connection can be reused.
const maxDrain = 64 << 10

// NewIdempotencyKey returns a new random key for [IdempotencyKeyHeader]: a version 4 UUID
// (122 random bits from crypto/rand) in its usual 36-character form. Make one per logical operation,
// before the first attempt, and send the same key on every retry.
func NewIdempotencyKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand crashes the program instead)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:], b[10:])
	return string(s[:])
}

// NewTransport returns an [http.RoundTripper] that sends requests through base (http.DefaultTransport when
// nil) and retries them under p:
//
//   - It retries GET, HEAD, OPTIONS, PUT, DELETE and TRACE, and any request that carries an
//     Idempotency-Key header. A POST or PATCH without one gets one (see [NewIdempotencyKey]) once, before the
//     first attempt, and keeps it on every attempt; a caller's key is kept as is. Other methods (CONNECT,
//     custom ones) without a key are sent once. Adding a key makes a POST safe to retry only if the server
//     honours the header.
//   - It retries transport errors that Policy.Retryable (default [DefaultRetryable]) accepts, and the
//     statuses 408, 429, 502, 503, 504 and 500 (all requests it retries are idempotent or keyed). Any other
//     status, 400, 401, 403, 404, 409 and 422 included, is returned at once. When Policy.Retryable is set it
//     decides instead, given a [*StatusError] for statuses of 400 and above.
//   - Retry-After is honoured, clamped to Policy.MaxDelay; when it would end at or past the deadline, the
//     round trip gives up at once and returns that response.
//     Policy.OnRetry is given a [*StatusError] (with its RetryAfter) for a retried status.
//   - The body is sent again through Request.GetBody, or, when that is nil, from a copy of up to
//     [MaxBufferedBody] bytes; a larger body is sent once.
//   - A response that is retried is drained (up to 64 KiB) and closed. When retrying stops (attempts,
//     deadline or budget), the last response is returned as is, with a nil error; when the request's context
//     is done, or the last attempt failed with a transport error, RoundTrip returns an [*Error].
//   - It never modifies the caller's request: it works on clones.
//   - Under Policy.AttemptTimeout, each attempt's context expires after that time, body reading included.
//   - When the attempt's context has a deadline, each attempt carries the time left before it, in
//     milliseconds, in the header Policy.DeadlineHeader (default [DeadlineHeader]); see [HonorDeadline].
//   - With a Policy.Breaker, an attempt the breaker rejects is not sent: RoundTrip returns an [*Error] with
//     ReasonCircuitOpen, matching [ErrCircuitOpen].
//   - Inside a Do operation (see [InRetry]) it makes a single attempt unless Policy.AllowNested is set. The
//     key it adds is then new for each call: set the key yourself, once, outside the retry loop.
func NewTransport(base http.RoundTripper, p Policy) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &transport{base: base, p: p}
}

type transport struct {
	base http.RoundTripper
	p    Policy
}

func idempotentMethod(m string) bool {
	switch m {
	case "", http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodPut, http.MethodDelete, http.MethodTrace:
		return true
	}
	return false
}

// RoundTrip sends req, retrying as NewTransport describes.
func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	r := req
	keyed := req.Header.Get(IdempotencyKeyHeader) != ""
	if !keyed && (req.Method == http.MethodPost || req.Method == http.MethodPatch) {
		r = req.Clone(ctx)
		if r.Header == nil {
			r.Header = make(http.Header)
		}
		r.Header.Set(IdempotencyKeyHeader, NewIdempotencyKey())
		keyed = true
	}
	marked := InRetry(ctx)
	if !keyed && !idempotentMethod(r.Method) || marked && !t.p.AllowNested {
		return t.single(ctx, r, r.Body, r.GetBody)
	}
	if err := ctx.Err(); err != nil {
		closeBody(r.Body)
		return nil, t.p.gaveUp(ctx, stopped(ReasonContext, 0, context.Cause(ctx), ctx))
	}

	// Make the body replayable.
	body, getBody := r.Body, r.GetBody
	if body != nil && body != http.NoBody && getBody == nil {
		if r.ContentLength > MaxBufferedBody {
			return t.single(ctx, r, body, nil)
		}
		buf, err := io.ReadAll(io.LimitReader(body, MaxBufferedBody+1))
		if err != nil {
			closeBody(body)
			return nil, t.p.gaveUp(ctx, stopped(ReasonPermanent, 0, err, ctx))
		}
		if len(buf) > MaxBufferedBody {
			once := readCloser{io.MultiReader(bytes.NewReader(buf), body), body}
			return t.single(ctx, r, once, nil)
		}
		closeBody(body)
		getBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(buf)), nil }
		body, _ = getBody()
	}

	var start time.Time // set by decide when the first attempt has failed
	actx := ctx
	if !marked {
		actx = mark(ctx)
	}
	s := t.p.settings()
	var w waiter
	defer w.stop()
	var lastErr error // the previous attempt's error, for the breaker's error
	//idemlint:ignore unboundedretry decide stops the loop at MaxAttempts and at the deadline
	for n := 1; ; n++ {
		var pm permit
		if t.p.Breaker != nil {
			var open error
			if pm, open = t.p.Breaker.allow(); open != nil {
				closeBody(body)
				return nil, t.p.gaveUp(ctx, circuitOpen(n-1, lastErr, open))
			}
		}
		resp, cancel, err := t.attempt(actx, r, body, getBody)
		if err == nil && resp.StatusCode < 400 {
			t.p.observe(ctx, pm, nil, nil)
			return resp, nil
		}
		attemptErr := err
		var hint time.Duration
		if err == nil {
			hint = retryAfterHeader(resp.Header, time.Now())
			attemptErr = &StatusError{StatusCode: resp.StatusCode, RetryAfter: hint}
		}
		lastErr = attemptErr
		t.p.observe(ctx, pm, attemptErr, t.retryable)
		d, reason := decide(ctx, &t.p, &s, &start, n, attemptErr, hint, t.retryable)
		var open error
		if reason == 0 && t.p.Breaker != nil {
			if open = t.p.Breaker.openPast(time.Now().Add(d)); open != nil {
				reason = ReasonCircuitOpen
			}
		}
		if reason != 0 {
			var e *Error
			if reason == ReasonCircuitOpen {
				e = circuitOpen(n, attemptErr, open)
			} else {
				e = stopped(reason, n, attemptErr, ctx)
			}
			t.p.gaveUp(ctx, e)
			if err == nil && reason != ReasonContext {
				return resp, nil // the last response, for the caller to read
			}
			discard(resp, cancel)
			return nil, e
		}
		discard(resp, cancel)
		t.p.retrying(ctx, n, attemptErr, d)
		if !w.wait(ctx, d) {
			return nil, t.p.gaveUp(ctx, stopped(ReasonContext, n, attemptErr, ctx))
		}
		if getBody != nil {
			if body, err = getBody(); err != nil {
				return nil, t.p.gaveUp(ctx, stopped(ReasonPermanent, n, err, ctx))
			}
		}
	}
}

// single sends r once, unretried, through the breaker, and feeds the outcome to the budget and breaker.
// An open breaker gives an *Error with ReasonCircuitOpen.
func (t *transport) single(ctx context.Context, r *http.Request, body io.ReadCloser,
	getBody func() (io.ReadCloser, error)) (*http.Response, error) {
	var pm permit
	if t.p.Breaker != nil {
		var open error
		if pm, open = t.p.Breaker.allow(); open != nil {
			closeBody(body)
			return nil, circuitOpen(0, nil, open)
		}
	}
	resp, _, err := t.attempt(ctx, r, body, getBody)
	if err == nil && resp.StatusCode >= 400 {
		t.p.observe(ctx, pm, &StatusError{StatusCode: resp.StatusCode}, t.retryable)
	} else {
		t.p.observe(ctx, pm, err, t.retryable)
	}
	return resp, err
}

// retryable is the transport's classification: Policy.Retryable when set, otherwise the status table of
// NewTransport for responses and DefaultRetryable for transport errors.
func (t *transport) retryable(err error) bool {
	if t.p.Retryable != nil {
		return t.p.Retryable(err)
	}
	var se *StatusError
	if errors.As(err, &se) {
		switch se.StatusCode {
		case http.StatusRequestTimeout, http.StatusTooManyRequests, http.StatusInternalServerError,
			http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return true
		}
		return false
	}
	return DefaultRetryable(err)
}

// attempt sends one copy of r with the given body. With an AttemptTimeout, the response body (if any) owns
// the attempt's context: closing it releases the context. The returned cancel releases it for a response
// that is discarded (nil when there is nothing to release).
func (t *transport) attempt(ctx context.Context, r *http.Request, body io.ReadCloser,
	getBody func() (io.ReadCloser, error)) (*http.Response, context.CancelFunc, error) {
	var cancel context.CancelFunc
	if t.p.AttemptTimeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, t.p.AttemptTimeout)
	}
	ar := r.WithContext(ctx) // a shallow copy: r is never written to
	ar.Body = body
	ar.GetBody = getBody
	if name := t.p.DeadlineHeader; name != "-" {
		if dl, ok := ctx.Deadline(); ok {
			if name == "" {
				name = DeadlineHeader
			}
			ar.Header = r.Header.Clone()
			if ar.Header == nil {
				ar.Header = make(http.Header, 1)
			}
			ar.Header.Set(name, formatTimeout(time.Until(dl)))
		}
	}
	resp, err := t.base.RoundTrip(ar)
	if err != nil {
		if cancel != nil {
			cancel()
		}
		return nil, nil, err
	}
	if cancel != nil {
		if resp.Body == nil {
			cancel()
			cancel = nil
		} else {
			resp.Body = &cancelBody{resp.Body, cancel}
		}
	}
	return resp, cancel, nil
}

// discard drains (boundedly) and closes a response that will not be returned.
func discard(resp *http.Response, cancel context.CancelFunc) {
	if resp != nil && resp.Body != nil {
		_, _ = io.CopyN(io.Discard, resp.Body, maxDrain)
		_ = resp.Body.Close()
	}
	if cancel != nil {
		cancel()
	}
}

func closeBody(b io.ReadCloser) {
	if b != nil {
		_ = b.Close()
	}
}

type readCloser struct {
	io.Reader
	io.Closer
}

// cancelBody releases an attempt's context when the response body is closed.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}
