package backoff

import (
	"context"
	"net/http"
	"time"

	avast "github.com/avast/retry-go/v4"
	cenkalti "github.com/cenkalti/backoff/v4"
	grpcretry "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"github.com/hashicorp/go-retryablehttp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// NewAPIClient builds a retryablehttp client with a jittered backoff set
// after construction and a timeout on each attempt.
//
// lookalike nojitter,retrytimeout godo-retry-nojitter: a retryablehttp client left on DefaultBackoff with no timeout
func NewAPIClient() *http.Client {
	c := retryablehttp.NewClient()
	c.Backoff = retryablehttp.LinearJitterBackoff
	c.RetryMax = 3
	c.HTTPClient.Timeout = 15 * time.Second
	return c.StandardClient()
}

// retryingTransport is the client's retryablehttp transport, jittered.
func retryingTransport() *retryablehttp.RoundTripper {
	c := retryablehttp.NewClient()
	c.Backoff = retryablehttp.RateLimitLinearJitterBackoff
	c.HTTPClient.Timeout = 10 * time.Second
	return &retryablehttp.RoundTripper{Client: c}
}

// NewTransportClient sends through a jittered retryablehttp round tripper.
//
// lookalike nojitter retryablehttp-roundtripper-nojitter: a RoundTripper over a client with DefaultBackoff
func NewTransportClient() *http.Client {
	return &http.Client{Transport: retryingTransport(), Timeout: 30 * time.Second}
}

// jitteredClient is the package's client, jittered, at package level.
var jitteredClient = func() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.Backoff = retryablehttp.LinearJitterBackoff
	c.HTTPClient.Timeout = 10 * time.Second
	return c
}()

// GetStatus reads a status page through the package-level jittered client.
//
// lookalike nojitter retryablehttp-default-client-nojitter: a library default client in a package variable
func GetStatus(url string) (int, error) {
	resp, err := jitteredClient.Get(url)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return resp.StatusCode, nil
}

// Heartbeat retries with cenkalti's exponential backoff, randomised by
// default, bounded by MaxElapsedTime and the context.
//
// lookalike nojitter,unboundedretry sarama-heartbeat: a heartbeat retried at a constant interval
func Heartbeat(ctx context.Context, beat func() error) error {
	b := cenkalti.NewExponentialBackOff(cenkalti.WithMaxElapsedTime(30 * time.Second))
	return cenkalti.Retry(beat, cenkalti.WithContext(b, ctx))
}

// CommitOffsets retries with retry-go's default delay (exponential plus
// random), five attempts, under the caller's context.
//
// lookalike nojitter kafkago-commit-offsets: offsets committed again after a constant sleep
func CommitOffsets(ctx context.Context, commit func() error) error {
	return avast.Do(commit, avast.Attempts(5), avast.Delay(100*time.Millisecond), avast.MaxJitter(100*time.Millisecond), avast.Context(ctx))
}

// FullJitter uses retry-go's full-jitter delay type, with a cap.
//
// lookalike nojitter kafkago-write-batch: a batch written again after a computed delay without jitter
func FullJitter(ctx context.Context, write func() error) error {
	return avast.Do(write,
		avast.Attempts(4),
		avast.DelayType(avast.FullJitterBackoffDelay),
		avast.MaxDelay(5*time.Second),
		avast.Context(ctx))
}

// retryOpts are the interceptor's options, in a variable: jittered and capped.
var retryOpts = []grpcretry.CallOption{
	grpcretry.WithMax(3),
	grpcretry.WithBackoff(grpcretry.BackoffExponentialWithJitter(100*time.Millisecond, 0.2)),
	grpcretry.WithPerRetryTimeout(2 * time.Second),
}

// DialLedger dials with the retry interceptor, jittered, from an option
// slice.
//
// lookalike nojitter,retrytimeout etcd-lease-recv-nojitter: a gRPC retry interceptor with a linear unjittered backoff
func DialLedger(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUnaryInterceptor(grpcretry.UnaryClientInterceptor(retryOpts...)))
}
