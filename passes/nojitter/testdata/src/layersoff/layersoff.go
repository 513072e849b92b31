// Package layersoff holds look-alikes of unjittered client backoffs
// (issue 47): the go-retryablehttp client makes one attempt, set after
// construction, so its backoff never waits.
package layersoff

import (
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

func standard() *http.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = 0
	return c.StandardClient()
}

type Client struct {
	http *http.Client
}

func New(timeout time.Duration) *Client {
	rc := retryablehttp.NewClient()
	rc.HTTPClient.Timeout = timeout
	rc.RetryMax = 0
	return &Client{http: rc.StandardClient()}
}

// the client's own wait is set after construction: jittered
func jittered() *http.Client {
	c := retryablehttp.NewClient()
	c.Backoff = retryablehttp.LinearJitterBackoff
	return c.StandardClient()
}

// Clients kept in struct fields, set after they are stored.

type Once struct {
	rc *retryablehttp.Client
}

func NewOnce() *Once {
	o := &Once{rc: retryablehttp.NewClient()}
	o.rc.RetryMax = 0
	return o
}

type Poster struct {
	rc *retryablehttp.Client
}

func NewPoster() *Poster {
	p := &Poster{rc: retryablehttp.NewClient()}
	p.rc.Backoff = retryablehttp.LinearJitterBackoff
	return p
}
