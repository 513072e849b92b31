package jobs

// The demo's message consumer: RabbitMQ redelivers a delivery that was not
// acked (a crash, a closed channel), so its side effects run again unless
// the consumer dedupes on the message id.

import (
	"bytes"
	"context"
	"net/http"

	amqp "github.com/rabbitmq/amqp091-go"
)

// Notify posts each order event to a webhook and acks it after the work:
// at least once, so a redelivered event posts twice.
func Notify(ctx context.Context, ch *amqp.Channel, c *http.Client) error {
	deliveries, err := ch.Consume("orders", "notify", false, false, false, false, nil)
	if err != nil {
		return err
	}
	for d := range deliveries {
		resp, err := c.Post("https://hooks.example.com/orders", "application/json", bytes.NewReader(d.Body))
		if err != nil {
			_ = d.Nack(false, true)
			continue
		}
		resp.Body.Close()
		_ = d.Ack(false)
	}
	return nil
}
