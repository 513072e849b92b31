package inboxnats_test

import (
	"context"
	"database/sql"
	"log"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/inboxnats"
	"github.com/idemlint/idemlint/runtime/pgstore"
)

// A JetStream consumer whose database writes happen once per message:
// they commit with the message's id in the inbox, and the ack follows.
func Example() {
	ctx := context.Background()
	var db *sql.DB // the service's PostgreSQL
	in, err := pgstore.NewPostgresInbox(ctx, db)
	if err != nil {
		log.Fatal(err)
	}
	nc, err := nats.Connect(nats.DefaultURL)
	if err != nil {
		log.Fatal(err)
	}
	js, _ := jetstream.New(nc)
	cons, err := js.CreateOrUpdateConsumer(ctx, "ORDERS", jetstream.ConsumerConfig{Durable: "ship", AckPolicy: jetstream.AckExplicitPolicy})
	if err != nil {
		log.Fatal(err)
	}
	_, err = cons.Consume(inboxnats.Handler(ctx, in, "ship", func(ctx context.Context, msg jetstream.Msg) error {
		_, err := idempotency.Tx(ctx).ExecContext(ctx, `INSERT INTO shipments (body) VALUES ($1)`, msg.Data())
		return err
	}, func(err error) { log.Print(err) }))
	if err != nil {
		log.Fatal(err)
	}
}
