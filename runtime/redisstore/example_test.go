package redisstore_test

import (
	"log"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/redisstore"
)

func ExampleNewRedisStore() {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379",
		DialTimeout: time.Second, ReadTimeout: time.Second, WriteTimeout: time.Second})
	store, err := redisstore.NewRedisStore(rdb, redisstore.WithRedisPrefix("payments"))
	if err != nil {
		log.Fatal(err)
	}
	// Keys expire in Redis itself: no reaper. The completion is not atomic with business writes kept
	// elsewhere: record those as steps (idempotency.Step) and side effects in an outbox.
	http.Handle("POST /payments", idempotency.Middleware(store)(http.NotFoundHandler()))
}
