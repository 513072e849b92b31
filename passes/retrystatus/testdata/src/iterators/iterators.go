// Package iterators holds retries driven by an attempt iterator, as
// minio-go's executeMethod ranges over c.newRetryTimer(...).
package iterators

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"iter"
	"math/rand"
	"net/http"
	"time"

	"github.com/minio/minio-go/v7/pkg/set"
)

type client struct {
	hc                     *http.Client
	region                 string
	trace, traceErrorsOnly bool
}

func (c *client) retryTimer(ctx context.Context, maxRetry int, base time.Duration) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range maxRetry {
			if !yield(i) {
				return
			}
			select {
			case <-time.After(time.Duration(rand.Int63n(int64(base << i)))):
			case <-ctx.Done():
				return
			}
		}
	}
}

// retryable is minio-go's retryableHTTPStatusCodes.
var retryable = set.CreateIntSet(
	http.StatusRequestTimeout,
	429,
	499,
	http.StatusInternalServerError,
	http.StatusBadGateway,
	http.StatusServiceUnavailable,
	http.StatusGatewayTimeout,
)

func isStatusRetryable(code int) bool {
	return retryable.Contains(code)
}

// execute is minio-go's executeMethod: 429 retried on the client's own
// schedule.
func (c *client) execute(ctx context.Context, req *http.Request) (*http.Response, error) {
	var res *http.Response
	var err error
	for range c.retryTimer(ctx, 10, time.Second) {
		res, err = c.hc.Do(req)
		if err != nil {
			continue
		}
		if res.StatusCode == http.StatusOK {
			return res, nil
		}
		res.Body.Close()
		if isStatusRetryable(res.StatusCode) { // want `retry loop retries 499, a permanent status` `retry loop retries 429 without reading Retry-After`
			continue
		}
		break
	}
	return res, err
}

// executeAfter honours Retry-After; 499 (nginx's "client closed request",
// in minio-go's set) is a 4xx like any other.
func (c *client) executeAfter(ctx context.Context, req *http.Request) (*http.Response, error) {
	var res *http.Response
	var err error
	for range c.retryTimer(ctx, 10, time.Second) {
		res, err = c.hc.Do(req)
		if err != nil {
			continue
		}
		if res.StatusCode == http.StatusOK {
			return res, nil
		}
		res.Body.Close()
		if res.StatusCode == http.StatusTooManyRequests {
			if d, err := time.ParseDuration(res.Header.Get("Retry-After") + "s"); err == nil {
				time.Sleep(d)
			}
			continue
		}
		if isStatusRetryable(res.StatusCode) { // want `retry loop retries 499, a permanent status`
			continue
		}
		break
	}
	return res, err
}

var successStatus = set.CreateIntSet(http.StatusOK, http.StatusAccepted, http.StatusNoContent, http.StatusPartialContent)

type errorResponse struct {
	Code   string
	Region string
}

func (e errorResponse) Error() string { return e.Code }

// toError is httpRespToErrorResponse: an error for every response, nil
// only for a success whose body does not decode.
func toError(res *http.Response) error {
	if res == nil {
		return errorResponse{Code: "empty"}
	}
	errResp := errorResponse{Code: res.Status}
	success := successStatus.Contains(res.StatusCode)
	errBody, err := decodeBody(res.Body, &errResp)
	if err != nil {
		var unmarshalErr *xml.UnmarshalError
		if success && errors.As(err, &unmarshalErr) {
			return nil
		}
		switch res.StatusCode {
		case http.StatusNotFound:
			errResp = errorResponse{Code: "NoSuchKey"}
		default:
			msg := res.Status
			if len(errBody) > 0 {
				msg = string(errBody)
			}
			errResp = errorResponse{Code: msg}
		}
	}
	if code := res.Header.Get("x-minio-error-code"); code != "" {
		errResp.Code = code
	}
	return errResp
}

func decodeBody(body io.Reader, v any) ([]byte, error) {
	b, err := io.ReadAll(body)
	if err != nil {
		return nil, err
	}
	return b, xml.Unmarshal(b, v)
}

// toErrorResponse is minio-go's ToErrorResponse: a type switch that
// changes nothing.
func toErrorResponse(err error) errorResponse {
	switch err := err.(type) {
	case errorResponse:
		return err
	default:
		return errorResponse{}
	}
}

func isCodeRetryable(code string) bool { return code == "SlowDown" }

// closeResponse is minio-go's: drain and close.
func closeResponse(resp *http.Response) {
	if resp != nil && resp.Body != nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}

