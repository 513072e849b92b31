package ctorfields

import "net/http"

// godo's shape: the constructor stores its parameter, or a fallback.
type Client struct {
	HTTPClient *http.Client
	name       string
}

func NewClient(hc *http.Client) *Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	c := &Client{HTTPClient: hc, name: "x"}
	return c
}

func New(hc *http.Client) *Client {
	c := NewClient(hc)
	_ = c.HTTPClient // want `field HTTPClient: \[hc in New; http.DefaultClient in NewClient\]`
	_ = c.name       // want `field name: \["x" in NewClient\]`
	c.HTTPClient = &http.Client{}
	return c
}

// A store before the read, in another function: unknown.
type Opted struct{ HTTPClient *http.Client }

func newOpted(hc *http.Client) *Opted { return &Opted{HTTPClient: hc} }

func (o *Opted) set(hc *http.Client) { o.HTTPClient = hc }

func NewOpted(hc *http.Client) *Opted {
	o := newOpted(hc)
	_ = o.HTTPClient // want `field HTTPClient: unknown`
	return o
}

// The parameter passed on in the constructor: unknown.
type Passed struct{ HTTPClient *http.Client }

func newPassed(hc *http.Client) *Passed {
	configure(hc)
	return &Passed{HTTPClient: hc}
}

func configure(*http.Client) {}

func NewPassed(hc *http.Client) *Passed {
	p := newPassed(hc)
	_ = p.HTTPClient // want `field HTTPClient: unknown`
	return p
}

// Two literals returned: unknown.
type Two struct{ HTTPClient *http.Client }

func newTwo(hc *http.Client, ok bool) *Two {
	if ok {
		return &Two{HTTPClient: hc}
	}
	return &Two{}
}

func NewTwo(hc *http.Client) *Two {
	t := newTwo(hc, true)
	_ = t.HTTPClient // want `field HTTPClient: unknown`
	return t
}

// Read in a loop: unknown.
func loop(hc *http.Client) {
	c := NewClient(hc)
	for i := 0; i < 3; i++ {
		_ = c.HTTPClient // want `field HTTPClient: unknown`
	}
}
