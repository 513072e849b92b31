// Package keyinloop defines an Analyzer that reports idempotency keys
// minted inside a retry.
//
// Its documentation is Documentation, below: the analyzer's Doc and
// docs/keyinloop.md are both made from it.
package keyinloop

import "github.com/idemlint/idemlint/internal/checkdoc"

// Documentation is the check's structured documentation, its one source:
// the analyzer's Doc is Documentation.AnalyzerDoc(), and docs/keyinloop.md is
// generated from it (go test ./analyzers -update-docs).
var Documentation = &checkdoc.Doc{
	Name:  Name,
	Title: "idempotency keys minted inside a retry",
	Since: "v0.1.0",
	Text: `
An idempotency key lets the server recognise a retry: the same key on the same request means "this is the
operation you may already have applied". A key generated inside the retry loop is new on every attempt, so
each retry looks like a new operation and a timeout followed by a retry charges twice, exactly what the key
was meant to prevent.

The check reads idemlint's retry model and looks at the code each retry scope repeats: a hand-written retry
loop's body, or the operation passed to a retry library (retry-go v4 and v5, cenkalti/backoff v4 and v5,
sethvargo/go-retry, failsafe-go, k8s ` + "`wait`" + ` and client-go ` + "`retry.OnError`" + `). It reports, at the minting call, a
fresh value minted there that reaches an idempotency-key sink in the same code.

**Fresh values**: ` + "`github.com/google/uuid`" + ` (` + "`New`, `NewString`, `NewRandom`, `NewV7`" + `, ...; ` + "`uuid.Must(...)`" + ` passes
them through), ` + "`github.com/gofrs/uuid`" + ` (` + "`NewV1`, `NewV4`, `NewV6`, `NewV7`" + `), ` + "`github.com/segmentio/ksuid`" + `,
` + "`github.com/rs/xid`" + `, ` + "`github.com/oklog/ulid/v2`" + `, ` + "`crypto/rand`" + ` (` + "`Read`" + ` into a buffer, ` + "`io.ReadFull(rand.Reader, b)`" + `,
` + "`Text`" + `), ` + "`math/rand`" + ` and ` + "`math/rand/v2`" + `, ` + "`time.Now()`" + ` turned into a string or a number, stripe-go's
` + "`NewIdempotencyKey`" + `, matrix-org/util's ` + "`RandomString`" + ` (Matrix's transaction and message ids), and idemlint's
own ` + "`runtime/idempotency.NewKey`" + `. The value is followed through assignments,
struct literals and fields, conversions, encodings (` + "`hex`, `base64`, `fmt.Sprint*`, `strconv`" + `, ` + "`String()`" + ` and
` + "`Format`" + ` methods, string concatenation), pointer helpers (` + "`stripe.String`, `aws.String`" + `, generic ones such as
` + "`ptr[T any](v T) *T`" + `, read in their instantiation) and small helpers of the package that return such a value.
Deterministic ids (` + "`uuid.NewSHA1`, `NewMD5`" + `, gofrs ` + "`NewV3`/`NewV5`" + `) are not fresh.

**Key sinks**: a request header named ` + "`Idempotency-Key`" + ` or ` + "`X-Idempotency-Key`" + ` (any case) set with
` + "`Header.Set`" + `, ` + "`Add`" + `, a map assignment (` + "`req.Header[\"Idempotency-Key\"] = []string{k}`" + `) or an ` + "`http.Header`" + ` literal;
a struct field named ` + "`IdempotencyKey`, `IdempotencyToken`, `ClientToken` or `ClientRequestToken`" + ` (stripe-go params,
AWS SDK v2 input structs); stripe-go's ` + "`SetIdempotencyKey`" + `; asynq's ` + "`TaskID`" + ` option (the id asynq dedupes
enqueues on); an argument for a parameter whose name says idempotency key (` + "`idempotencyKey`, `idemKey`" + `,
` + "`clientToken`" + `, ...); and a parameter of a package helper that reaches one of these.

A function of the package that the retry calls and that mints a key and sets it itself (a request builder writing
` + "`uuid.NewString()`" + ` into the ` + "`Idempotency-Key`" + ` header of the request it returns) is reported at its call in the
retry, with the place it sets the key: every attempt builds a new key. The fix is to mint the key above the retry
and pass it in. A key built from the loop's attempt counter (` + "`fmt.Sprintf(\"%s-%d\", orderID, attempt)`" + `, the
variable the loop's post statement steps or its range over an integer yields) is new on every attempt too.

Not reported: a key minted once before the retry and reused; a key minted inside the retry only while it is
still unset (` + "`if key == \"\" { key = uuid.NewString() }`" + `, or a header set only when ` + "`Header.Get`" + ` finds none) or only
on the first attempt (` + "`if attempt == 0`" + `); request and trace ids (` + "`X-Request-Id`, `traceparent`" + `), which are fresh
per attempt on purpose; and fresh keys per item of a batch loop, which the retry model does not count as a
retry. Generated files are skipped.`,
	Rule: `The client generates the key once per logical operation, before the first attempt, and reuses it for every retry.

Gotcha: generating the idempotency key inside the retry loop gives every attempt a new key: duplicates again.`,
	Before: `
for attempt := 0; attempt < 4; attempt++ {
	key := uuid.NewString() // a new key on every attempt
	req.Header.Set("Idempotency-Key", key)
	resp, err := client.Do(req)
	if err == nil && resp.StatusCode < 500 {
		return resp, nil
	}
	time.Sleep(backoff(attempt))
}`,
	After: `
key := uuid.NewString() // once per logical operation
for attempt := 0; attempt < 4; attempt++ {
	req.Header.Set("Idempotency-Key", key)
	resp, err := client.Do(req)
	if err == nil && resp.StatusCode < 500 {
		return resp, nil
	}
	time.Sleep(backoff(attempt))
}`,
	Fix: `
Mint the key once per logical operation, above the retry, and reuse it for every attempt.
` + "`github.com/idemlint/idemlint/runtime/idempotency.NewKey()`" + ` makes a suitable key (128 random bits, hex).

The suggested fix, **Move the key above the retry loop** (or **above the retry call**), moves the statement that
mints the key (` + "`key := ...`" + ` or ` + "`var key = ...`" + `, alone on its line, directly in the loop body or the operation's
function literal) above the ` + "`for`" + ` statement (or its label), or above the statement that calls the retry library.
It is offered only when nothing the statement uses is declared or changed inside the retry, the variable is not
assigned anywhere else in it, and its name is free above the retry.`,
	Options: []checkdoc.Option{
		{Flag: "-key-generators", Setting: "key-generators", Default: "none",
			Text: "comma-separated full names of extra functions that return a fresh key, e.g. `example.com/ids.New,(*example.com/ids.Gen).Next`"},
		{Flag: "-key-headers", Setting: "key-headers", Default: "none",
			Text: "comma-separated extra request headers that carry a key (besides `Idempotency-Key`, `X-Idempotency-Key`)"},
		{Flag: "-key-fields", Setting: "key-fields", Default: "none",
			Text: "comma-separated extra struct fields that carry a key (besides `IdempotencyKey`, `IdempotencyToken`, `ClientToken`, `ClientRequestToken`)"},
	},
	More: []checkdoc.Section{
		{Title: "gRPC", Text: `
A key sent as gRPC metadata counts like a header: ` + "`metadata.AppendToOutgoingContext(ctx, \"idempotency-key\", k)`" + `,
` + "`metadata.Pairs`" + `, ` + "`metadata.New`" + `, ` + "`metadata.MD`" + ` literals, ` + "`md.Set`" + `/` + "`Append`" + `, under the
key headers' names (case-insensitive). So does an AIP-155 ` + "`RequestId`" + ` field of a gRPC request message (a type
of a package that imports grpc or protobuf, as generated code does): mint it once, before the retry, and reuse it.

` + "```go" + `
for i := 0; i < 3; i++ {
	ctx := metadata.AppendToOutgoingContext(ctx, "idempotency-key", uuid.NewString()) // reported
	if _, err = client.CreatePayment(ctx, req); err == nil {
		return nil
	}
	time.Sleep(backoff(i))
}
` + "```" + ``},
	},
}
