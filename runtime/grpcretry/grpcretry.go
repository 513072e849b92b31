// Package grpcretry retries unary gRPC calls with the semantics of runtime/retry's [retry.Do]: bounded
// attempts, full-jitter waits, a deadline inside the caller's, the shared budget and breaker, and one retry
// layer only. It retries UNAVAILABLE and RESOURCE_EXHAUSTED, and DEADLINE_EXCEEDED of its own per-attempt
// timeout for keyed or idempotent methods; it honours the server's grpc-retry-pushback-ms trailer as gRPC's
// A6 design does; and it sends one idempotency-key metadata value per logical call, the same on every attempt.
//
// Install it as a client interceptor, outermost, and give the connection no retryPolicy of its own (the
// two layers would multiply):
//
//	conn, err := grpc.NewClient(target, grpc.WithTransportCredentials(creds),
//		grpc.WithChainUnaryInterceptor(grpcretry.UnaryClientInterceptor(retry.Policy{AttemptTimeout: 2 * time.Second})))
//
// See docs/runtime-grpc.md for the full contract; runtime/grpcidem is the server side of the key.
package grpcretry

import (
	"context"
	"errors"
	"strconv"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/idemlint/idemlint/runtime/internal/grpcmethod"
	"github.com/idemlint/idemlint/runtime/retry"
)

// KeyMetadata is the metadata key of the idempotency key the interceptor sends ("idempotency-key", the
// lowercase form of the HTTP Idempotency-Key header), and the key runtime/grpcidem reads.
const KeyMetadata = grpcmethod.KeyMetadata

// PushbackTrailer is the trailer in which a server tells the client when to retry, in milliseconds (A6).
const PushbackTrailer = grpcmethod.PushbackTrailer

// Option configures UnaryClientInterceptor.
type Option func(*config)

type config struct {
	idempotent map[string]bool
	noKeys     bool
	observe    func(ctx context.Context, s CallStats)
}

// CallStats is what one call spent on retries, given to the observer of [WithCallObserver] when the call
// ends: the per-call figures of gRPC's retry metrics (proposal A96: grpc.client.call.retries and
// grpc.client.call.retry_delay, recorded by runtime/idemotel's GRPCCalls).
type CallStats struct {
	// Method is the call's full method ("/payments.v1.Payments/CreatePayment"); Target the connection's
	// target (grpc.ClientConn.Target).
	Method, Target string
	// Retries counts the attempts after the first.
	Retries int
	// RetryDelay is the time spent between attempts: the backoff and pushback waits, until the next attempt
	// started or the call ended.
	RetryDelay time.Duration
	// Err is the call's result.
	Err error
}

// WithCallObserver has f called once per call, when it ends, with what the call spent on retries. f runs on
// the caller's goroutine and must not block.
func WithCallObserver(f func(ctx context.Context, s CallStats)) Option {
	return func(c *config) { c.observe = f }
}

// WithIdempotentMethods declares methods idempotent by their full names ("/payments.v1.Payments/GetPayment"),
// in addition to those whose proto declares idempotency_level NO_SIDE_EFFECTS or IDEMPOTENT. Calls of an
// idempotent method get no idempotency key, and an attempt that exceeds Policy.AttemptTimeout is retried.
func WithIdempotentMethods(fullMethods ...string) Option {
	return func(c *config) {
		if c.idempotent == nil {
			c.idempotent = make(map[string]bool, len(fullMethods))
		}
		for _, m := range fullMethods {
			c.idempotent[m] = true
		}
	}
}

// WithoutKeys stops the interceptor from adding idempotency keys, for servers that do not honour them. A
// DEADLINE_EXCEEDED of an attempt is then retried only for idempotent methods and calls the caller keyed.
func WithoutKeys() Option { return func(c *config) { c.noKeys = true } }

