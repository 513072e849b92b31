package sdk

import (
	"net/http"
	"time"
)

// SendAliased retries the caller's request through a local copy of it:
// any method, POST too.
func SendAliased(c *http.Client, req *http.Request) (*http.Response, error) {
	r := req
	var res *http.Response
	var err error
	for i := 0; i < 3; i++ {
		res, err = c.Do(r) // want `a retry of the caller's requests, POST too, has no idempotency key`
		if err == nil {
			return res, nil
		}
		time.Sleep(time.Second)
	}
	return nil, err
}
