// Package cleanhttp is a stub of github.com/hashicorp/go-cleanhttp for
// analyzer tests: real signatures, no behaviour.
package cleanhttp

import "net/http"

// DefaultTransport returns a new http.Transport (no idle-connection reuse).
func DefaultTransport() *http.Transport { panic("stub") }

// DefaultPooledTransport returns a new http.Transport that reuses connections.
func DefaultPooledTransport() *http.Transport { panic("stub") }

// DefaultClient returns a new http.Client with DefaultTransport: no Timeout.
func DefaultClient() *http.Client { panic("stub") }

// DefaultPooledClient returns a new http.Client with DefaultPooledTransport: no Timeout.
func DefaultPooledClient() *http.Client { panic("stub") }
