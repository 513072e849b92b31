// Package sdk holds the shapes of generated API clients: the request
// method is a parameter of a request builder, the retrying client is built
// in a constructor and stored in a field, and Do sends every request.
package sdk

import (
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

type Client struct {
	client *retryablehttp.Client
}

func NewClient() *Client {
	c := &Client{}
	c.client = &retryablehttp.Client{RetryMax: 5}
	return c
}

// NewRequest builds a request of any method; its headers are copied from
// a local map whose names are all constant (none a key).
func (c *Client) NewRequest(method, path string) (*retryablehttp.Request, error) {
	h := make(http.Header)
	h.Set("Accept", "application/json")
	req, err := retryablehttp.NewRequest(method, "https://api.example.com"+path, nil)
	if err != nil {
		return nil, err
	}
	for k, v := range h {
		req.Header[k] = v
	}
	return req, nil
}

// Do sends every request the package builds, the POST of CreateIssue
// included, through the retrying client of NewClient.
func (c *Client) Do(req *retryablehttp.Request) (*http.Response, error) {
	req.Header.Set("Authorization", "Bearer token")
	return c.client.Do(req) // want `POST \(\*retryablehttp.Client\).Do through a retryablehttp client has no idempotency key`
}

func (c *Client) GetIssue() error {
	req, err := c.NewRequest(http.MethodGet, "/issues/1")
	if err != nil {
		return err
	}
	_, err = c.Do(req)
	return err
}

func (c *Client) CreateIssue() error {
	req, err := c.NewRequest(http.MethodPost, "/issues")
	if err != nil {
		return err
	}
	_, err = c.Do(req)
	return err
}

// send is a retry loop of the package that re-sends the request it is
// given; Publish passes it a POST.
func send(hc *http.Client, req *http.Request) (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		resp, err = hc.Do(req) // want `POST \(\*http.Client\).Do in a retry has no idempotency key`
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, err
}

func Publish(hc *http.Client) error {
	req, err := http.NewRequest(http.MethodPost, "https://api.example.com/events", nil)
	if err != nil {
		return err
	}
	_, err = send(hc, req)
	return err
}
