package pgxjobs

import (
	"context"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgxpool"
)

var pool *pgxpool.Pool

const schema = `
CREATE TABLE ledger (id bigserial PRIMARY KEY, account text, amount bigint);
CREATE TABLE payouts (payout_ref text NOT NULL, amount bigint, UNIQUE (payout_ref));`

const creditSQL = `-- credit the account
	insert into ledger (account, amount) values ($1, $2)`

func credit(ctx context.Context, t *asynq.Task) error {
	_, err := pool.Exec(ctx, creditSQL, "acct", 10) // want `INSERT INTO ledger has no ON CONFLICT or natural key`
	return err
}

func payout(ctx context.Context, t *asynq.Task) error {
	_, err := pool.Exec(ctx, `INSERT INTO payouts (payout_ref, amount) VALUES ($1, $2)`, "ref", 10) // payouts has a unique key
	return err
}

func guarded(ctx context.Context, t *asynq.Task) error {
	_, err := pool.Exec(ctx, `INSERT INTO ledger (account, amount) SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM ledger WHERE account = $1)`, "acct", 10)
	return err
}

func upsert(ctx context.Context, t *asynq.Task) error {
	_, err := pool.Exec(ctx, `INSERT INTO ledger (account, amount) VALUES ($1, $2) on conflict do nothing`, "acct", 10)
	return err
}
