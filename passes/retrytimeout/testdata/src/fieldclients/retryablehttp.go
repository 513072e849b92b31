package fieldclients

import (
	"io"
	"net/http"
	"time"

	"github.com/hashicorp/go-cleanhttp"
)

// go-retryablehttp's shape: the constructor's literal and a lazy
// fallback, a request wrapping the caller's, copied between attempts.
type Request struct {
	body func() (io.Reader, error)
	*http.Request
}

type Client struct {
	HTTPClient *http.Client
	RetryMax   int
}

func NewClient() *Client {
	return &Client{HTTPClient: cleanhttp.DefaultPooledClient(), RetryMax: 4}
}

func (c *Client) Do(req *Request) (*http.Response, error) {
	if c.HTTPClient == nil {
		c.HTTPClient = cleanhttp.DefaultPooledClient()
	}
	for i := 0; ; i++ {
		resp, err := c.HTTPClient.Do(req.Request) // want `\(\*http.Client\).Do in a retry can hang: field HTTPClient has no Timeout by default; set one`
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if i == c.RetryMax {
			return resp, err
		}
		httpreq := *req.Request
		req.Request = &httpreq
		time.Sleep(time.Second)
	}
}
