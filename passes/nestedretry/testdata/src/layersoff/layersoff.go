// Package layersoff holds look-alikes of nested retries (issue 47): the
// inner call goes through a layer that makes one attempt, or one the model
// cannot read, written the way service code writes it (options in slices
// and variables, clients in struct fields set by a constructor, settings
// after construction). None is a nested retry.
package layersoff

import (
	"context"
	"crypto/tls"
	"net/http"
	"time"

	retry "github.com/avast/retry-go/v4"
	grpcretry "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"github.com/hashicorp/go-retryablehttp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"grpcpb"
)

const retryPolicy = `{"methodConfig": [{"name": [{"service": "payments.v1.Payments"}],
  "retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`

// timeoutOnly gives the methods a deadline and waits for the connection,
// but retries nothing.
const timeoutOnly = `{"methodConfig": [{"name": [{"service": "payments.v1.Payments"}], "timeout": "2s", "waitForReady": true}]}`

// ---- grpcretry.Disable() on the call

// Payer's conn retries (the interceptor, WithMax(3)); its charge turns that
// off for the one call that creates a payment.
type Payer struct {
	client grpcpb.PaymentsClient
}

func NewPayer(target string) (*Payer, error) {
	conn, err := grpc.NewClient(target,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithChainUnaryInterceptor(grpcretry.UnaryClientInterceptor(grpcretry.WithMax(3))))
	if err != nil {
		return nil, err
	}
	return &Payer{client: grpcpb.NewPaymentsClient(conn)}, nil
}

func (p *Payer) charge(ctx context.Context, req *grpcpb.CreatePaymentRequest) error {
	return retry.Do(func() error {
		_, err := p.client.CreatePayment(ctx, req, grpcretry.Disable())
		return err
	}, retry.Context(ctx))
}

// noRetry is the package's per-call options for calls under its own retry.
var noRetry = []grpc.CallOption{grpcretry.Disable()}

func (p *Payer) chargeNoRetry(ctx context.Context, req *grpcpb.CreatePaymentRequest) error {
	return retry.Do(func() error {
		_, err := p.client.CreatePayment(ctx, req, noRetry...)
		return err
	})
}

func (p *Payer) chargeAppended(ctx context.Context, req *grpcpb.CreatePaymentRequest) error {
	callOpts := []grpc.CallOption{grpc.WaitForReady(true)}
	callOpts = append(callOpts, grpcretry.Disable())
	return retry.Do(func() error {
		_, err := p.client.CreatePayment(ctx, req, callOpts...)
		return err
	})
}

func (p *Payer) chargeOneAttempt(ctx context.Context, req *grpcpb.CreatePaymentRequest) error {
	once := grpcretry.WithMax(1)
	return retry.Do(func() error {
		_, err := p.client.CreatePayment(ctx, req, once)
		return err
	})
}

// ---- grpc.WithDisableRetry() on the dial

// Ledger dials with a retry policy from a shared config, and turns it off.
type Ledger struct {
	conn *grpc.ClientConn
}

func NewLedger(target string, tlsConf *tls.Config) (*Ledger, error) {
	opts := []grpc.DialOption{
		grpc.WithTransportCredentials(credentials.NewTLS(tlsConf)),
		grpc.WithDefaultServiceConfig(retryPolicy),
	}
	opts = append(opts, grpc.WithDisableRetry())
	conn, err := grpc.NewClient(target, opts...)
	if err != nil {
		return nil, err
	}
	return &Ledger{conn: conn}, nil
}

func (l *Ledger) post(ctx context.Context, req *grpcpb.CreatePaymentRequest) error {
	return retry.Do(func() error {
		return l.conn.Invoke(ctx, grpcpb.Payments_CreatePayment_FullMethodName, req, new(grpcpb.Payment))
	})
}

// dialOptions is the package's one place for its dial options.
func dialOptions() []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(retryPolicy),
		grpc.WithDisableRetry(),
	}
}

