// Package sender sends the requests the other test packages build and
// retry: one helper they share, outside the code under test.
package sender

import "net/http"

// Send sends req with the default client and closes the response body.
func Send(req *http.Request) error {
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
