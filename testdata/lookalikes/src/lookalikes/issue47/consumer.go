package issue47

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/segmentio/kafka-go"
)

const schema = `
CREATE TABLE inbox (message_id text PRIMARY KEY);
CREATE TABLE processed_messages (message_id text PRIMARY KEY);
CREATE TABLE ledger (id bigserial PRIMARY KEY, account text, amount bigint);`

// messageID is the broker's identity of m: its topic, partition and offset.
func messageID(m kafka.Message) string {
	return m.Topic + "/" + string(rune(m.Partition)) + "/" + string(rune(m.Offset))
}

// ConsumeInbox dedupes by hand in the transaction of its effect: the
// message id goes into the inbox with ON CONFLICT DO NOTHING, and a
// redelivery (no row affected) is rolled back and committed without work.
//
// lookalike jobretry issue47: an INSERT ... ON CONFLICT DO NOTHING inbox gating the effect on RowsAffected
func ConsumeInbox(ctx context.Context, db *sql.DB, r *kafka.Reader) error {
	for {
		m, err := r.FetchMessage(ctx)
		if err != nil {
			return err
		}
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING`, messageID(m))
		if err != nil {
			tx.Rollback()
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			tx.Rollback()
			if err := r.CommitMessages(ctx, m); err != nil {
				return err
			}
			continue
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO ledger (account, amount) VALUES ($1, $2)`, string(m.Key), len(m.Value)); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		if err := r.CommitMessages(ctx, m); err != nil {
			return err
		}
	}
}

// ConsumeProcessed looks the message up in a processed-messages table
// before the work, and records it in the same transaction as the effect.
//
// lookalike jobretry issue47: a SELECT EXISTS lookup of a processed-messages table gating the effect
func ConsumeProcessed(ctx context.Context, db *sql.DB, r *kafka.Reader) error {
	for {
		m, err := r.FetchMessage(ctx)
		if err != nil {
			return err
		}
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		var seen bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM processed_messages WHERE message_id = $1)`, messageID(m)).Scan(&seen); err != nil {
			tx.Rollback()
			return err
		}
		if !seen {
			if _, err := tx.ExecContext(ctx, `INSERT INTO ledger (account, amount) VALUES ($1, $2)`, string(m.Key), len(m.Value)); err != nil {
				tx.Rollback()
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO processed_messages (message_id) VALUES ($1)`, messageID(m)); err != nil {
				tx.Rollback()
				return err
			}
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		if err := r.CommitMessages(ctx, m); err != nil {
			return err
		}
	}
}

var errEmpty = errors.New("queue empty")

// Queue is a work queue whose Next returns errEmpty when it holds nothing.
type Queue interface {
	Next(ctx context.Context) (string, error)
	Done(ctx context.Context, id string) error
}

// Work is a worker: it never leaves on success, and idles a second when
// its queue is empty. It is no retry of Next.
//
// lookalike unboundedretry,nojitter issue47: a worker idling on an empty queue taken for an unbounded unjittered retry
func Work(ctx context.Context, q Queue, handle func(context.Context, string) error) error {
	for {
		id, err := q.Next(ctx)
		if errors.Is(err, errEmpty) {
			time.Sleep(time.Second)
			continue
		}
		if err != nil {
			return err
		}
		if err := handle(ctx, id); err != nil {
			return err
		}
		if err := q.Done(ctx, id); err != nil {
			return err
		}
	}
}