type Refunds struct {
	client grpcpb.PaymentsClient
}

func NewRefunds(target string) (*Refunds, error) {
	conn, err := grpc.NewClient(target, dialOptions()...)
	if err != nil {
		return nil, err
	}
	return &Refunds{client: grpcpb.NewPaymentsClient(conn)}, nil
}

func (r *Refunds) refund(ctx context.Context, req *grpcpb.CreatePaymentRequest) error {
	return retry.Do(func() error {
		_, err := r.client.CreatePayment(ctx, req)
		return err
	})
}

// ---- plain conns: transparent retries only

type Plain struct {
	client grpcpb.PaymentsClient
}

func NewPlain(target string, tlsConf *tls.Config) (*Plain, error) {
	creds := grpc.WithTransportCredentials(credentials.NewTLS(tlsConf))
	conn, err := grpc.NewClient(target, creds)
	if err != nil {
		return nil, err
	}
	return &Plain{client: grpcpb.NewPaymentsClient(conn)}, nil
}

func (p *Plain) create(ctx context.Context, req *grpcpb.CreatePaymentRequest) error {
	return retry.Do(func() error {
		_, err := p.client.CreatePayment(ctx, req)
		return err
	})
}

// NewPlainWith takes the caller's credentials: the model cannot read them,
// but a credentials option installs no retries.
func NewPlainWith(target string, creds credentials.TransportCredentials) (*Plain, error) {
	conn, err := grpc.NewClient(target, grpc.WithTransportCredentials(creds))
	if err != nil {
		return nil, err
	}
	return &Plain{client: grpcpb.NewPaymentsClient(conn)}, nil
}

type Timed struct {
	conn *grpc.ClientConn
}

func NewTimed(target string) (*Timed, error) {
	opts := []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	opts = append(opts, grpc.WithDefaultServiceConfig(timeoutOnly))
	conn, err := grpc.NewClient(target, opts...)
	if err != nil {
		return nil, err
	}
	return &Timed{conn: conn}, nil
}

func (t *Timed) create(ctx context.Context, req *grpcpb.CreatePaymentRequest) error {
	return retry.Do(func() error {
		return t.conn.Invoke(ctx, grpcpb.Payments_CreatePayment_FullMethodName, req, new(grpcpb.Payment))
	})
}

// ---- conns whose options the model cannot read: no layer

// Remote is dialled with the caller's options.
type Remote struct {
	client grpcpb.PaymentsClient
}

func NewRemote(target string, opts ...grpc.DialOption) (*Remote, error) {
	conn, err := grpc.NewClient(target, opts...)
	if err != nil {
		return nil, err
	}
	return &Remote{client: grpcpb.NewPaymentsClient(conn)}, nil
}

func (r *Remote) create(ctx context.Context, req *grpcpb.CreatePaymentRequest) error {
	return retry.Do(func() error {
		_, err := r.client.CreatePayment(ctx, req)
		return err
	})
}

// Configured reads its service config at run time.
type Configured struct {
	conn *grpc.ClientConn
}

func NewConfigured(target, serviceConfig string) (*Configured, error) {
	conn, err := grpc.NewClient(target, grpc.WithDefaultServiceConfig(serviceConfig))
	if err != nil {
		return nil, err
	}
	return &Configured{conn: conn}, nil
}

func (c *Configured) create(ctx context.Context, req *grpcpb.CreatePaymentRequest) error {
	return retry.Do(func() error {
		return c.conn.Invoke(ctx, grpcpb.Payments_CreatePayment_FullMethodName, req, new(grpcpb.Payment))
	})
}

// ---- go-retryablehttp with RetryMax 0, set after construction

type Notifier struct {
	http *http.Client
	url  string
}

func NewNotifier(url string) *Notifier {
	c := retryablehttp.NewClient()
	c.RetryMax = 0
	return &Notifier{http: c.StandardClient(), url: url}
}

