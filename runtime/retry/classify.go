package retry

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Class is what [Classify] knows about an error.
type Class uint8

// The classes of errors.
const (
	// ClassUnknown: nothing in the error says whether a retry may help.
	ClassUnknown Class = iota
	// ClassTransient: the error is known to be transient (a timeout, a refused or reset connection, a
	// temporary DNS failure, HTTP 408, 429, 502, 503 or 504, or an error whose Retryable method says true).
	ClassTransient
	// ClassPermanent: a retry cannot help (Permanent, context.Canceled, HTTP 4xx other than 408 and 429,
	// 501, 505, a name that does not exist, a bad certificate, or an error whose Retryable method says false).
	ClassPermanent
)

// String returns "unknown", "transient" or "permanent".
func (c Class) String() string {
	switch c {
	case ClassTransient:
		return "transient"
	case ClassPermanent:
		return "permanent"
	}
	return "unknown"
}

// Classify sorts err by looking through its chain (errors.As), first match wins:
//
//	Permanent(err)                                   permanent
//	context.Canceled                                 permanent
//	an error with a method Retryable() bool          transient if it returns true, else permanent
//	*StatusError 408 429 502 503 504                 transient
//	*StatusError 500 and other 5xx                   unknown (501 and 505: permanent)
//	*StatusError other codes (400 401 403 404 ...)   permanent
//	context.DeadlineExceeded                         transient (a timeout inside the operation)
//	*net.DNSError: not found / timeout or temporary  permanent / transient (other DNS errors: unknown)
//	certificate errors (x509, tls)                   permanent
//	*url.Error from parsing a URL                    permanent
//	ECONNREFUSED ECONNRESET ECONNABORTED EPIPE
//	ETIMEDOUT EHOSTUNREACH ENETUNREACH ENETDOWN      transient
//	a net.Error whose Timeout() is true              transient
//	io.ErrUnexpectedEOF, io.EOF under a *url.Error
//	or *net.OpError (connection closed early)        transient
//	anything else, and nil                           unknown
//
// Do stops for context errors of its own context before Classify is consulted.
func Classify(err error) Class {
	if err == nil {
		return ClassUnknown
	}
	if isPermanent(err) || errors.Is(err, context.Canceled) {
		return ClassPermanent
	}
	var r interface{ Retryable() bool }
	if errors.As(err, &r) {
		if r.Retryable() {
			return ClassTransient
		}
		return ClassPermanent
	}
	var se *StatusError
	if errors.As(err, &se) {
		return classifyStatus(se.StatusCode)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return ClassTransient
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		switch {
		case dns.IsNotFound:
			return ClassPermanent
		case dns.IsTimeout, dns.IsTemporary:
			return ClassTransient
		}
		return ClassUnknown
	}
	if certificateError(err) {
		return ClassPermanent
	}
	var ue *url.Error
	if errors.As(err, &ue) && ue.Op == "parse" {
		return ClassPermanent
	}
	if transientErrno(err) {
		return ClassTransient
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return ClassTransient
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return ClassTransient
	}
	if errors.Is(err, io.EOF) {
		var oe *net.OpError
		if errors.As(err, &ue) || errors.As(err, &oe) {
			return ClassTransient
		}
	}
	return ClassUnknown
}

func classifyStatus(code int) Class {
	switch {
	case code == http.StatusRequestTimeout, code == http.StatusTooManyRequests,
		code == http.StatusBadGateway, code == http.StatusServiceUnavailable, code == http.StatusGatewayTimeout:
		return ClassTransient
	case code == http.StatusNotImplemented, code == http.StatusHTTPVersionNotSupported:
		return ClassPermanent
	case code >= 500 && code <= 599:
		return ClassUnknown
	}
	return ClassPermanent
}

func certificateError(err error) bool {
	var (
		ua  x509.UnknownAuthorityError
		ci  x509.CertificateInvalidError
		he  x509.HostnameError
		cve *tls.CertificateVerificationError
	)
	return errors.As(err, &ua) || errors.As(err, &ci) || errors.As(err, &he) || errors.As(err, &cve)
}

// DefaultRetryable is the classification used when Policy.Retryable is nil: it retries every error that
// [Classify] does not call [ClassPermanent], unknown errors included, because calling Do states that the
// operation is safe to repeat.
func DefaultRetryable(err error) bool {
	return Classify(err) != ClassPermanent
}

// StatusError is an HTTP response status as an error, for operations run by [Do] that make HTTP calls
// (see [ResponseError]). [Classify] sorts it by StatusCode, and [Do] honours RetryAfter.
type StatusError struct {
	// StatusCode is the response's status code.
	StatusCode int
	// RetryAfter is the delay that the response's Retry-After header asks for; 0 means none.
	RetryAfter time.Duration
}

// Error returns "http status 503 Service Unavailable" and the like.
func (e *StatusError) Error() string {
	return "http status " + strconv.Itoa(e.StatusCode) + " " + http.StatusText(e.StatusCode)
}

// ResponseError returns nil when resp's status is below 400, and otherwise a [*StatusError] carrying the
// status code and the Retry-After delay. It neither reads nor closes the body.
func ResponseError(resp *http.Response) error {
	if resp.StatusCode < 400 {
		return nil
	}
	return &StatusError{StatusCode: resp.StatusCode, RetryAfter: retryAfterHeader(resp.Header, time.Now())}
}

func retryAfterHeader(h http.Header, now time.Time) time.Duration {
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	d, _ := ParseRetryAfter(v, now)
	return d
}

// maxRetryAfter bounds what ParseRetryAfter returns, so that huge values cannot overflow; Policy.MaxDelay
// clamps it far lower anyway.
const maxRetryAfter = 24 * time.Hour

// ParseRetryAfter parses a Retry-After header value: a number of seconds or an HTTP date, taken relative to
// now. A date in the past gives 0. It reports false for a value that is neither. Results are capped at 24h;
// [Do] further clamps them to Policy.MaxDelay, and gives up when the wait would end at or past the deadline.
func ParseRetryAfter(value string, now time.Time) (time.Duration, bool) {
	if value == "" {
		return 0, false
	}
	if n, err := strconv.ParseUint(value, 10, 64); err == nil {
		if n > uint64(maxRetryAfter/time.Second) {
			return maxRetryAfter, true
		}
		return time.Duration(n) * time.Second, true
	} else if value[0] >= '0' && value[0] <= '9' && errors.Is(err, strconv.ErrRange) {
		return maxRetryAfter, true
	}
	t, err := http.ParseTime(value)
	if err != nil {
		return 0, false
	}
	return min(max(t.Sub(now), 0), maxRetryAfter), true
}

// retryAfterHint returns the Retry-After delay carried by err, 0 if none.
func retryAfterHint(err error) time.Duration {
	var se *StatusError
	if errors.As(err, &se) {
		return se.RetryAfter
	}
	return 0
}
