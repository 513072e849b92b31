// Package dedupejobs holds consumers and job handlers that dedupe by hand,
// the way services write the inbox pattern without a library: a claim of
// the message's id (an INSERT … ON CONFLICT DO NOTHING whose affected-row
// count, or RETURNING row, says whether the id is new) or a lookup of a
// processed-messages table, gating the effect. The effects they gate are
// not reported; a claim whose outcome is never read, a lookup that does
// not guard the effect and a dedupe on a value that is not the message's
// id are.
package dedupejobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"
	"net/http"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	amqp "github.com/rabbitmq/amqp091-go"
	"github.com/segmentio/kafka-go"
)

var (
	db   *sql.DB
	pool *pgxpool.Pool
)

const schema = `
CREATE TABLE inbox (message_id text PRIMARY KEY);
CREATE TABLE orders (id bigserial PRIMARY KEY, body text);
CREATE TABLE refunds (id bigserial PRIMARY KEY, order_ref text, amount bigint);
CREATE UNIQUE INDEX refunds_order_ref ON refunds (order_ref);
CREATE TABLE audit (id bigserial PRIMARY KEY, line text);
CREATE INDEX audit_line ON audit (line);
CREATE TABLE payments (id bigserial PRIMARY KEY, order_ref text, amount bigint);
ALTER TABLE payments ADD CONSTRAINT payments_order_ref UNIQUE (order_ref);`

const (
	claimSQL = `INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING`
	orderSQL = `INSERT INTO orders (body) VALUES ($1)`
)

// The inbox insert in the transaction of the effect: no row affected means
// the message was handled before; roll back, ack and go on.
func amqpClaim(ctx context.Context, ch *amqp.Channel) {
	msgs, _ := ch.Consume("orders", "", false, false, false, false, nil)
	for d := range msgs {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			d.Nack(false, true)
			continue
		}
		res, err := tx.ExecContext(ctx, claimSQL, d.MessageId)
		if err != nil {
			tx.Rollback()
			d.Nack(false, true)
			continue
		}
		if n, _ := res.RowsAffected(); n == 0 {
			tx.Rollback()
			d.Ack(false)
			continue
		}
		if _, err := tx.ExecContext(ctx, orderSQL, string(d.Body)); err != nil {
			tx.Rollback()
			d.Nack(false, true)
			continue
		}
		if err := tx.Commit(); err != nil {
			d.Nack(false, true)
			continue
		}
		d.Ack(false)
	}
}

// The same claim, its count read on a line of its own and tested with an
// error; the effect goes through a helper of the package.
func amqpClaimHelper(ctx context.Context, ch *amqp.Channel) {
	msgs, _ := ch.Consume("orders", "", false, false, false, false, nil)
	for d := range msgs {
		tx, _ := db.BeginTx(ctx, nil)
		res, err := tx.ExecContext(ctx, `insert into inbox (message_id) values ($1) on conflict (message_id) do nothing`, d.MessageId)
		if err != nil {
			tx.Rollback()
			continue
		}
		n, err := res.RowsAffected()
		if err != nil || n == 0 {
			tx.Rollback()
			d.Ack(false)
			continue
		}
		saveOrder(ctx, tx, d.Body)
		tx.Commit()
		d.Ack(false)
	}
}

func saveOrder(ctx context.Context, tx *sql.Tx, body []byte) error {
	_, err := tx.ExecContext(ctx, orderSQL, string(body))
	return err
}

// The effect only where the claim affected a row.
func amqpClaimInside(ctx context.Context, ch *amqp.Channel) {
	msgs, _ := ch.Consume("orders", "", false, false, false, false, nil)
	for d := range msgs {
		tx, _ := db.BeginTx(ctx, nil)
		res, _ := tx.ExecContext(ctx, claimSQL, d.MessageId)
		if n, _ := res.RowsAffected(); n == 1 {
			tx.ExecContext(ctx, orderSQL, string(d.Body))
		}
		tx.Commit()
		d.Ack(false)
	}
}

// pgx: the command tag's count, in a JetStream consumer keyed by the
// stream sequence.
func jetStreamClaim(ctx context.Context, c jetstream.Consumer) {
	c.Consume(func(msg jetstream.Msg) {
		meta, err := msg.Metadata()
		if err != nil {
			msg.Term()
			return
		}
		tx, err := pool.Begin(ctx)
		if err != nil {
			msg.Nak()
			return
		}
		defer tx.Rollback(ctx)
		tag, err := tx.Exec(ctx, claimSQL, fmt.Sprint(meta.Sequence.Stream))
		if err != nil {
			msg.Nak()
			return
		}
		if tag.RowsAffected() == 0 {
			msg.Ack() // a redelivery of a message handled before
			return
		}
		if _, err := tx.Exec(ctx, orderSQL, string(msg.Data())); err != nil {
			msg.Nak()
			return
		}
		if err := tx.Commit(ctx); err != nil {
			msg.Nak()
			return
		}
		msg.Ack()
	})
}

