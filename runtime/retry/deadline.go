package retry

import (
	"context"
	"net/http"
	"strconv"
	"time"
)

// DeadlineHeader is the request header in which a [NewTransport] round trip tells the server how much time
// is left before the caller's deadline: a non-negative integer number of milliseconds, computed anew for
// each attempt (so it shrinks from one attempt to the next). [HonorDeadline] reads it on the server.
const DeadlineHeader = "X-Request-Timeout-Ms"

// maxTimeoutDigits bounds the header value: 12 digits of milliseconds is over 31 years, far from
// overflowing a time.Duration.
const maxTimeoutDigits = 12

// formatTimeout is the header value for d left: whole milliseconds, rounded down (never more time than
// the caller has), 0 when the deadline has passed.
func formatTimeout(d time.Duration) string {
	return strconv.FormatInt(max(d.Milliseconds(), 0), 10)
}

// parseTimeout reads a header value: 1 to 12 ASCII digits, nothing else.
func parseTimeout(v string) (time.Duration, bool) {
	if len(v) == 0 || len(v) > maxTimeoutDigits {
		return 0, false
	}
	var ms int64
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		ms = ms*10 + int64(c-'0')
	}
	return time.Duration(ms) * time.Millisecond, true
}

// HonorDeadline is server middleware that gives each request's context the deadline its caller sent in
// the [DeadlineHeader] header: the handler's context ends when the caller stops waiting, so work the
// caller has abandoned stops. It never extends a deadline the context already has (the earlier one
// wins), and it ignores a header that is absent or malformed (anything but 1 to 12 ASCII digits). When
// the header appears several times, the smallest well-formed value is used. A value of 0 gives a context
// that is already done.
func HonorDeadline(next http.Handler) http.Handler {
	return HonorDeadlineHeader(DeadlineHeader)(next)
}

// HonorDeadlineHeader is [HonorDeadline] for a header of another name (the client's
// Policy.DeadlineHeader).
func HonorDeadlineHeader(name string) func(http.Handler) http.Handler {
	name = http.CanonicalHeaderKey(name)
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			left, ok := requestTimeout(r.Header[name])
			if !ok {
				next.ServeHTTP(w, r)
				return
			}
			// WithTimeout keeps the parent's deadline when it is earlier: it never extends one.
			ctx, cancel := context.WithTimeout(r.Context(), left)
			defer cancel()
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}

// requestTimeout returns the smallest well-formed value among vs.
func requestTimeout(vs []string) (time.Duration, bool) {
	var best time.Duration
	found := false
	for _, v := range vs {
		if d, ok := parseTimeout(v); ok && (!found || d < best) {
			best, found = d, true
		}
	}
	return best, found
}
