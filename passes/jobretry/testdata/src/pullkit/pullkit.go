// Package pullkit is a consumer helper of the analysed code, in a package
// of its own: Consume fetches from a JetStream pull subscription and acks
// each batch only when the handler returns true.
package pullkit

import (
	"context"

	"github.com/nats-io/nats.go"
)

// Consume runs f over each fetched batch; a false result naks it, and the
// broker redelivers it.
func Consume(ctx context.Context, js nats.JetStreamContext, subj string, f func(context.Context, []*nats.Msg) bool) error {
	sub, err := js.PullSubscribe(subj, subj+"-pull")
	if err != nil {
		return err
	}
	go func() {
		for ctx.Err() == nil {
			msgs, err := sub.Fetch(1)
			if err != nil || len(msgs) == 0 {
				continue
			}
			ok := f(ctx, msgs)
			for _, m := range msgs {
				if ok {
					_ = m.AckSync()
				} else {
					_ = m.Nak()
				}
			}
		}
	}()
	return nil
}