// RETURNING 1: no row (sql.ErrNoRows) means the id was claimed before.
func kafkaReturning(ctx context.Context, r *kafka.Reader) {
	for {
		m, err := r.FetchMessage(ctx)
		if err != nil {
			return
		}
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return
		}
		var claimed int
		err = tx.QueryRowContext(ctx, `INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING 1`,
			fmt.Sprintf("%s/%d/%d", m.Topic, m.Partition, m.Offset)).Scan(&claimed)
		if errors.Is(err, sql.ErrNoRows) {
			tx.Rollback()
			r.CommitMessages(ctx, m)
			continue
		}
		if err != nil {
			tx.Rollback()
			return
		}
		if _, err := tx.ExecContext(ctx, orderSQL, string(m.Value)); err != nil {
			tx.Rollback()
			return
		}
		tx.Commit()
		r.CommitMessages(ctx, m)
	}
}

// RETURNING through pgx, in a task handler keyed by the task id; the
// duplicate is pgx.ErrNoRows.
func taskReturning(ctx context.Context, t *asynq.Task) error {
	id, _ := asynq.GetTaskID(ctx)
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	var one int
	if err := tx.QueryRow(ctx, claimSQL+" RETURNING 1", id).Scan(&one); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return nil // done before
		}
		return err
	}
	if _, err := tx.Exec(ctx, orderSQL, string(t.Payload())); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// A lookup of the processed messages before the work, which returns early
// when the id is there; the id is recorded with the effect.
func sqsExists(ctx context.Context, c *sqs.Client, url *string) {
	for {
		out, err := c.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: url})
		if err != nil {
			return
		}
		for _, m := range out.Messages {
			var seen bool
			if err := db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM processed_messages WHERE id = $1)`, *m.MessageId).Scan(&seen); err != nil {
				continue
			}
			if seen {
				c.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: url, ReceiptHandle: m.ReceiptHandle})
				continue
			}
			db.ExecContext(ctx, orderSQL, *m.Body)
			db.ExecContext(ctx, `INSERT INTO processed_messages (id) VALUES ($1)`, *m.MessageId)
			c.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: url, ReceiptHandle: m.ReceiptHandle})
		}
	}
}

// SELECT count(*) through pgx, the effect where the count is 0.
func jetStreamCount(ctx context.Context, c jetstream.Consumer) {
	c.Consume(func(msg jetstream.Msg) {
		id := msg.Headers().Get(jetstream.MsgIDHeader)
		var n int64
		if err := pool.QueryRow(ctx, "SELECT count(*) FROM processed_messages WHERE id = $1", id).Scan(&n); err != nil {
			msg.Nak()
			return
		}
		if n == 0 {
			pool.Exec(ctx, orderSQL, string(msg.Data()))
		}
		msg.Ack()
	})
}

// A unique-keyed insert of the effect itself: the refund's and the
// payment's natural key (a unique index, a unique constraint added by an
// ALTER TABLE), or an upsert on it.
func refunds(ctx context.Context, t *asynq.Task) error {
	tx, _ := pool.Begin(ctx)
	tx.Exec(ctx, `INSERT INTO refunds (order_ref, amount) VALUES ($1, $2)`, "ord-1", 10)
	tx.Exec(ctx, `INSERT INTO audit (line) VALUES ($1) ON CONFLICT (line) DO UPDATE SET line = excluded.line`, "refund")
	tx.Exec(ctx, `INSERT INTO payments (order_ref, amount) VALUES ($1, $2)`, "ord-1", 10)
	return tx.Commit(ctx)
}

// Reported: an index that is not unique is no natural key.
func audit(ctx context.Context, t *asynq.Task) error {
	_, err := pool.Exec(ctx, `INSERT INTO audit (line) VALUES ($1)`, "refund") // want `INSERT INTO audit has no ON CONFLICT or natural key`
	return err
}

// Reported: the claim's count is never read.
func unreadClaim(ctx context.Context, ch *amqp.Channel) {
	msgs, _ := ch.Consume("orders", "", false, false, false, false, nil)
	for d := range msgs {
		tx, _ := db.BeginTx(ctx, nil)
		if _, err := tx.ExecContext(ctx, claimSQL, d.MessageId); err != nil {
			tx.Rollback()
			continue
		}
		tx.ExecContext(ctx, orderSQL, string(d.Body)) // want `INSERT INTO orders has no ON CONFLICT or natural key`
		tx.Commit()
		d.Ack(false)
	}
}

// Reported: the lookup's result is logged, and does not guard the effect.
func unguardedLookup(ctx context.Context, c jetstream.Consumer) {
	c.Consume(func(msg jetstream.Msg) {
		meta, _ := msg.Metadata()
		var seen bool
		pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM processed_messages WHERE seq = $1)`, meta.Sequence.Stream).Scan(&seen)
		if seen {
			log.Printf("redelivered: %d", meta.Sequence.Stream)
		}
		pool.Exec(ctx, orderSQL, string(msg.Data())) // want `INSERT INTO orders has no ON CONFLICT or natural key`
		msg.Ack()
	})
}

