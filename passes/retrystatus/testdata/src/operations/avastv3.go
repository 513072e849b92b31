package operations

import (
	"fmt"
	"net/http"

	retrygo3 "github.com/avast/retry-go"
)

func retryGoV3(url string) error {
	return retrygo3.Do(func() error {
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK { // want `retry\.Do retries every 4xx but 408 and 429; wrap the error in retry\.Unrecoverable for them` `retry\.Do retries 429 without reading Retry-After`
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		return nil
	}, retrygo3.Attempts(3))
}

func retryGoV3Unrecoverable(url string) error {
	return retrygo3.Do(func() error {
		resp, err := http.Get(url)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			return errStatus
		}
		if resp.StatusCode >= 400 {
			return retrygo3.Unrecoverable(fmt.Errorf("status %d", resp.StatusCode))
		}
		return nil
	})
}
