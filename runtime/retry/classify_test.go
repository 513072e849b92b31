package retry

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

type verdict bool

func (v verdict) Error() string   { return "verdict" }
func (v verdict) Retryable() bool { return bool(v) }

func TestClassify(t *testing.T) {
	wrap := func(err error) error { return fmt.Errorf("call: %w", err) }
	dial := func(errno syscall.Errno) error {
		return &url.Error{Op: "Get", URL: "http://x", Err: &net.OpError{Op: "dial", Net: "tcp",
			Err: &os.SyscallError{Syscall: "connect", Err: errno}}}
	}
	type classCase struct {
		name string
		err  error
		want Class
	}
	cases := []classCase{
		{"nil", nil, ClassUnknown},
		{"plain", errors.New("x"), ClassUnknown},
		{"Permanent", wrap(Permanent(errors.New("x"))), ClassPermanent},
		{"Permanent over transient", Permanent(&StatusError{StatusCode: 503}), ClassPermanent},
		{"canceled", wrap(context.Canceled), ClassPermanent},
		{"deadline exceeded", wrap(context.DeadlineExceeded), ClassTransient},
		{"says retryable", wrap(verdict(true)), ClassTransient},
		{"says not retryable", wrap(verdict(false)), ClassPermanent},
		{"refused", dial(syscall.ECONNREFUSED), ClassTransient},
		{"reset", dial(syscall.ECONNRESET), ClassTransient},
		{"broken pipe", dial(syscall.EPIPE), ClassTransient},
		{"unreachable", dial(syscall.EHOSTUNREACH), ClassTransient},
		{"permission", dial(syscall.EACCES), ClassUnknown},
		{"i/o timeout", &net.OpError{Op: "read", Err: os.ErrDeadlineExceeded}, ClassTransient},
		{"dns temporary", &net.DNSError{Err: "server misbehaving", Name: "x", IsTemporary: true}, ClassTransient},
		{"dns timeout", &net.DNSError{Err: "timeout", Name: "x", IsTimeout: true}, ClassTransient},
		{"dns not found", &net.DNSError{Err: "no such host", Name: "x", IsNotFound: true}, ClassPermanent},
		{"dns other", &net.DNSError{Err: "odd", Name: "x"}, ClassUnknown},
		{"bad certificate", wrap(x509.UnknownAuthorityError{}), ClassPermanent},
		{"bad hostname", wrap(x509.HostnameError{Host: "x"}), ClassPermanent},
		{"url parse", wrap(&url.Error{Op: "parse", URL: "::", Err: errors.New("missing scheme")}), ClassPermanent},
		{"unexpected EOF", wrap(io.ErrUnexpectedEOF), ClassTransient},
		{"EOF from a connection", &url.Error{Op: "Post", URL: "http://x", Err: io.EOF}, ClassTransient},
		{"bare EOF", io.EOF, ClassUnknown},
	}
	// HTTP statuses, bare and wrapped.
	for want, codes := range map[Class][]int{
		ClassTransient: {408, 429, 502, 503, 504},
		ClassUnknown:   {500, 507},
		ClassPermanent: {400, 401, 403, 404, 409, 422, 501},
	} {
		for _, code := range codes {
			err := &StatusError{StatusCode: code}
			cases = append(cases, classCase{strconv.Itoa(code), err, want}, classCase{"wrapped " + strconv.Itoa(code), wrap(err), want})
		}
	}
	for _, tc := range cases {
		if got := Classify(tc.err); got != tc.want {
			t.Errorf("Classify(%s: %v) = %v, want %v", tc.name, tc.err, got, tc.want)
		}
		if tc.err != nil {
			if got, want := DefaultRetryable(tc.err), tc.want != ClassPermanent; got != want {
				t.Errorf("DefaultRetryable(%s) = %v, want %v", tc.name, got, want)
			}
		}
	}
}

// TestClassifyRealErrors classifies errors that the network stack really returns.
func TestClassifyRealErrors(t *testing.T) {
	refused := closedURL(t)
	_, err := http.Get(refused)
	if Classify(err) != ClassTransient {
		t.Errorf("connection refused %v: %v, want transient", err, Classify(err))
	}
	c := &http.Client{Timeout: time.Nanosecond}
	_, err = c.Get(refused)
	if Classify(err) != ClassTransient {
		t.Errorf("client timeout %v: %v, want transient", err, Classify(err))
	}
	_, err = http.Get("http://[::1]:namedport/")
	if Classify(err) != ClassPermanent {
		t.Errorf("bad URL %v: %v, want permanent", err, Classify(err))
	}
}

// closedURL returns an http URL on a local port nothing listens on: connecting to it is refused.
func closedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/"
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true},
		{"120", 2 * time.Minute, true},
		{"99999999999999999999999", 24 * time.Hour, true},
		{"864000", 24 * time.Hour, true},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0, true},
		{"Fri, 31 Dec 1999 23:59:59 GMT", 0, true},
		{"", 0, false},
		{"-5", 0, false},
		{"1.5", 0, false},
		{"soon", 0, false},
	} {
		got, ok := ParseRetryAfter(tc.in, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestClassString(t *testing.T) {
	if ClassUnknown.String() != "unknown" || ClassTransient.String() != "transient" || ClassPermanent.String() != "permanent" {
		t.Error("Class names")
	}
}

func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{"0", "5", "-1", "1e3", "18446744073709551616", "Wed, 21 Oct 2015 07:28:00 GMT",
		"Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", " 5", ""} {
		f.Add(s)
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := ParseRetryAfter(s, now)
		if d < 0 || d > 24*time.Hour || !ok && d != 0 {
			t.Errorf("ParseRetryAfter(%q) = %v, %v", s, d, ok)
		}
	})
}