// Reported: the claim is of a fresh uuid, new on every delivery, and of
// the delivery tag, which changes with each one.
func freshClaim(ctx context.Context, ch *amqp.Channel) {
	msgs, _ := ch.Consume("orders", "", false, false, false, false, nil)
	for d := range msgs {
		tx, _ := db.BeginTx(ctx, nil)
		res, _ := tx.ExecContext(ctx, claimSQL, uuid.NewString())
		if n, _ := res.RowsAffected(); n == 0 {
			tx.Rollback()
			continue
		}
		tx.ExecContext(ctx, orderSQL, string(d.Body)) // want `INSERT INTO orders has no ON CONFLICT or natural key`
		res, _ = tx.ExecContext(ctx, claimSQL, d.DeliveryTag)
		if n, _ := res.RowsAffected(); n == 0 {
			tx.Rollback()
			continue
		}
		tx.ExecContext(ctx, `INSERT INTO orders (body) VALUES ('tagged')`) // want `INSERT INTO orders has no ON CONFLICT or natural key`
		tx.Commit()
		d.Ack(false)
	}
}

// Reported: an upsert's count is 1 on a conflict too, so it gates nothing;
// and a test that does not leave.
func notAGate(ctx context.Context, ch *amqp.Channel) {
	msgs, _ := ch.Consume("orders", "", false, false, false, false, nil)
	for d := range msgs {
		tx, _ := db.BeginTx(ctx, nil)
		res, _ := tx.ExecContext(ctx, `INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT (message_id) DO UPDATE SET message_id = excluded.message_id`, d.MessageId)
		if n, _ := res.RowsAffected(); n == 0 {
			tx.Rollback()
			continue
		}
		tx.ExecContext(ctx, orderSQL, string(d.Body)) // want `INSERT INTO orders has no ON CONFLICT or natural key`
		res, _ = tx.ExecContext(ctx, claimSQL, d.MessageId)
		if n, _ := res.RowsAffected(); n == 0 {
			log.Print("duplicate")
		}
		tx.ExecContext(ctx, `INSERT INTO orders (body) VALUES ('again')`) // want `INSERT INTO orders has no ON CONFLICT or natural key`
		tx.Commit()
		d.Ack(false)
	}
}

// Reported: a call to another service after the claim is outside its
// transaction; it still needs a key derived from the message id.
func claimThenPost(ctx context.Context, ch *amqp.Channel) {
	msgs, _ := ch.Consume("orders", "", false, false, false, false, nil)
	for d := range msgs {
		tx, _ := db.BeginTx(ctx, nil)
		res, _ := tx.ExecContext(ctx, claimSQL, d.MessageId)
		if n, _ := res.RowsAffected(); n == 0 {
			tx.Rollback()
			d.Ack(false)
			continue
		}
		tx.ExecContext(ctx, orderSQL, string(d.Body))
		http.Post("https://hooks.example.com/orders", "application/json", nil) // want `POST sends no idempotency key; key by idempotency\.Derive of d\.MessageId`
		tx.Commit()
		d.Ack(false)
	}
}

// The claim in a helper of the package that says whether the id is new,
// and a lookup in one that says whether it was processed.
func amqpClaimedHelper(ctx context.Context, ch *amqp.Channel) {
	msgs, _ := ch.Consume("orders", "", false, false, false, false, nil)
	for d := range msgs {
		tx, _ := db.BeginTx(ctx, nil)
		ok, err := claim(ctx, tx, d.MessageId)
		if err != nil {
			tx.Rollback()
			continue
		}
		if !ok {
			tx.Rollback()
			d.Ack(false)
			continue
		}
		tx.ExecContext(ctx, orderSQL, string(d.Body))
		tx.Commit()
		d.Ack(false)
	}
}

