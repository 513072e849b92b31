package asynqjobs

import (
	"bytes"
	"context"
	"database/sql"
	"net/http"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/paymentintent"
)

var db *sql.DB

const schema = `CREATE TABLE IF NOT EXISTS receipts (
	order_id text PRIMARY KEY,
	total bigint NOT NULL
)`

func Register(mux *asynq.ServeMux) {
	mux.HandleFunc("email:welcome", sendWelcome)
	mux.HandleFunc("order:charge", func(ctx context.Context, t *asynq.Task) error {
		params := &stripe.PaymentIntentParams{Amount: stripe.Int64(100)}
		_, err := paymentintent.New(params) // want `paymentintent\.New sends no idempotency key in an asynq handler; key by asynq\.GetTaskID\(ctx\) via idempotency\.Derive`
		return err
	})
	mux.Handle("audit:log", &auditHandler{})
	mux.HandleFunc("order:charge-keyed", chargeKeyed)
	mux.Handle("sms:send", asynq.HandlerFunc(sendSMS))
}

func sendSMS(ctx context.Context, t *asynq.Task) error {
	_, err := http.PostForm("https://sms.example.com/send", nil) // want `POST sends no idempotency key in an asynq handler \(25 retries\)`
	return err
}

func sendWelcome(ctx context.Context, t *asynq.Task) error {
	return post(ctx, t.Payload())
}

// post is a helper: the effect is reported here, through the handler.
func post(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://mail.example.com/send", bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req) // want `POST sends no idempotency key in an asynq handler \(25 retries\)`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

type auditHandler struct{}

func (h *auditHandler) ProcessTask(ctx context.Context, t *asynq.Task) error { // want ProcessTask:`inserts\(audit_log\)`
	_, err := db.ExecContext(ctx, "INSERT INTO audit_log (kind, body) VALUES ($1, $2)", t.Type(), t.Payload()) // want `INSERT INTO audit_log has no ON CONFLICT or natural key`
	return err
}

func chargeKeyed(ctx context.Context, t *asynq.Task) error {
	id, _ := asynq.GetTaskID(ctx)
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(100)}
	params.SetIdempotencyKey(idempotency.Derive(id, "charge")) // keyed by the task id: fine
	if _, err := paymentintent.New(params); err != nil {
		return err
	}
	fresh := &stripe.PaymentIntentParams{Amount: stripe.Int64(100)}
	fresh.SetIdempotencyKey(uuid.NewString()) // want `\(\*stripe\.Params\)\.SetIdempotencyKey gets a new key each run`
	_, err := paymentintent.New(fresh)
	return err
}

// Handlers whose effects are idempotent or keyed.

func idempotentWrites(ctx context.Context, t *asynq.Task) error {
	if _, err := db.ExecContext(ctx, "INSERT INTO events (id, body) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING", "x", t.Payload()); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO receipts (order_id, total) VALUES ($1, $2)", "o-1", 100); err != nil {
		return err // receipts has a natural primary key: a retry fails instead of duplicating
	}
	if _, err := db.ExecContext(ctx, "UPDATE orders SET status = 'sent' WHERE id = $1 AND status = 'pending'", "o-1"); err != nil {
		return err
	}
	id, _ := asynq.GetTaskID(ctx)
	_, err := db.ExecContext(ctx, "INSERT INTO sends (task_id, body) VALUES ($1, $2)", id, t.Payload())
	return err
}

func keyedPost(ctx context.Context, t *asynq.Task) error {
	req, err := http.NewRequestWithContext(ctx, "POST", "https://api.example.com/x", nil)
	if err != nil {
		return err
	}
	id, _ := asynq.GetTaskID(ctx)
	req.Header.Set("Idempotency-Key", idempotency.Derive(id, "x"))
	_, err = http.DefaultClient.Do(req)
	return err
}

func freshHeader(ctx context.Context, t *asynq.Task) error {
	req, err := http.NewRequestWithContext(ctx, "POST", "https://api.example.com/x", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", uuid.NewString()) // want `Idempotency-Key is new on every run in an asynq handler \(25 retries\)`
	_, err = http.DefaultClient.Do(req)
	return err
}

func getOnly(ctx context.Context, t *asynq.Task) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://api.example.com/x", nil)
	if err != nil {
		return err
	}
	_, err = http.DefaultClient.Do(req)
	return err
}

// notAHandler has a look-alike signature but is no asynq handler.
func notAHandler(ctx context.Context, body []byte) error {
	_, err := http.Post("https://api.example.com/x", "application/json", bytes.NewReader(body))
	return err
}

// suppressed shows the ignore directive.
func suppressed(ctx context.Context, t *asynq.Task) error {
	//idemlint:ignore jobretry the receiver dedupes on the payload
	_, err := http.Post("https://api.example.com/x", "application/json", bytes.NewReader(t.Payload()))
	return err
}