// UnaryClientInterceptor returns an interceptor that makes each unary call one logical operation retried
// under p, as [retry.Do] retries (Policy.MaxAttempts, BaseDelay, MaxDelay, Deadline, AttemptTimeout,
// Budget, Breaker, AllowNested, OnRetry and Observe keep their meaning):
//
//   - Before the first attempt, a call without an idempotency-key metadata value gets one
//     ([retry.NewIdempotencyKey]), sent on every attempt; a caller's key is kept. Methods declared
//     idempotent (see [WithIdempotentMethods]) get none, and so does every call under [WithoutKeys].
//   - An attempt is retried when it fails with UNAVAILABLE or RESOURCE_EXHAUSTED; or with DEADLINE_EXCEEDED
//     when Policy.AttemptTimeout bounds the attempt before the caller's deadline, the caller's context is
//     alive, and the call is keyed or its method idempotent: the timed-out attempt may have completed, so only
//     a call safe to repeat is repeated, with a fresh timeout. Every other code is final and returned at once.
//     Policy.Retryable, when set, is asked too, and can only refuse.
//   - A grpc-retry-pushback-ms trailer with one value from 0 to 2^31-1 is the exact wait before the next
//     attempt (clamped to MaxDelay; when it would end past the deadline the call stops) and restarts the
//     backoff; a negative, malformed or repeated value stops the retries ([retry.Pushback]).
//   - Inside a [retry.Do] operation (see [retry.InRetry]) it makes a single attempt, unless
//     Policy.AllowNested: set the key yourself, before the outer Do, so that its attempts share it.
//
// The call returns the last attempt's error unchanged (a status error). When no attempt could end the call
// (the caller's context ended during a wait or before the first attempt, or the breaker rejected an attempt)
// it returns an error whose status is CANCELLED or DEADLINE_EXCEEDED (from the context) or UNAVAILABLE (the
// breaker), and which wraps the [*retry.Error]: errors.Is(err, retry.ErrCircuitOpen) holds for the breaker.
func UnaryClientInterceptor(p retry.Policy, opts ...Option) grpc.UnaryClientInterceptor {
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn,
		invoker grpc.UnaryInvoker, callOpts ...grpc.CallOption) error {
		idempotent := cfg.idempotent[method] || grpcmethod.Declared(method)
		keyed := hasKey(ctx)
		if !keyed && !idempotent && !cfg.noKeys {
			ctx = metadata.AppendToOutgoingContext(ctx, KeyMetadata, retry.NewIdempotencyKey())
			keyed = true
		}
		c := call{timeoutRetried: keyed || idempotent, user: p.Retryable}
		pol := p
		pol.Retryable = c.retryable
		// The caller's options and one for the attempt's trailer, in a slice of our own: appending to callOpts
		// could write into the caller's array.
		attemptOpts := append(make([]grpc.CallOption, 0, len(callOpts)+1), callOpts...)
		var st *callTimer
		if cfg.observe != nil {
			st = &callTimer{}
			pol.Observe = st.observe(p.Observe)
		}
		err := retry.Do(ctx, pol, func(actx context.Context) error {
			st.attempt()
			var trailer metadata.MD
			err := invoker(actx, method, req, reply, cc, append(attemptOpts, grpc.Trailer(&trailer))...)
			c.last = err
			return c.classify(ctx, actx, err, trailer)
		})
		err = c.result(ctx, err)
		if st != nil {
			st.attempt() // a wait the call ended in
			cfg.observe(ctx, CallStats{Method: method, Target: cc.Target(), Retries: st.retries, RetryDelay: st.delay, Err: err})
		}
		return err
	}
}

// callTimer measures a call's retries and the time between its attempts, for WithCallObserver.
type callTimer struct {
	retries   int
	delay     time.Duration
	waitStart time.Time // when the current wait began; zero while an attempt runs
}

// observe returns the Policy.Observe that notes each retry's wait, then calls next (the policy's own).
func (t *callTimer) observe(next func(context.Context, retry.Event)) func(context.Context, retry.Event) {
	return func(ctx context.Context, e retry.Event) {
		if !e.GaveUp {
			t.retries++
			t.waitStart = time.Now()
		}
		if next != nil {
			next(ctx, e)
		}
	}
}

