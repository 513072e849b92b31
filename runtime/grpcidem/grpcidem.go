// Package grpcidem makes unary gRPC methods idempotent per key, with the semantics of runtime/idempotency's
// HTTP Middleware: a call carries its key in the idempotency-key metadata (runtime/grpcretry sends one per
// logical call); the first call runs the handler and stores its response message, and every later call with
// the same key and the same request gets that stored response without running the handler again.
//
//	srv := grpc.NewServer(grpc.ChainUnaryInterceptor(grpcidem.UnaryServerInterceptor(store,
//		grpcidem.WithScope(func(ctx context.Context, method string) (string, error) { return tenantOf(ctx) }))))
//
// It runs idempotency.Middleware itself, on the same Store, so the keys, fingerprints, leases, fences, steps
// (idempotency.Step), OnCommit hooks, PostgresStore's transaction (idempotency.Tx) and the outbox behave as
// for HTTP. See docs/runtime-grpc.md for the codes it answers.
package grpcidem

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/internal/grpcmethod"
)

// KeyMetadata is the metadata key carrying the idempotency key ("idempotency-key").
const KeyMetadata = grpcmethod.KeyMetadata

// ReplayedHeader is the response header metadata set to "true" on a replayed answer.
const ReplayedHeader = "idempotent-replayed"

// ErrorDomain is the domain of the google.rpc.ErrorInfo detail that every error of the interceptor's own
// carries; its Reason names the case (IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_REQUEST_IN_PROGRESS, ...: the
// table is in docs/runtime-grpc.md).
const ErrorDomain = "github.com/idemlint/idemlint/runtime/grpcidem"

// Defaults of the options.
const (
	// DefaultMaxRequestBytes is gRPC's default largest received message (4 MiB).
	DefaultMaxRequestBytes = 4 << 20
	// DefaultMaxResponseBytes is the largest response message stored for replay by default (4 MiB).
	DefaultMaxResponseBytes = 4 << 20
)

// Option configures UnaryServerInterceptor.
type Option func(*config)

type config struct {
	methods  map[string]bool
	scope    func(ctx context.Context, fullMethod string) (string, error)
	final    map[codes.Code]bool
	mwOpts   []idempotency.Option
	maxReq   int64
	maxResp  int
	optional bool
}

// WithMethods sets the methods handled, by full name ("/payments.v1.Payments/CreatePayment"). By default
// every unary method is, except those whose proto declares idempotency_level NO_SIDE_EFFECTS or IDEMPOTENT;
// the others pass through untouched, key or not.
func WithMethods(fullMethods ...string) Option {
	return func(c *config) {
		c.methods = make(map[string]bool, len(fullMethods))
		for _, m := range fullMethods {
			c.methods[m] = true
		}
	}
}

// WithScope sets the hook returning the tenant a call's key belongs to: keys of different tenants never meet.
// A multi-tenant service must set it (see idempotency.WithScope). An error fails the call: with its own
// status when it has one (UNAUTHENTICATED, say), INVALID_ARGUMENT otherwise.
func WithScope(scope func(ctx context.Context, fullMethod string) (string, error)) Option {
	return func(c *config) { c.scope = scope }
}

// WithOptionalKey lets calls without a key run without idempotency instead of failing with INVALID_ARGUMENT.
func WithOptionalKey() Option { return func(c *config) { c.optional = true } }

// WithTTL sets how long a key lives from its first call (default idempotency.DefaultTTL, 24 h).
func WithTTL(d time.Duration) Option {
	return func(c *config) { c.mwOpts = append(c.mwOpts, idempotency.WithTTL(d)) }
}

// WithLease sets the lease of an attempt (default idempotency.DefaultLease, 30 s): while it runs, a duplicate
// gets UNAVAILABLE with a pushback of the lease left; once it has passed without completion (a crash), a
// retry takes the key over. Set it above the slowest handler.
func WithLease(d time.Duration) Option {
	return func(c *config) { c.mwOpts = append(c.mwOpts, idempotency.WithLease(d)) }
}

// WithMaxRequestBytes bounds the marshalled request fingerprinted (default DefaultMaxRequestBytes).
func WithMaxRequestBytes(n int64) Option { return func(c *config) { c.maxReq = n } }

// WithMaxResponseBytes bounds the marshalled response (or status) stored (default DefaultMaxResponseBytes);
// a larger one is rolled back and answers INTERNAL.
func WithMaxResponseBytes(n int) Option { return func(c *config) { c.maxResp = n } }

