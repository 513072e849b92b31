package inboxamqp_test

import (
	"context"
	"database/sql"
	"log"

	amqp "github.com/rabbitmq/amqp091-go"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/inboxamqp"
	"github.com/idemlint/idemlint/runtime/pgstore"
)

// A RabbitMQ consumer whose database writes happen once per message: they
// commit with the message's id in the inbox, and the ack follows. The
// publisher must set Publishing.MessageId.
func Example() {
	ctx := context.Background()
	var db *sql.DB // the service's PostgreSQL
	in, err := pgstore.NewPostgresInbox(ctx, db)
	if err != nil {
		log.Fatal(err)
	}
	conn, err := amqp.Dial("amqp://guest:guest@localhost:5672/")
	if err != nil {
		log.Fatal(err)
	}
	ch, _ := conn.Channel()
	deliveries, err := ch.Consume("orders", "ship", false, false, false, false, nil) // manual acks
	if err != nil {
		log.Fatal(err)
	}
	for d := range deliveries {
		err := inboxamqp.Handle(ctx, in, "ship", d, func(ctx context.Context, d amqp.Delivery) error {
			_, err := idempotency.Tx(ctx).ExecContext(ctx, `INSERT INTO shipments (body) VALUES ($1)`, d.Body)
			return err
		})
		if err != nil {
			log.Print(err)
		}
	}
}