// executeFull is executeMethod with its region retry and S3 codes.
func (c *client) do(req *http.Request) (*http.Response, error) {
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	if resp == nil {
		return nil, errorResponse{Code: "empty"}
	}
	if c.trace && (!c.traceErrorsOnly || !successStatus.Contains(resp.StatusCode)) {
		err = c.dump(req, resp)
		if err != nil {
			return nil, err
		}
	}
	return resp, nil
}

func (c *client) dump(req *http.Request, resp *http.Response) error { return nil }

type requestMetadata struct{ bucketLocation string }

func (c *client) executeFull(ctx context.Context, req *http.Request, expectError bool, metadata requestMetadata) (*http.Response, error) {
	var res *http.Response
	var err error
	for range c.retryTimer(ctx, 10, time.Second) {
		res, err = c.do(req)
		if err != nil {
			continue
		}
		success := successStatus.Contains(res.StatusCode)
		if success && !expectError {
			return res, nil
		}
		var bodyBytes []byte
		bodyBytes, err = io.ReadAll(io.LimitReader(res.Body, 5<<20))
		closeResponse(res)
		if err != nil {
			return nil, err
		}
		bodySeeker := bytes.NewReader(bodyBytes)
		res.Body = io.NopCloser(bodySeeker)
		apiErr := toError(res)
		bodySeeker.Seek(0, 0)
		res.Body = io.NopCloser(bodySeeker)
		if apiErr == nil {
			return res, nil
		}
		errResponse := toErrorResponse(apiErr)
		err = errResponse
		if c.region == "" {
			switch errResponse.Code {
			case "AuthorizationHeaderMalformed":
				fallthrough
			case "InvalidRegion":
				if errResponse.Region == "" {
					return res, err
				}
				if errResponse.Region != metadata.bucketLocation {
					metadata.bucketLocation = errResponse.Region
					continue
				}
			}
		}
		if isCodeRetryable(errResponse.Code) {
			continue
		}
		if isStatusRetryable(res.StatusCode) { // want `retry loop retries 499, a permanent status` `retry loop retries 429 without reading Retry-After`
			continue
		}
		break
	}
	return res, err
}

// toErrorIfDecoded returns nil for any status whose body does not decode:
// whether a 429 errs depends on its body, so nothing is known of it.
func toErrorIfDecoded(res *http.Response) error {
	var e errorResponse
	if _, err := decodeBody(res.Body, &e); err != nil {
		return nil
	}
	return e
}

// executeDecoded retries what toErrorIfDecoded errs on: undecided for 429
// and 499, so nothing is reported.
func (c *client) executeDecoded(ctx context.Context, req *http.Request) (*http.Response, error) {
	var res *http.Response
	var err error
	for range c.retryTimer(ctx, 10, time.Second) {
		res, err = c.hc.Do(req)
		if err != nil {
			continue
		}
		if err = toErrorIfDecoded(res); err == nil {
			return res, nil
		}
		if isStatusRetryable(res.StatusCode) {
			continue
		}
		break
	}
	return res, err
}

// decodeInto decodes the body into the client's last error: it stores
// what the next attempt may read, so a call of it changes the attempt.
func (c *client) decodeInto(res *http.Response) error {
	var e errorResponse
	_, err := decodeBody(res.Body, &e)
	c.region = e.Region
	return err
}

// executeRegion retries after a call that changes the client (its region):
// the next attempt differs, nothing is reported.
func (c *client) executeRegion(ctx context.Context, req *http.Request) (*http.Response, error) {
	var res *http.Response
	var err error
	for range c.retryTimer(ctx, 10, time.Second) {
		res, err = c.hc.Do(req)
		if err != nil {
			continue
		}
		if successStatus.Contains(res.StatusCode) {
			return res, nil
		}
		_ = c.decodeInto(res)
		if isStatusRetryable(res.StatusCode) {
			continue
		}
		break
	}
	return res, err
}

type object struct{ key string }

// removeObjects is minio-go's multi-delete: each pass sends a new batch
// taken from objects, and a failed batch is reported, not sent again. A
// loop over items, not a retry: nothing is reported.
func (c *client) removeObjects(ctx context.Context, objects <-chan object, results chan<- error) {
	finish := false
	for !finish {
		count := 0
		var batch []object
		for o := range objects {
			batch = append(batch, o)
			if count++; count >= 1000 {
				break
			}
		}
		if count == 0 {
			break
		}
		if count < 1000 {
			finish = true
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://s3/?delete", bytes.NewReader(encode(batch)))
		resp, err := c.hc.Do(req)
		if resp != nil && resp.StatusCode != http.StatusOK {
			err = toError(resp)
		}
		if err != nil {
			for range batch {
				results <- err
			}
			continue
		}
		closeResponse(resp)
	}
}

func encode(batch []object) []byte {
	var b []byte
	for _, o := range batch {
		b = append(b, o.key...)
	}
	return b
}
