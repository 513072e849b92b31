package flows

import (
	"net/http"

	"github.com/hashicorp/go-retryablehttp"
)

// A constructor stores a retrying client in a field: the field holds it.
type Client struct {
	client *retryablehttp.Client
	plain  *retryablehttp.Client
	mixed  *retryablehttp.Client
}

func newClient() *Client {
	c := &Client{}
	c.client = &retryablehttp.Client{RetryMax: 5} // want `retrying-client cap=6`
	rc := retryablehttp.NewClient()               // want `retrying-client cap=5`
	c.mixed = rc
	return c
}

// A field that also holds other clients holds no known one.
func (c *Client) replace(other *retryablehttp.Client) { // want `other: nil`
	c.mixed = other
}

// A client without retries is no retrying client.
func plain() *Client {
	return &Client{plain: &retryablehttp.Client{}}
}

func (c *Client) use() {
	c.replace(nil)
	_ = c.client // want `field client holds the client of line 18`
	_ = c.plain
	_ = c.mixed
}

// The method parameter's values at the package's call sites.
func (c *Client) NewRequest(method, path string) (*retryablehttp.Request, error) { // want `method: http.MethodPost, m` `path: "/things", "/things"`
	return retryablehttp.NewRequest(method, path, nil)
}

func (c *Client) CreateThing(m string) {
	_, _ = c.NewRequest(http.MethodPost, "/things")
	_, _ = c.NewRequest(m, "/things")
}

// A variadic parameter gets one argument per value; a spread slice none.
func send(method string, paths ...string) {} // want `method: http.MethodGet, "PUT"` `paths: "/a", "/b"`

func calls(ps []string) {
	send(http.MethodGet, "/a", "/b")
	send("PUT", ps...)
}