// WithFinalCodes sets the error codes that are final business outcomes, stored and replayed like a response
// (default DefaultFinalCodes). CANCELLED, UNKNOWN, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, ABORTED, INTERNAL,
// UNAVAILABLE and DATA_LOSS are never stored, whatever the list says: the operation's outcome is unknown or
// transient, so the key is released and a retry runs the handler again.
func WithFinalCodes(cs ...codes.Code) Option {
	return func(c *config) {
		c.final = make(map[codes.Code]bool, len(cs))
		for _, code := range cs {
			c.final[code] = !neverFinal(code)
		}
	}
}

// WithErrorHandler receives the store errors behind UNAVAILABLE answers and those that do not change the
// answer (a failed release), as idempotency.WithErrorHandler does.
func WithErrorHandler(f func(ctx context.Context, err error)) Option {
	return func(c *config) {
		c.mwOpts = append(c.mwOpts, idempotency.WithErrorHandler(func(r *http.Request, err error) { f(r.Context(), err) }))
	}
}

// DefaultFinalCodes are the error codes stored by default: the request itself decided them, so a retry of the
// same request must get the same answer. PERMISSION_DENIED, UNAUTHENTICATED and UNIMPLEMENTED are not in it:
// they are about the caller's credentials or the server's build, not the operation.
var DefaultFinalCodes = []codes.Code{codes.InvalidArgument, codes.NotFound, codes.AlreadyExists,
	codes.FailedPrecondition, codes.OutOfRange}

func neverFinal(c codes.Code) bool {
	switch c {
	case codes.OK, codes.Canceled, codes.Unknown, codes.DeadlineExceeded, codes.ResourceExhausted, codes.Aborted,
		codes.Internal, codes.Unavailable, codes.DataLoss:
		return true
	}
	return false
}

// The encoding of an answer in the stored idempotency.Response: a response message is stored with status
// 200, a final error's google.rpc.Status with status 400; anything else is answered with 500, which the
// middleware never stores.
const (
	statusMessage = http.StatusOK
	statusFinal   = http.StatusBadRequest
	statusFailed  = http.StatusInternalServerError
	contentType   = "application/x-protobuf"
	keyHeader     = "Idempotency-Key"
)

// UnaryServerInterceptor returns an interceptor that makes the handled unary methods idempotent per
// idempotency-key metadata value, storing keys in s:
//
//   - A new key runs the handler. Its response message (proto-marshalled) is stored, or its error when the
//     code is final (WithFinalCodes); any other error stores nothing and releases the key.
//   - The same key with the same request (the fingerprint of the full method and the deterministically
//     marshalled request), completed, returns the stored response or error without running the handler, with
//     the header idempotent-replayed: true.
//   - The same key while the first attempt holds its lease: UNAVAILABLE, with a grpc-retry-pushback-ms trailer
//     of the lease left, so that the client retries this same call (the handler did not run).
//   - The same key with a different request: FAILED_PRECONDITION (retrying cannot help; send a new key).
//   - No key (unless WithOptionalKey), an invalid or repeated one, or an invalid scope: INVALID_ARGUMENT.
//   - The store unreachable, or the attempt outliving its lease: UNAVAILABLE with pushback, nothing done; a
//     full store: RESOURCE_EXHAUSTED with pushback.
//
// Each of these errors carries a google.rpc.ErrorInfo detail of ErrorDomain whose Reason names the case.
// Request and response messages must be protobuf messages. The handler's header and trailer metadata are not
// stored: a replay sends only idempotent-replayed.
func UnaryServerInterceptor(s idempotency.Store, opts ...Option) grpc.UnaryServerInterceptor {
	cfg := config{maxReq: DefaultMaxRequestBytes, maxResp: DefaultMaxResponseBytes}
	WithFinalCodes(DefaultFinalCodes...)(&cfg)
	for _, o := range opts {
		o(&cfg)
	}
	mwOpts := []idempotency.Option{
		idempotency.WithHeader(keyHeader),
		idempotency.WithMethods(http.MethodPost),
		idempotency.WithScope(cfg.scopeOf),
		idempotency.WithMaxBodyBytes(cfg.maxReq),
		idempotency.WithMaxResponseBytes(cfg.maxResp),
		idempotency.WithReplayHeaders(),
		idempotency.WithStorable(func(status int) bool { return status == statusMessage || status == statusFinal }),
	}
	if cfg.optional {
		mwOpts = append(mwOpts, idempotency.WithOptionalKey())
	}
	i := &interceptor{cfg: cfg}
	i.mw = idempotency.Middleware(s, append(mwOpts, cfg.mwOpts...)...)(http.HandlerFunc(i.attempt))
	return i.intercept
}