func claim(ctx context.Context, tx *sql.Tx, id string) (bool, error) {
	res, err := tx.ExecContext(ctx, claimSQL, id)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

type store struct{ pool *pgxpool.Pool }

func (s *store) processed(ctx context.Context, seq uint64) (bool, error) {
	var done bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS(SELECT 1 FROM processed_messages WHERE seq = $1)`, seq).Scan(&done)
	return done, err
}

func (s *store) jetStreamProcessed(ctx context.Context, c jetstream.Consumer) {
	c.Consume(func(msg jetstream.Msg) {
		meta, _ := msg.Metadata()
		if done, err := s.processed(ctx, meta.Sequence.Stream); err != nil || done {
			msg.Ack()
			return
		}
		s.pool.Exec(ctx, orderSQL, string(msg.Data()))
		msg.Ack()
	})
}

// Reported: the helper claims a fresh id, and another says nothing of
// the id.
func amqpFreshHelper(ctx context.Context, ch *amqp.Channel) {
	msgs, _ := ch.Consume("orders", "", false, false, false, false, nil)
	for d := range msgs {
		tx, _ := db.BeginTx(ctx, nil)
		if ok, _ := claim(ctx, tx, uuid.NewString()); !ok {
			continue
		}
		tx.ExecContext(ctx, orderSQL, string(d.Body)) // want `INSERT INTO orders has no ON CONFLICT or natural key`
		if !valid(d.MessageId) {
			continue
		}
		tx.ExecContext(ctx, `INSERT INTO orders (body) VALUES ('valid')`) // want `INSERT INTO orders has no ON CONFLICT or natural key`
		tx.Commit()
		d.Ack(false)
	}
}

func valid(id string) bool { return id != "" }

// Reported: the lookup is tested after the effect it should guard.
func lookupAfter(ctx context.Context, c jetstream.Consumer) {
	c.Consume(func(msg jetstream.Msg) {
		meta, _ := msg.Metadata()
		var seen bool
		pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM processed_messages WHERE seq = $1)`, meta.Sequence.Stream).Scan(&seen)
		pool.Exec(ctx, orderSQL, string(msg.Data())) // want `INSERT INTO orders has no ON CONFLICT or natural key`
		if seen {
			msg.Ack()
			return
		}
		msg.Ack()
	})
}

// A lookup of the id's row: found (no error) means processed; no row
// (sql.ErrNoRows) means new. In a Lambda SQS handler.
func onSQS(ctx context.Context, ev events.SQSEvent) error {
	for _, r := range ev.Records {
		var got string
		err := db.QueryRowContext(ctx, `SELECT message_id FROM processed_messages WHERE message_id = $1`, r.MessageId).Scan(&got)
		if err == nil {
			continue // processed before
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if _, err := db.ExecContext(ctx, orderSQL, r.Body); err != nil {
			return err
		}
		db.ExecContext(ctx, `INSERT INTO processed_messages (message_id) VALUES ($1)`, r.MessageId)
	}
	return nil
}

func main() { lambda.Start(onSQS) }

// Reported: a lookup of the body, not of the id, and an aggregate, which
// returns a row whether or not the id is there.
func sqsLookupBody(ctx context.Context, c *sqs.Client, url *string) {
	for {
		out, err := c.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: url})
		if err != nil {
			return
		}
		for _, m := range out.Messages {
			var got string
			if err := db.QueryRowContext(ctx, `SELECT message_id FROM processed_messages WHERE body = $1`, *m.Body).Scan(&got); err == nil {
				continue
			}
			db.ExecContext(ctx, orderSQL, *m.Body) // want `INSERT INTO orders has no ON CONFLICT or natural key`
			var last int64
			if err := db.QueryRowContext(ctx, `SELECT max(seq) FROM processed_messages WHERE message_id = $1`, *m.MessageId).Scan(&last); err == nil {
				continue
			}
			db.ExecContext(ctx, `INSERT INTO orders (body) VALUES ('max')`) // want `INSERT INTO orders has no ON CONFLICT or natural key`
			c.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: url, ReceiptHandle: m.ReceiptHandle})
		}
	}
}

