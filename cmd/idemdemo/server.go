package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

const (
	problemBase           = "https://github.com/idemlint/idemlint/blob/main/docs/runtime-idempotency.md#"
	problemInvalidPayment = problemBase + "demo-invalid-payment"
	problemPaymentFailed  = problemBase + "demo-payment-failed"
	problemNotFound       = problemBase + "demo-not-found"
	problemMethod         = problemBase + "demo-method-not-allowed"
	problemUnavailable    = problemBase + "demo-unavailable"
)

// payment is the resource the demo creates.
type payment struct {
	ID       string `json:"id"`
	Account  string `json:"account"`
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
}

// paymentStore keeps payments. create joins the attempt's unit of work:
// the payment exists only if the idempotency key completes.
type paymentStore interface {
	create(ctx context.Context, p payment) (payment, error)
	count(ctx context.Context) (int64, error)
}

// accountOf is the tenant of a request: its X-Account header, or the
// default tenant.
func accountOf(r *http.Request) string {
	if a := r.Header.Get("X-Account"); a != "" {
		return a
	}
	return "default"
}

var currencyRE = regexp.MustCompile(`^[A-Z]{3}$`)

// serverConfig is what newServer needs.
type serverConfig struct {
	store    idempotency.Store
	payments paymentStore
	// outbox records each payment's receipt in the payment's unit of work;
	// receipts is where the relay delivers them (for GET /payments/receipts/count).
	outbox   *idempotency.Outbox
	receipts receiptSink
	// lease is the attempt's lease, workDelay the processing time before the commit.
	lease, workDelay time.Duration
	// failAfterReceipt, for tests, makes an attempt fail (500) after its payment and receipt are
	// recorded, when it returns true.
	failAfterReceipt func(r *http.Request) bool
	// log receives the service's log lines (nil: none); metrics, when set, counts the middleware's
	// outcomes and is served on /metrics; ready, when set, checks the store for /readyz.
	log     *slog.Logger
	metrics *metrics
	ready   func(ctx context.Context) error
}

// payErrorKind is how a payment failed: the HTTP and gRPC servers each answer it their way.
type payErrorKind uint8

const (
	payInvalid     payErrorKind = iota + 1 // the request is invalid: 400, INVALID_ARGUMENT (stored, replayed)
	payFailed                              // the attempt failed: 500, INTERNAL (nothing stored, key released)
	payUnavailable                         // the request ended before the commit: 503, UNAVAILABLE
)

type payError struct {
	kind   payErrorKind
	detail string
}

// createPayment is the payment of POST /payments and payments.v1.Payments/CreatePayment: it validates the
// amount and currency, creates the payment and records its receipt in the attempt's unit of work, then waits
// cfg.workDelay before the commit. fail injects a failure after the receipt (tests).
func (cfg *serverConfig) createPayment(ctx context.Context, logger *slog.Logger, account string, amount int64,
	currency string, fail bool) (payment, *payError) {
	switch {
	case amount <= 0:
		return payment{}, &payError{payInvalid, "amount must be a positive integer (minor units)"}
	case !currencyRE.MatchString(currency):
		return payment{}, &payError{payInvalid, "currency must be three upper-case letters (ISO 4217)"}
	}
	p, err := cfg.payments.create(ctx, payment{Account: account, Amount: amount, Currency: currency})
	if err != nil {
		logger.Error("create payment", "error", err)
		return payment{}, &payError{payFailed, "cannot create the payment"}
	}
	// The receipt joins the payment's unit of work: recorded only if the key completes, and once
	// per (payment, key) whatever the retries.
	l, _ := idempotency.LeaseOf(ctx)
	body, err := json.Marshal(receipt{Payment: p.ID, Account: p.Account, Amount: p.Amount, Currency: p.Currency})
	if err == nil {
		err = cfg.outbox.Add(ctx, idempotency.OutboxMessage{Kind: kindReceipt, EntityID: p.ID, Key: l.Key, Payload: body})
	}
	if err != nil {
		logger.Error("record receipt", "payment", p.ID, "error", err)
		return payment{}, &payError{payFailed, "cannot record the payment receipt"}
	}
	if fail {
		return payment{}, &payError{payFailed, "failure injected by the test"}
	}
	if cfg.workDelay > 0 {
		select {
		case <-time.After(cfg.workDelay):
		case <-ctx.Done():
			return payment{}, &payError{payUnavailable, "the request ended before the payment was committed; retry with the same key"}
		}
	}
	return p, nil
}

