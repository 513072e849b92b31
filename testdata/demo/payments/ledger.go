package payments

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
)

// Ledger posts ledger entries over gRPC.
type Ledger struct {
	conn *grpc.ClientConn
}

// NewLedger dials the ledger with go-grpc-middleware's retry interceptor:
// three attempts per call, a fixed wait, and a permanent code retried.
func NewLedger(target string) (*Ledger, error) {
	conn, err := grpc.NewClient(target,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithUnaryInterceptor(retry.UnaryClientInterceptor(
			retry.WithMax(3),
			retry.WithBackoff(retry.BackoffLinear(100*time.Millisecond)),
			retry.WithCodes(codes.Unavailable, codes.FailedPrecondition),
		)))
	if err != nil {
		return nil, err
	}
	return &Ledger{conn: conn}, nil
}

// PostEntry retries the call three times more around the interceptor's
// own retries, with no deadline on any attempt.
func (l *Ledger) PostEntry(entry, reply any) error {
	ctx := context.Background()
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = l.conn.Invoke(ctx, "/ledger.v1.Ledger/PostEntry", entry, reply); err == nil {
			return nil
		}
		time.Sleep(rand.N(time.Second))
	}
	return err
}
