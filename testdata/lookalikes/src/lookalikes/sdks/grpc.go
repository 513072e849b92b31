package sdks

import (
	"context"
	"time"

	"github.com/google/uuid"
	grpcretry "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"github.com/idemlint/idemlint/runtime/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"lookalikes/paymentspb"
)

// RetryUnavailable retries only codes.Unavailable and ResourceExhausted,
// jittered, each attempt with its own deadline, one request id for all.
//
// lookalike retrystatus,retrytimeout,keyinloop passes/retrystatus/testdata/src/grpccodes: a retry loop that continues on a permanent code
func RetryUnavailable(ctx context.Context, c paymentspb.PaymentsClient, amount int64) (*paymentspb.Payment, error) {
	req := &paymentspb.CreatePaymentRequest{Amount: amount, RequestId: uuid.NewString()}
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		actx, cancel := context.WithTimeout(ctx, 2*time.Second)
		var p *paymentspb.Payment
		p, err = c.CreatePayment(actx, req)
		cancel()
		if err == nil {
			return p, nil
		}
		switch status.Code(err) {
		case codes.Unavailable, codes.ResourceExhausted:
		default:
			return nil, err
		}
		time.Sleep(retry.Jitter(100 * time.Millisecond << attempt))
	}
	return nil, err
}

// transientCodes are the codes the interceptor retries.
var transientCodes = []codes.Code{codes.Unavailable, codes.ResourceExhausted}

// DialTransient dials with the interceptor retrying transient codes only,
// from a variable, with a per-retry timeout.
//
// lookalike retrystatus,retrytimeout,nojitter passes/retrystatus/testdata/src/grpccodes: retry.WithCodes listing a permanent code
func DialTransient(target string) (*grpc.ClientConn, error) {
	return grpc.NewClient(target,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUnaryInterceptor(grpcretry.UnaryClientInterceptor(
			grpcretry.WithMax(3),
			grpcretry.WithCodes(transientCodes...),
			grpcretry.WithPerRetryTimeout(time.Second),
			grpcretry.WithBackoff(grpcretry.BackoffExponentialWithJitterBounded(50*time.Millisecond, 0.5, time.Second)))))
}