func newServer(cfg serverConfig) http.Handler {
	payments := cfg.payments
	logger := cfg.log
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	mux := http.NewServeMux()
	logEvent := idempotency.SlogObserver(logger)
	idem := idempotency.Middleware(cfg.store,
		idempotency.WithScope(func(r *http.Request) (string, error) { return accountOf(r), nil }),
		idempotency.WithLease(cfg.lease),
		idempotency.WithObserver(func(ctx context.Context, e idempotency.Event) {
			logEvent(ctx, e)
			if cfg.metrics != nil {
				cfg.metrics.observe(ctx, e)
			}
		}),
	)
	mux.Handle("POST /payments", idem(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Amount   *int64  `json:"amount"`
			Currency *string `json:"currency"`
		}
		dec := json.NewDecoder(r.Body)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&in); err != nil {
			invalid(w, "body is not a JSON payment: "+err.Error())
			return
		}
		if dec.More() {
			invalid(w, "body holds more than one JSON value")
			return
		}
		var amount int64 // absent: invalid, as 0 is
		var currency string
		if in.Amount != nil {
			amount = *in.Amount
		}
		if in.Currency != nil {
			currency = *in.Currency
		}
		fail := cfg.failAfterReceipt != nil && cfg.failAfterReceipt(r)
		p, perr := cfg.createPayment(r.Context(), logger, accountOf(r), amount, currency, fail)
		if perr != nil {
			switch perr.kind {
			case payInvalid:
				invalid(w, perr.detail)
			case payUnavailable:
				unavailable(w, perr.detail)
			default:
				failed(w, perr.detail)
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Location", "/payments/"+p.ID)
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(p) // the status is sent; a failed write is the client's loss
	})))
	mux.HandleFunc("GET /payments/count", countHandler(logger, "payments", payments))
	mux.HandleFunc("GET /payments/receipts/count", countHandler(logger, "receipts", cfg.receipts))
	if cfg.metrics != nil {
		mux.Handle("GET /metrics", cfg.metrics)
	}
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"ok"}` + "\n"))
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		if cfg.ready != nil {
			ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
			defer cancel()
			if err := cfg.ready(ctx); err != nil {
				logger.Warn("not ready", "error", err)
				unavailable(w, "the idempotency store does not answer")
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"ready"}` + "\n"))
	})
	// Every other method and path gets a problem too, not net/http's plain text: a pattern without a
	// method is less specific than the ones above, so it sees only the methods they do not serve.
	allowed := map[string]string{
		"/payments": "POST", "/payments/count": "GET, HEAD", "/payments/receipts/count": "GET, HEAD",
		"/healthz": "GET, HEAD", "/readyz": "GET, HEAD",
	}
	if cfg.metrics != nil {
		allowed["/metrics"] = "GET, HEAD"
	}
	for path, allow := range allowed {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Allow", allow)
			problem(w, http.StatusMethodNotAllowed, problemMethod, "Method not allowed", r.Method+" "+path+": allowed: "+allow)
		})
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		problem(w, http.StatusNotFound, problemNotFound, "Not found", "no resource at "+r.URL.Path)
	})
	return mux
}

// A counter is what the count endpoints ask: the payments store or the receipts sink.
type counter interface {
	count(ctx context.Context) (int64, error)
}

// countHandler answers {"count": N} with c's count of what ("payments", "receipts"), or 503 when it
// cannot count.
func countHandler(logger *slog.Logger, what string, c counter) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		n, err := c.count(r.Context())
		if err != nil {
			logger.Error("count "+what, "error", err)
			unavailable(w, "cannot count "+what)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]int64{"count": n})
	}
}

// unavailable answers 503 with Retry-After: a dependency of the demo (its database) failed.
func unavailable(w http.ResponseWriter, detail string) {
	w.Header().Set("Retry-After", "1")
	problem(w, http.StatusServiceUnavailable, problemUnavailable, "Service unavailable", detail)
}

func invalid(w http.ResponseWriter, detail string) {
	problem(w, http.StatusBadRequest, problemInvalidPayment, "Invalid payment", detail)
}

// failed answers 500: the middleware stores nothing (the payment and its receipt roll back) and releases
// the key, so a retry with the same key starts clean.
func failed(w http.ResponseWriter, detail string) {
	problem(w, http.StatusInternalServerError, problemPaymentFailed, "Payment failed", detail)
}

func problem(w http.ResponseWriter, status int, typ, title, detail string) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Link", "<"+typ+`>; rel="describedby"`)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"type": typ, "title": title, "status": status, "detail": detail})
}

// memoryPayments keeps payments in memory; a payment is added only when its
// idempotency key completes (idempotency.OnCommit).
type memoryPayments struct {
	mu     sync.Mutex
	nextID int64
	all    []payment
}

func newMemoryPayments() *memoryPayments { return &memoryPayments{} }

func (m *memoryPayments) create(ctx context.Context, p payment) (payment, error) {
	m.mu.Lock()
	m.nextID++
	p.ID = "pay_" + strconv.FormatInt(m.nextID, 10)
	m.mu.Unlock()
	idempotency.OnCommit(ctx, func() {
		m.mu.Lock()
		m.all = append(m.all, p)
		m.mu.Unlock()
	})
	return p, nil
}

func (m *memoryPayments) count(context.Context) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return int64(len(m.all)), nil
}

// postgresPayments keeps payments in a table, written in the attempt's
// transaction (idempotency.Tx).
type postgresPayments struct{ db *sql.DB }

const paymentsDDL = `CREATE TABLE IF NOT EXISTS payments (
	id       bigserial PRIMARY KEY,
	account  text      NOT NULL,
	amount   bigint    NOT NULL CHECK (amount > 0),
	currency text      NOT NULL,
	created  timestamptz NOT NULL DEFAULT now()
)`

func newPostgresPayments(ctx context.Context, db *sql.DB) (*postgresPayments, error) {
	if _, err := db.ExecContext(ctx, paymentsDDL); err != nil {
		return nil, fmt.Errorf("create payments table: %w", err)
	}
	return &postgresPayments{db: db}, nil
}

func (s *postgresPayments) create(ctx context.Context, p payment) (payment, error) {
	tx := idempotency.Tx(ctx)
	if tx == nil {
		return p, fmt.Errorf("create payment: no idempotency transaction in context")
	}
	var id int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO payments (account, amount, currency) VALUES ($1, $2, $3) RETURNING id`,
		p.Account, p.Amount, p.Currency).Scan(&id); err != nil {
		return p, fmt.Errorf("create payment: %w", err)
	}
	p.ID = "pay_" + strconv.FormatInt(id, 10)
	return p, nil
}

func (s *postgresPayments) count(ctx context.Context) (int64, error) {
	var n int64
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM payments`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count payments: %w", err)
	}
	return n, nil
}
