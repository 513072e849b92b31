package defaultset

import (
	"net/http"
	"time"
)

func init() { http.DefaultClient.Timeout = 10 * time.Second }

// The package gives http.DefaultClient a timeout: nothing is reported.
func get(url string) error {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		if resp, err = http.Get(url); err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return err
}

func do(req *http.Request) error {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		if resp, err = http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return err
}
