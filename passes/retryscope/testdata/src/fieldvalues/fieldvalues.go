// Package fieldvalues holds the stores the model reads as a field's
// defaults (Result.FieldValues): the package's own values, not nil, not
// the parameters it passes on.
package fieldvalues

import (
	"net/http"
	"time"
)

type API struct {
	hc      *http.Client
	given   *http.Client
	timed   *http.Client
	passed  *http.Client
	counted int
	addr    *http.Client
	local   *http.Client
}

// An option passing the caller's client on: the users' value.
func WithClient(hc *http.Client) func(*API) {
	return func(a *API) { a.hc = hc }
}

// A constructor's literal, a fallback, a parameter stored as is, nil.
func New(given *http.Client) *API {
	a := &API{given: given, hc: nil}
	if a.hc == nil {
		a.hc = http.DefaultClient
	}
	a.timed = &http.Client{}
	a.timed.Timeout = time.Second
	a.passed = &http.Client{}
	configure(a.passed)
	a.counted++
	hc := &http.Client{}
	a.local = hc
	return a
}

func configure(*http.Client) {}

func (a *API) take() **http.Client { return &a.addr }

func (a *API) uses() {
	_ = a.hc      // want `field hc: \[http.DefaultClient in New\] reach=false passed=false`
	_ = a.given   // want `field given: \[\] reach=false passed=false`
	_ = a.timed   // want `field timed: \[&http.Client{} in New\] reach=true passed=false`
	_ = a.passed  // want `field passed: \[&http.Client{} in New\] reach=false passed=true`
	_ = a.counted // want `field counted: unknown`
	_ = a.addr    // want `field addr: unknown`
	_ = a.local   // want `field local: \[hc in New\] reach=false passed=false`
}