type interceptor struct {
	cfg config
	mw  http.Handler
}

// exchange is one call's state, reachable from the synthetic request's context.
type exchange struct {
	req      any
	handler  grpc.UnaryHandler
	ran      bool
	resp     any
	err      error
	scopeErr error
}

type exchangeKey struct{}

func (c *config) handles(fullMethod string) bool {
	if c.methods != nil {
		return c.methods[fullMethod]
	}
	return !grpcmethod.Declared(fullMethod)
}

func (c *config) scopeOf(r *http.Request) (string, error) {
	if c.scope == nil {
		return "", nil
	}
	tenant, err := c.scope(r.Context(), r.URL.Path)
	if err != nil {
		r.Context().Value(exchangeKey{}).(*exchange).scopeErr = err
	}
	return tenant, err
}

func (i *interceptor) intercept(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if !i.cfg.handles(info.FullMethod) {
		return handler(ctx, req)
	}
	m, ok := req.(proto.Message)
	if !ok {
		return nil, status.Errorf(codes.Internal, "grpcidem: request of %s is a %T, not a protobuf message", info.FullMethod, req)
	}
	body, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		return nil, status.Errorf(codes.Internal, "grpcidem: marshal request: %v", err)
	}
	x := &exchange{req: req, handler: handler}
	h := http.Header{"Content-Type": {contentType}}
	if keys := metadata.ValueFromIncomingContext(ctx, KeyMetadata); len(keys) > 0 {
		h[keyHeader] = keys
	}
	r := (&http.Request{
		Method: http.MethodPost, URL: &url.URL{Path: info.FullMethod}, Proto: "HTTP/2.0", ProtoMajor: 2,
		Header: h, Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)),
	}).WithContext(context.WithValue(ctx, exchangeKey{}, x))
	w := &answer{header: make(http.Header)}
	i.mw.ServeHTTP(w, r)

	if w.header.Get("Idempotent-Replayed") == "true" {
		_ = grpc.SetHeader(ctx, metadata.Pairs(ReplayedHeader, "true"))
		return replay(info.FullMethod, w)
	}
	if w.header.Get("Content-Type") == "application/problem+json" {
		return nil, x.problem(ctx, w)
	}
	if !x.ran {
		return nil, status.Error(codes.Internal, "grpcidem: the middleware answered without running the handler")
	}
	return x.resp, x.err
}

// attempt is the middleware's handler: it runs the gRPC handler and encodes its answer for the store.
func (i *interceptor) attempt(w http.ResponseWriter, r *http.Request) {
	x := r.Context().Value(exchangeKey{}).(*exchange)
	x.resp, x.err = x.handler(r.Context(), x.req)
	x.ran = true
	w.Header().Set("Content-Type", contentType)
	if x.err != nil {
		st := status.Convert(x.err)
		if !i.cfg.final[st.Code()] {
			w.WriteHeader(statusFailed)
			return
		}
		b, err := proto.Marshal(st.Proto())
		if err != nil {
			x.err = status.Errorf(codes.Internal, "grpcidem: marshal status: %v", err)
			w.WriteHeader(statusFailed)
			return
		}
		w.WriteHeader(statusFinal)
		w.Write(b)
		return
	}
	m, ok := x.resp.(proto.Message)
	var b []byte
	var err error
	if ok {
		b, err = proto.MarshalOptions{Deterministic: true}.Marshal(m)
	}
	if !ok || err != nil {
		x.resp, x.err = nil, status.Errorf(codes.Internal, "grpcidem: response %T not storable: %v", x.resp, err)
		w.WriteHeader(statusFailed)
		return
	}
	w.WriteHeader(statusMessage)
	w.Write(b)
}

