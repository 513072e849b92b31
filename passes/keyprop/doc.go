// Package keyprop defines an Analyzer that reports handlers with an
// incoming idempotency key whose downstream non-idempotent calls carry no
// key, or a fresh or constant one, instead of one derived from the incoming
// key.
//
// Its documentation is Documentation, below: the analyzer's Doc and
// docs/keyprop.md are both made from it.
package keyprop

import "github.com/idemlint/idemlint/internal/checkdoc"

// Documentation is the check's structured documentation, its one source:
// the analyzer's Doc is Documentation.AnalyzerDoc(), and docs/keyprop.md is
// generated from it (go test ./analyzers -update-docs).
var Documentation = &checkdoc.Doc{
	Name:  Name,
	Title: "handlers whose idempotency key stops at the first hop",
	Since: "v0.1.0",
	Text: `
A server that applies a keyed request once (the runtime's ` + "`idempotency.Middleware`" + `, or a handler that reads the
` + "`Idempotency-Key`" + ` header itself) still repeats its downstream side effects when a retried request runs the
handler again after a crash or a timeout: if the handler calls its payment provider or another service with no key,
or with a key it mints on each run, the provider cannot tell the retry from a new request and charges twice. Every
downstream call of a keyed operation needs a key derived from the incoming one, distinct per step and the same on
every retry: ` + "`idempotency.Derive(key, \"charge\")`" + `.

A handler, for this check, is a function that reads the incoming key: ` + "`r.Header.Get(\"Idempotency-Key\")`" + ` (or
` + "`X-Idempotency-Key`" + `, or a header of ` + "`-key-headers`" + `) of an ` + "`*http.Request`" + ` the function receives (not one
the package builds), the runtime Middleware's
lease (` + "`idempotency.LeaseOf(ctx)`" + `, whose ` + "`Key`" + ` is the request's key), ` + "`idempotency.StepKey(ctx)`" + `, or a route
variable that names the key: Matrix's transaction id ` + "`{txnId}`" + ` (any case) or a variable named as a key parameter is
(` + "`{idempotencyKey}`" + `), read by ` + "`r.PathValue(\"txnId\")`" + ` or from gorilla/mux's ` + "`mux.Vars(r)`" + ` (also through a helper
that returns a map of strings computed from it, as dendrite's ` + "`URLDecodeMapValues`" + `). A message decoded
(` + "`json.Unmarshal`" + `, ` + "`(*json.Decoder).Decode`" + `) into a type whose protocol defines a key field (the ` + "`MessageID`" + ` of
gomatrixserverlib's ` + "`ToDeviceMessage`" + `, the Matrix to-device EDU's ` + "`message_id`" + `, "used for idempotence") carries
that field as the key in the statements after the decode, to the end of its block or case. The variables assigned
from the key, directly or through any computation (` + "`ParseKey`" + `, ` + "`Derive`" + `, string concatenation), carry it.

The key is followed into the package's own functions it is passed to (` + "`SendToDevice(req, ..., &txnID)`" + `), up to three
calls deep: the parameter that receives it is the key there.

It reports, downstream of the key:

- a POST or PATCH through net/http (` + "`http.Post`" + `, ` + "`http.PostForm`" + `, ` + "`(*http.Client).Post`" + `/` + "`PostForm`" + `,
  and ` + "`(*http.Client).Do`" + ` of a request built in the handler by ` + "`http.NewRequest(WithContext)`" + ` or an
  ` + "`&http.Request{}`" + ` literal with a constant method, the model's ` + "`retryscope.NonIdempotentSend`" + `) whose request
  sets no key header, or sets one only to fresh or constant values;
- a stripe-go ` + "`New`" + `, ` + "`Capture`" + ` or ` + "`Confirm`" + ` whose params, a literal built in the handler, carry no
  ` + "`IdempotencyKey`" + ` (stripe-go then mints one per call), a fresh one (` + "`SetIdempotencyKey(uuid.NewString())`" + `) or a
  constant one;
- a NATS JetStream publish (nats.go's ` + "`JetStream`" + ` ` + "`Publish`" + `, ` + "`PublishMsg`" + `, ` + "`PublishAsync`" + `, ` + "`PublishMsgAsync`" + `,
  and the same methods of the ` + "`jetstream`" + ` package's ` + "`Publisher`" + `) with no ` + "`Nats-Msg-Id`" + `, the id the stream dedupes on
  within its duplicate window, or only a fresh or constant one: set by ` + "`nats.MsgId`" + ` / ` + "`jetstream.WithMsgID`" + `, or as the
  header of a message built in the function (` + "`nats.NewMsg`" + `, a ` + "`nats.Msg`" + ` literal; ` + "`Header.Set`" + `, ` + "`Header.Add`" + `, an
  index assignment, a header literal);
- a call, not passed the key, of a function that publishes to JetStream with no ` + "`Nats-Msg-Id`" + ` whatever it is given
  (dendrite's producers' ` + "`SendToDevice`" + `): of this package, or of another, whose analysis exported the fact; such a
  function publishes itself or through the functions it calls (not through the function literals it returns).

Fresh values are those of the key generators ` + "`keyinloop`" + ` knows (uuid, ksuid, xid, ulid, ` + "`idempotency.NewKey`" + `,
` + "`stripe.NewIdempotencyKey`" + `, matrix-org/util's ` + "`RandomString`" + `, the clock, math/rand), with anything
added to them (` + "`uuid.NewString() + \":charge\"`" + `). A constant key (a constant string, ` + "`stripe.String`" + ` of one, a variable
of the handler assigned only constants) is the same for every operation: the provider answers them all with the
first one's result. A value written under a header name the check cannot read is a key it cannot see into, never a
constant one.

Not reported:

- keys derived from the incoming key, and the incoming key itself. A key is derived when it is computed from the
  incoming key in any way, by the runtime (` + "`idempotency.Derive(key, \"charge\")`" + `) or by hand: concatenated with a step
  (` + "`key + \":charge\"`" + `), formatted (` + "`fmt.Sprintf(\"%s-refund\", key)`" + `), joined (` + "`strings.Join([]string{key, \"ship\"}, \":\")`" + `),
  hashed (` + "`sha256.Sum256([]byte(key + \"/debit\"))`" + `), through a closure or a method of a value holding the key
  (` + "`k.step(\"order\")`" + `), or read from a struct built with it. What else goes into it does not matter, unless it is fresh:
  ` + "`key + \":\" + uuid.NewString()`" + ` is new on every run, and reported;
- GET, PUT and DELETE, which are idempotent;
- calls that carry the key to a function of another package (` + "`charge(ctx, key)`" + `, the helper may set the header);
- a JetStream publish whose options or message the check cannot see into (a spread option list, an option it does
  not know, a message that is a parameter or is handed to another function);
- a key the check cannot see into (a parameter, a field);
- handlers that read no incoming key, and calls outside the function (or function literal) that reads it: a test
  server's handler that reads the header does not key the test's own requests;
- calls inside a retry loop, a job handler or a message consumer: ` + "`unkeyedpost`" + `, ` + "`keyinloop`" + ` and ` + "`jobretry`" + ` report
  those (` + "`jobretry`" + `'s message names the job's or message's id to derive keys from).`,
	Rule: `Pass a derived key to every provider that supports one: Idempotency-Key: ${key}:charge to the payment provider.`,
	Before: `
func charge(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("Idempotency-Key")
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(amount)}
	params.SetIdempotencyKey(uuid.NewString()) // a new key on every retry of the request
	paymentintent.New(params)
}`,
	After: `
func charge(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("Idempotency-Key")
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(amount)}
	params.SetIdempotencyKey(idempotency.Derive(key, "charge")) // the same key on every retry
	paymentintent.New(params)
}`,
	Fix: `
Send ` + "`github.com/idemlint/idemlint/runtime/idempotency.Derive(key, step)`" + ` as the downstream key, with the incoming key
and a step name distinct per downstream call: as the ` + "`Idempotency-Key`" + ` header of the request, or the provider's key
field (` + "`params.SetIdempotencyKey`" + `). Under the runtime Middleware, ` + "`idempotency.Step(ctx, name, fn)`" + ` with
` + "`idempotency.StepKey(ctx)`" + ` inside fn also records the step, so a retry resumes after it.`,
	Options: []checkdoc.Option{
		{Flag: "-key-headers", Setting: "key-headers", Default: "", Text: "comma-separated extra request headers that carry an idempotency key (besides `Idempotency-Key`, `X-Idempotency-Key`)"},
		{Flag: "-key-fields", Setting: "key-fields", Default: "", Text: "comma-separated extra struct fields that carry an idempotency key (besides `IdempotencyKey`, `IdempotencyToken`, `ClientToken`, `ClientRequestToken`)"},
	},
}
