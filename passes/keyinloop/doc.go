// Package keyinloop defines an Analyzer that reports idempotency keys
// minted inside a retry.
//
// # Analyzer keyinloop
//
// keyinloop: report idempotency keys minted inside a retry, so that every attempt sends a new key
//
// The reference rule: the client generates the key once per logical
// operation, before the first attempt, and reuses it for every retry. A key
// generated inside the retry loop gives every attempt a new key, and the
// server treats each retry as a new operation: duplicates again.
//
// The check reads idemlint's retry model and looks at the code each retry
// scope repeats: a hand-written retry loop's body, or the operation passed
// to a retry library (retry-go, cenkalti/backoff, sethvargo/go-retry,
// failsafe-go, k8s wait and client-go retry). It reports a fresh value
// minted there that reaches an idempotency-key sink in the same code.
//
// Fresh values come from github.com/google/uuid, github.com/gofrs/uuid,
// github.com/segmentio/ksuid, github.com/rs/xid, github.com/oklog/ulid,
// crypto/rand, math/rand, time.Now, stripe-go's NewIdempotencyKey and
// idemlint's runtime/idempotency.NewKey, through assignments, struct
// literals, encodings (hex, base64, fmt.Sprint, strconv, String methods),
// pointer helpers (stripe.String, aws.String) and small helpers of the
// package that return such a value. The -key-generators flag adds
// generator functions by full name.
//
// Key sinks are a request header named Idempotency-Key or
// X-Idempotency-Key (-key-headers adds names), set with Header.Set, Add, a
// map assignment or an http.Header literal; a struct field named
// IdempotencyKey, IdempotencyToken, ClientToken or ClientRequestToken
// (-key-fields adds names), which covers stripe-go's params and AWS SDK
// input structs; stripe-go's SetIdempotencyKey; an argument for a parameter
// named like a key (idempotencyKey, idemKey, clientToken); and a parameter
// of a package helper that reaches one of these.
//
// A key minted before the retry and reused is fine, and so is one minted
// inside the retry only while it is still unset
// (if key == "" { key = uuid.NewString() }) or only on the first attempt.
// Request and trace ids (X-Request-Id, traceparent) are not keys. Loops
// that process a batch of items are not retries, so a fresh key per item
// is fine.
//
// The suggested fix moves the statement that mints the key above the retry
// loop, or above the statement that calls the retry library, when nothing
// it uses is defined inside the retry.
package keyinloop