// attempt ends the current wait, if any; t may be nil.
func (t *callTimer) attempt() {
	if t != nil && !t.waitStart.IsZero() {
		t.delay += time.Since(t.waitStart)
		t.waitStart = time.Time{}
	}
}

func hasKey(ctx context.Context) bool {
	md, _ := metadata.FromOutgoingContext(ctx) // with the values added by AppendToOutgoingContext
	return len(md.Get(KeyMetadata)) > 0
}

// call is one logical call's state.
type call struct {
	timeoutRetried bool             // DEADLINE_EXCEEDED of an attempt timeout is retried
	user           func(error) bool // the policy's own Retryable, or nil
	last           error            // the last attempt's error, as the invoker returned it
}

// classify turns an attempt's error into what retry.Do should see: the error itself when it is worth a retry,
// retry.Permanent of it when it is not, retry.Pushback of it when the server pushed back.
func (c *call) classify(ctx, actx context.Context, err error, trailer metadata.MD) error {
	if err == nil {
		return nil
	}
	switch status.Code(err) {
	case codes.Unavailable, codes.ResourceExhausted:
	case codes.DeadlineExceeded:
		// Only the attempt timeout's, with the caller still waiting: the next attempt has a fresh one. Whichever
		// side noticed it first (the server's deadline is the attempt's, sent as grpc-timeout), it is the attempt's
		// when the attempt's deadline is earlier than the caller's.
		if !c.timeoutRetried || ctx.Err() != nil || !attemptDeadlineFirst(ctx, actx) {
			return retry.Permanent(err)
		}
		return err
	default:
		return retry.Permanent(err)
	}
	if wait, ok := pushback(trailer); ok {
		return retry.Pushback(err, wait)
	}
	return err
}

// attemptDeadlineFirst reports whether actx has a deadline of its own (Policy.AttemptTimeout) earlier
// than ctx's.
func attemptDeadlineFirst(ctx, actx context.Context) bool {
	ad, ok := actx.Deadline()
	if !ok {
		return false
	}
	cd, ok := ctx.Deadline()
	return !ok || ad.Before(cd)
}

func (c *call) retryable(err error) bool { return c.user == nil || c.user(err) }

// pushback reads the server's pushback trailer, as A6 defines it: no value means none; one value from 0
// to 2^31-1 is the wait in milliseconds; anything else (negative, malformed, several values) means "do not
// retry", a negative wait for retry.Pushback.
func pushback(trailer metadata.MD) (time.Duration, bool) {
	vs := trailer.Get(PushbackTrailer)
	if len(vs) == 0 {
		return 0, false
	}
	if len(vs) > 1 {
		return -1, true
	}
	ms, err := strconv.ParseInt(vs[0], 10, 32)
	if err != nil || ms < 0 {
		return -1, true
	}
	return time.Duration(ms) * time.Millisecond, true
}

// result is the call's error from retry.Do's.
func (c *call) result(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	var re *retry.Error
	if !errors.As(err, &re) {
		// A nested single attempt: its own error, or the breaker's *OpenError that prevented it.
		if c.last == nil {
			return &callError{status.New(codes.Unavailable, err.Error()), err}
		}
		return c.last
	}
	switch re.Reason {
	case retry.ReasonContext:
		return &callError{status.New(status.FromContextError(ctx.Err()).Code(), re.Error()), re}
	case retry.ReasonCircuitOpen:
		return &callError{status.New(codes.Unavailable, re.Error()), re}
	}
	return c.last
}

// callError is the error of a call that no attempt ended: a gRPC status that wraps retry's error.
type callError struct {
	st  *status.Status
	err error // the *retry.Error, or a nested call's *retry.OpenError
}

func (e *callError) Error() string              { return e.st.Err().Error() }
func (e *callError) GRPCStatus() *status.Status { return e.st }
func (e *callError) Unwrap() error              { return e.err }
