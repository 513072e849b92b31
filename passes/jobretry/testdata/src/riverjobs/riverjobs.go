package riverjobs

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"net/http"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/riverqueue/river"
)

var db *sql.DB

type ShipArgs struct{ OrderID string }

func (ShipArgs) Kind() string { return "ship" }

type ShipWorker struct {
	river.WorkerDefaults[ShipArgs]
}

func (w *ShipWorker) Work(ctx context.Context, job *river.Job[ShipArgs]) error { // want Work:`inserts\(shipments\)`
	if _, err := db.ExecContext(ctx, "INSERT INTO shipments (order_id) VALUES ($1)", job.Args.OrderID); err != nil { // want `INSERT INTO shipments has no ON CONFLICT or natural key in a river worker; key by job\.ID via idempotency\.Derive`
		return err
	}
	return notify(ctx, job.Args.OrderID)
}

func notify(ctx context.Context, order string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPatch, "https://api.example.com/orders/"+order, nil)
	if err != nil {
		return err
	}
	_, err = http.DefaultClient.Do(req) // want `PATCH sends no idempotency key in a river worker \(25 attempts\)`
	return err
}

type InvoiceArgs struct{ Amount int }

func (InvoiceArgs) Kind() string { return "invoice" }

type InvoiceWorker struct {
	river.WorkerDefaults[InvoiceArgs]
}

// Work keys every effect with the job id.
func (w *InvoiceWorker) Work(ctx context.Context, job *river.Job[InvoiceArgs]) error {
	if _, err := db.ExecContext(ctx, "INSERT INTO invoices (job_id, amount) VALUES ($1, $2)", job.ID, job.Args.Amount); err != nil {
		return err
	}
	return send(ctx, idempotency.Derive(fmt.Sprint(job.ID), "invoice"))
}

func send(ctx context.Context, key string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://billing.example.com/invoices", bytes.NewReader(nil))
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	_, err = http.DefaultClient.Do(req)
	return err
}

type AttemptArgs struct{}

func (AttemptArgs) Kind() string { return "attempt" }

type AttemptWorker struct {
	river.WorkerDefaults[AttemptArgs]
}

// Work keys with the attempt: a new key per attempt keys nothing.
func (w *AttemptWorker) Work(ctx context.Context, job *river.Job[AttemptArgs]) error { // want Work:`inserts\(attempts\)`
	_, err := db.ExecContext(ctx, "INSERT INTO attempts (ref) VALUES ($1)", fmt.Sprint(job.ID, job.Attempt)) // want `INSERT INTO attempts has no ON CONFLICT or natural key in a river worker`
	return err
}

func Workers() *river.Workers {
	workers := river.NewWorkers()
	river.AddWorker(workers, &ShipWorker{})
	river.AddWorker(workers, river.WorkFunc(func(ctx context.Context, job *river.Job[PingArgs]) error {
		_, err := http.Post("https://api.example.com/ping", "text/plain", nil) // want `POST through http\.Post sends no idempotency key in a river worker \(25 attempts\)`
		return err
	}))
	return workers
}

type PingArgs struct{}

func (PingArgs) Kind() string { return "ping" }

// work has Work's shape but no river job: not a worker.
type lookalike struct{}

func (lookalike) Work(ctx context.Context, n int) error {
	_, err := http.Post("https://api.example.com/ping", "text/plain", nil)
	return err
}