// The legacy JetStream API: the claim of the Nats-Msg-Id header, read by
// the constant's name or by the string; an INSERT keyed by the header.
func natsLegacyClaim(ctx context.Context, nc *nats.Conn) {
	js, _ := nc.JetStream()
	js.Subscribe("orders", func(m *nats.Msg) {
		tx, _ := db.BeginTx(ctx, nil)
		res, err := tx.ExecContext(ctx, claimSQL, m.Header.Get(nats.MsgIdHdr))
		if err != nil {
			tx.Rollback()
			return
		}
		if n, _ := res.RowsAffected(); n == 0 {
			tx.Rollback()
			m.Ack()
			return
		}
		tx.ExecContext(ctx, orderSQL, string(m.Data))
		tx.Commit()
		m.Ack()
	})
	js.Subscribe("shipments", func(m *nats.Msg) {
		db.ExecContext(ctx, `INSERT INTO orders (id, body) VALUES ($1, $2)`, m.Header.Get("nats-msg-id"), string(m.Data))
		m.Ack()
	})
	// Reported: another header is no id.
	js.Subscribe("refunds", func(m *nats.Msg) {
		tx, _ := db.BeginTx(ctx, nil)
		res, _ := tx.ExecContext(ctx, claimSQL, m.Header.Get("Content-Type"))
		if n, _ := res.RowsAffected(); n == 0 {
			tx.Rollback()
			return
		}
		tx.ExecContext(ctx, orderSQL, string(m.Data)) // want `INSERT INTO orders has no ON CONFLICT or natural key`
		tx.Commit()
		m.Ack()
	})
}

// A switch with no tag on the RETURNING row's error.
func taskSwitch(ctx context.Context, t *asynq.Task) error {
	id, _ := asynq.GetTaskID(ctx)
	var one int
	switch err := pool.QueryRow(ctx, claimSQL+" RETURNING 1", id).Scan(&one); {
	case errors.Is(err, pgx.ErrNoRows):
		return nil // done before
	case err != nil:
		return err
	}
	_, err := pool.Exec(ctx, orderSQL, string(t.Payload()))
	return err
}

// Reported: the duplicate's case breaks out of the switch only, and a
// clause before it that a duplicate takes first stays.
func taskSwitchBreak(ctx context.Context, t *asynq.Task) error {
	id, _ := asynq.GetTaskID(ctx)
	var one int
	switch err := pool.QueryRow(ctx, claimSQL+" RETURNING 1", id).Scan(&one); {
	case errors.Is(err, pgx.ErrNoRows):
		log.Print("duplicate")
		break
	}
	pool.Exec(ctx, orderSQL, string(t.Payload())) // want `INSERT INTO orders has no ON CONFLICT or natural key`
	switch err := pool.QueryRow(ctx, claimSQL+" RETURNING 1", id).Scan(&one); {
	case err != nil:
		log.Print(err)
	case errors.Is(err, pgx.ErrNoRows):
		return nil
	}
	_, err := pool.Exec(ctx, `INSERT INTO orders (body) VALUES ('switch')`) // want `INSERT INTO orders has no ON CONFLICT or natural key`
	return err
}

// offsetID builds a Kafka message's id from its topic, partition and offset.
func offsetID(m kafka.Message) string {
	return fmt.Sprintf("%s/%d/%d", m.Topic, m.Partition, m.Offset)
}

// traceRef is new on every delivery: it is not the message's id.
func traceRef(m kafka.Message) string {
	return m.Topic + "/" + uuid.NewString()
}

// The claim's id comes from a helper of the package that formats the
// offset: a gate.
func kafkaHelperID(ctx context.Context, r *kafka.Reader) {
	for {
		m, err := r.FetchMessage(ctx)
		if err != nil {
			return
		}
		tx, _ := db.BeginTx(ctx, nil)
		res, _ := tx.ExecContext(ctx, claimSQL, offsetID(m))
		if n, _ := res.RowsAffected(); n == 0 {
			tx.Rollback()
			r.CommitMessages(ctx, m)
			continue
		}
		tx.ExecContext(ctx, orderSQL, string(m.Value))
		tx.Commit()
		r.CommitMessages(ctx, m)
	}
}

// Reported: the helper's value is fresh on every delivery, so the claim
// gates nothing.
func kafkaHelperFresh(ctx context.Context, r *kafka.Reader) {
	for {
		m, err := r.FetchMessage(ctx)
		if err != nil {
			return
		}
		tx, _ := db.BeginTx(ctx, nil)
		res, _ := tx.ExecContext(ctx, claimSQL, traceRef(m))
		if n, _ := res.RowsAffected(); n == 0 {
			tx.Rollback()
			continue
		}
		tx.ExecContext(ctx, orderSQL, string(m.Value)) // want `INSERT INTO orders has no ON CONFLICT or natural key`
		tx.Commit()
		r.CommitMessages(ctx, m)
	}
}