// replay decodes a stored answer.
func replay(fullMethod string, w *answer) (any, error) {
	switch w.status {
	case statusMessage:
		mt, err := grpcmethod.Output(fullMethod)
		if err != nil {
			return nil, status.Errorf(codes.Internal, "grpcidem: replay: %v", err)
		}
		m := mt.New().Interface()
		if err := proto.Unmarshal(w.body.Bytes(), m); err != nil {
			return nil, status.Errorf(codes.Internal, "grpcidem: replay: %v", err)
		}
		return m, nil
	case statusFinal:
		var st spb.Status
		if err := proto.Unmarshal(w.body.Bytes(), &st); err != nil {
			return nil, status.Errorf(codes.Internal, "grpcidem: replay: %v", err)
		}
		return nil, status.ErrorProto(&st)
	}
	return nil, status.Errorf(codes.Internal, "grpcidem: replay of a stored status %d", w.status)
}

// problems maps the middleware's answers to codes: the reason of the ErrorInfo detail and whether the
// Retry-After becomes a pushback.
var problems = map[string]struct {
	code     codes.Code
	reason   string
	pushback bool
}{
	idempotency.ProblemKeyMissing:         {codes.InvalidArgument, "IDEMPOTENCY_KEY_MISSING", false},
	idempotency.ProblemKeyInvalid:         {codes.InvalidArgument, "IDEMPOTENCY_KEY_INVALID", false},
	idempotency.ProblemScope:              {codes.InvalidArgument, "IDEMPOTENCY_SCOPE_INVALID", false},
	idempotency.ProblemKeyReused:          {codes.FailedPrecondition, "IDEMPOTENCY_KEY_REUSED", false},
	idempotency.ProblemInProgress:         {codes.Unavailable, "IDEMPOTENCY_REQUEST_IN_PROGRESS", true},
	idempotency.ProblemLeaseLost:          {codes.Unavailable, "IDEMPOTENCY_LEASE_LOST", true},
	idempotency.ProblemStoreUnavailable:   {codes.Unavailable, "IDEMPOTENCY_STORE_UNAVAILABLE", true},
	idempotency.ProblemStoreFull:          {codes.ResourceExhausted, "IDEMPOTENCY_STORE_FULL", true},
	idempotency.ProblemStoreRejected:      {codes.InvalidArgument, "IDEMPOTENCY_STORE_REJECTED", false},
	idempotency.ProblemResponseUnstorable: {codes.Internal, "IDEMPOTENCY_RESPONSE_UNSTORABLE", false},
	idempotency.ProblemBodyTooLarge:       {codes.InvalidArgument, "IDEMPOTENCY_REQUEST_TOO_LARGE", false},
	idempotency.ProblemBodyUnreadable:     {codes.Internal, "IDEMPOTENCY_REQUEST_UNREADABLE", false},
	idempotency.ProblemResponseTooLarge:   {codes.Internal, "IDEMPOTENCY_RESPONSE_TOO_LARGE", false},
}

// problem turns the middleware's problem answer into the call's error.
func (x *exchange) problem(ctx context.Context, w *answer) error {
	var doc struct {
		Type, Title, Detail string
	}
	_ = json.Unmarshal(w.body.Bytes(), &doc)
	p, ok := problems[doc.Type]
	if !ok {
		return status.Errorf(codes.Internal, "grpcidem: %s: %s", doc.Title, doc.Detail)
	}
	if p.reason == "IDEMPOTENCY_SCOPE_INVALID" && x.scopeErr != nil {
		if st, ok := status.FromError(x.scopeErr); ok {
			return st.Err()
		}
	}
	if p.pushback {
		if secs, err := strconv.ParseInt(w.header.Get("Retry-After"), 10, 64); err == nil && secs >= 0 {
			ms := min(secs*1000, math.MaxInt32)
			_ = grpc.SetTrailer(ctx, metadata.Pairs(grpcmethod.PushbackTrailer, strconv.FormatInt(ms, 10)))
		}
	}
	// The middleware names the key by its HTTP header; a gRPC client sends it as metadata.
	st := status.New(p.code, strings.ReplaceAll(doc.Title+": "+doc.Detail, keyHeader, KeyMetadata))
	if d, err := st.WithDetails(&errdetails.ErrorInfo{Reason: p.reason, Domain: ErrorDomain}); err == nil {
		st = d
	}
	return st.Err()
}

// answer is the http.ResponseWriter the middleware writes the call's answer to.
type answer struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (a *answer) Header() http.Header { return a.header }

func (a *answer) WriteHeader(code int) {
	if a.status == 0 {
		a.status = code
	}
}

func (a *answer) Write(p []byte) (int, error) {
	a.WriteHeader(http.StatusOK)
	return a.body.Write(p)
}