func (n *Notifier) notify(ctx context.Context) error {
	return retry.Do(func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.url, nil)
		if err != nil {
			return err
		}
		resp, err := n.http.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}

// Hooks keeps the retryablehttp client itself, configured in its
// constructor from settings the model cannot read.
type Hooks struct {
	rc *retryablehttp.Client
}

func NewHooks(retries int) *Hooks {
	rc := retryablehttp.NewClient()
	rc.RetryMax = retries
	return &Hooks{rc: rc}
}

func (h *Hooks) send(url string) error {
	return retry.Do(func() error {
		_, err := h.rc.Post(url, "application/json", nil)
		return err
	})
}

// ---- retry-go with one attempt inside another retry

func send(ctx context.Context) error { return nil }

func chargeOnce(ctx context.Context) error {
	return retry.Do(func() error { return send(ctx) }, retry.Attempts(1), retry.Context(ctx))
}

func sync(ctx context.Context) error {
	return retry.Do(func() error {
		return chargeOnce(ctx)
	}, retry.Attempts(3))
}

func syncInline(ctx context.Context) error {
	opts := []retry.Option{retry.Attempts(1)}
	return retry.Do(func() error {
		return retry.Do(func() error { return send(ctx) }, opts...)
	}, retry.Attempts(3))
}

// Ledger2 keeps the retryablehttp client in a field and turns its retries
// off after storing it.
type Ledger2 struct {
	rc *retryablehttp.Client
}

func NewLedger2() *Ledger2 {
	l := &Ledger2{rc: retryablehttp.NewClient()}
	l.rc.RetryMax = 0
	return l
}

func (l *Ledger2) post(url string) error {
	return retry.Do(func() error {
		_, err := l.rc.Post(url, "application/json", nil)
		return err
	})
}

// noRetries is the package's one place for the option that turns a conn's
// retries off.
func noRetries() grpc.DialOption { return grpc.WithDisableRetry() }

type Accounts struct {
	conn *grpc.ClientConn
}

func NewAccounts(target string) (*Accounts, error) {
	conn, err := grpc.NewClient(target, grpc.WithDefaultServiceConfig(retryPolicy), noRetries())
	if err != nil {
		return nil, err
	}
	return &Accounts{conn: conn}, nil
}

func (a *Accounts) open(ctx context.Context, req *grpcpb.CreatePaymentRequest) error {
	return retry.Do(func() error {
		return a.conn.Invoke(ctx, grpcpb.Payments_CreatePayment_FullMethodName, req, new(grpcpb.Payment))
	})
}

type Wallets struct {
	client grpcpb.PaymentsClient
}

func NewWallets(target string, tlsConf *tls.Config) (*Wallets, error) {
	var opts []grpc.DialOption
	opts = append(opts, grpc.WithTransportCredentials(credentials.NewTLS(tlsConf)))
	opts = append(opts, grpc.WithChainUnaryInterceptor(grpcretry.UnaryClientInterceptor(grpcretry.WithMax(3))))
	conn, err := grpc.NewClient(target, opts...)
	if err != nil {
		return nil, err
	}
	return &Wallets{client: grpcpb.NewPaymentsClient(conn)}, nil
}

func (w *Wallets) debit(ctx context.Context, req *grpcpb.CreatePaymentRequest) error {
	callOpts := make([]grpc.CallOption, 0, 2)
	callOpts = append(callOpts, grpcretry.Disable())
	return retry.Do(func() error {
		_, err := w.client.CreatePayment(ctx, req, callOpts...)
		return err
	})
}

// newRetryClient is the package's one constructor of retrying clients;
// this caller turns the retries off on its own copy.
func newRetryClient() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.RetryWaitMin = 100 * time.Millisecond
	return c
}

func pushOnce(ctx context.Context, url string) error {
	c := newRetryClient()
	c.RetryMax = 0
	return retry.Do(func() error {
		_, err := c.Post(url, "application/json", nil)
		return err
	}, retry.Context(ctx))
}
