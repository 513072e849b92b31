// Package jobretry defines an Analyzer that reports job handlers that
// perform a non-idempotent side effect with no key.
//
// Its documentation is Documentation, below: the analyzer's Doc and
// docs/jobretry.md are both made from it.
package jobretry

import "github.com/idemlint/idemlint/internal/checkdoc"

// Documentation is the check's structured documentation, its one source:
// the analyzer's Doc is Documentation.AnalyzerDoc(), and docs/jobretry.md is
// generated from it (go test ./analyzers -update-docs).
var Documentation = &checkdoc.Doc{
	Name:  Name,
	Title: "job handlers and message consumers whose side effect repeats when the job queue or broker retries them",
	Since: "v0.1.0",
	Text: `
A job queue retries a failed job by itself, with no retry loop in sight: asynq retries a failed task 25 times by
default, river works a job up to 25 attempts, and Temporal's default retry policy retries an activity without limit. An
attempt that failed after its side effect (a timeout on the response, a crash before the job was acknowledged, an
error in a later step) leaves the effect applied, and the next attempt applies it again: a second email, a second
charge, a second row.

The retry model (` + "`passes/retryscope`" + `) finds the job handlers of a package as retry scopes of their own (kind
"job handler", with the framework's default cap: asynq 26 attempts, river 25, Temporal none), so the other checks see
them too (a retry loop inside a handler is a nested retry for ` + "`nestedretry`" + `). This check follows each handler, through
calls, into the functions of the same package (four calls deep). The handlers are:

- asynq: functions and methods of type ` + "`func(context.Context, *asynq.Task) error`" + ` (` + "`HandlerFunc`" + `,
  ` + "`ProcessTask`" + ` methods of ` + "`Handler`" + `s), and function literals passed to ` + "`ServeMux.HandleFunc`" + `,
  ` + "`ServeMux.Handle`" + ` or converted to ` + "`asynq.HandlerFunc`" + `;
- river: ` + "`Work(context.Context, *river.Job[T]) error`" + ` methods (` + "`Worker[T]`" + `) and function literals passed to
  ` + "`river.WorkFunc`" + `;
- Temporal: functions, method values and the exported methods of struct values registered with
  ` + "`RegisterActivity`" + ` or ` + "`RegisterActivityWithOptions`" + `.

Message consumers are retried the same way: a broker that delivers at least once redelivers a message whose
handler did not ack it (a crash, a timeout, a rebalance), so the model gives each consumer a "job handler" scope too,
covering the code that runs before the ack:

- sarama: ` + "`ConsumeClaim(sarama.ConsumerGroupSession, sarama.ConsumerGroupClaim) error`" + ` methods;
- kafka-go: loops that call ` + "`(*kafka.Reader).FetchMessage`" + ` (` + "`ReadMessage`" + ` commits before it returns: at most once);
- franz-go: loops that call ` + "`PollFetches`" + ` or ` + "`PollRecords`" + ` (unless the package sets ` + "`kgo.GreedyAutoCommit`" + `);
- nats.go: callbacks of ` + "`jetstream.Consumer.Consume`" + ` (unless the package uses ` + "`AckNonePolicy`" + `) and of the
  legacy JetStream ` + "`Subscribe`" + `/` + "`QueueSubscribe`" + ` (core NATS subscriptions are at most once);
- amqp091-go: ranges over the deliveries of ` + "`Consume`" + `/` + "`ConsumeWithContext`" + ` with ` + "`autoAck`" + ` false;
- SQS: ranges over the ` + "`Messages`" + ` of ` + "`ReceiveMessage`" + `, and aws-lambda-go handlers of ` + "`events.SQSEvent`" + `
  passed to ` + "`lambda.Start`" + `;
- Pub/Sub v2: callbacks of ` + "`(*pubsub.Subscriber).Receive`" + `;
- consumer helpers of the analysed code, in the package or another: the function, method value (` + "`s.onMessage`" + `)
  or literal passed to a function that hands it the messages it fetched (a ` + "`*nats.Msg`" + `, a slice of them,
  another broker's message type, or a field of one) and acks them only after it returns (dendrite's
  ` + "`jetstream.JetStreamConsumer`" + `: ` + "`PullSubscribe`" + `, ` + "`Fetch`" + `, ` + "`AckSync`" + ` when the handler returns true, ` + "`Nak`" + `
  otherwise).

A handler that acks unconditionally before any work (` + "`msg.Ack()`" + ` first) is at most once: the code after the ack is
not in the scope. Effects keyed by the message's stable id (Kafka offsets, the JetStream stream sequence or the
` + "`Nats-Msg-Id`" + ` header, read by ` + "`jetstream.MsgIDHeader`" + `, ` + "`nats.MsgIdHdr`" + ` or its name, amqp ` + "`MessageId`" + `, SQS and Lambda
` + "`MessageId`" + `, Pub/Sub ` + "`ID`" + `) are not reported; keys built
from a per-delivery value (` + "`ReceiptHandle`" + `, ` + "`DeliveryTag`" + `, ` + "`NumDelivered`" + `) are. Database writes inside an
` + "`idempotency.Inbox`" + `'s ` + "`Consume`" + ` handler commit with the message id, once, and are not reported; a call to another
service there is outside the inbox's transaction and still needs a key derived from the message id.

It reports, at the effect:

- a POST or PATCH with no idempotency-key header: ` + "`http.Post`" + `, ` + "`http.PostForm`" + `,
  ` + "`(*http.Client).Post`" + `/` + "`PostForm`" + `, and ` + "`(*http.Client).Do`" + ` of a request built in the same function by
  ` + "`http.NewRequest(WithContext)`" + ` with a constant method and no key header set there;
- an idempotency key (header, ` + "`IdempotencyKey`" + `-like field, stripe-go ` + "`SetIdempotencyKey`" + `, a field a protocol
  defines as the key: the ` + "`MessageID`" + ` of gomatrixserverlib's ` + "`ToDeviceMessage`" + `, the Matrix to-device EDU's
  ` + "`message_id`" + `) set to a fresh value (` + "`uuid.New`" + `, ksuid, xid, ulid, ` + "`idempotency.NewKey`" + `,
  ` + "`stripe.NewIdempotencyKey`" + `, matrix-org/util's ` + "`RandomString`" + `, ` + "`time.Now`" + `, ` + "`math/rand`" + `): every
  run sends a new key, so the provider (or the remote server) cannot tell the retry from a new request;
- a stripe-go ` + "`New`" + `, ` + "`Capture`" + ` or ` + "`Confirm`" + ` whose params, built in the function, carry no key:
  stripe-go then makes a fresh key per call;
- an SQL ` + "`INSERT`" + ` through ` + "`database/sql`" + ` or pgx (` + "`Exec`" + `, ` + "`Query`" + `, ` + "`QueryRow`" + ` and their
  ` + "`Context`" + ` forms, constant query) with no ` + "`ON CONFLICT`" + `, ` + "`WHERE NOT EXISTS`" + ` or ` + "`ON DUPLICATE KEY`" + `, into a
  table with no natural key visible in the package (a ` + "`CREATE TABLE`" + ` in a string of the package with a
  ` + "`UNIQUE`" + ` constraint or a primary key that is not ` + "`serial`" + `, identity, defaulted, SQLite's ` + "`AUTOINCREMENT`" + ` or
  MySQL's ` + "`AUTO_INCREMENT`" + `, or a ` + "`CREATE UNIQUE INDEX`" + ` on the table or an ` + "`ALTER TABLE … ADD UNIQUE`" + ` (or
  ` + "`PRIMARY KEY`" + `); comments in the ` + "`CREATE TABLE`" + ` are left out);
- the same INSERT run by a prepared statement or through a storage layer of other packages, read from facts the check
  exports in every package that depends on ` + "`database/sql`" + `: a ` + "`*sql.Stmt`" + ` field prepared from a constant query
  (` + "`s.f, err = db.Prepare(q)`" + `, ` + "`PrepareContext`" + `, or ` + "`&s.f`" + ` paired with the constant in a literal such as
  dendrite's ` + "`sqlutil.StatementList{{&s.insertStmt, insertSQL}}`" + `) executed directly or through a function that returns
  a statement of its parameter (` + "`sqlutil.TxStmt(txn, stmt)`" + `: ` + "`stmt`" + ` or ` + "`txn.Stmt(stmt)`" + `); an exported function
  or method whose body (closures passed to calls included, ` + "`d.Writer.Do(d.DB, nil, func(txn *sql.Tx) error {…})`" + `) runs
  such an INSERT or calls a function that does; and a call of an interface method, resolved to its implementations
  only where the code building the value is seen: a method that calls a method of an interface-typed field of its
  receiver (` + "`d.SendToDevice.InsertSendToDeviceMessage`" + `) inserts when the constructor that builds the receiver stores
  a value there whose method does (` + "`shared.Database{SendToDevice: NewPostgresSendToDeviceTable(db)}`" + `, the embedded
  ` + "`shared.Database`" + ` of ` + "`postgres.NewDatabase`" + `'s result), and an interface method of a package inserts when a
  function of that package returning the interface (` + "`storage.NewSyncServerDatasource`" + `) returns such values. A
  package cannot export a fact on another package's interface: an interface whose constructors are in another
  package is not resolved.

Not reported:

- handlers of tasks the package enqueues with retries disabled: ` + "`asynq.MaxRetry(0)`" + ` on the task's
  ` + "`NewTask`" + ` or ` + "`Enqueue`" + ` (matched to the handler by the task type of ` + "`HandleFunc`" + `), river
  ` + "`InsertOpts{MaxAttempts: 1}`" + ` (from the args' ` + "`InsertOpts()`" + ` method or at ` + "`Insert`" + `), ` + "`river.Config{MaxAttempts: 1}`" + `,
  and a Temporal ` + "`RetryPolicy{MaximumAttempts: 1}`" + ` anywhere in the package;
- effects keyed by the job's own id: an argument or key computed from ` + "`asynq.GetTaskID`" + `, the
  ` + "`ResultWriter`" + `'s ` + "`TaskID`" + `, river's ` + "`job.ID`" + `, or Temporal's ` + "`WorkflowExecution.ID`" + ` and
  ` + "`ActivityID`" + ` (a key that also uses the attempt number is not stable, and is reported);
- idempotent writes: ` + "`INSERT … ON CONFLICT`" + `, inserts into tables with a natural key (a retry fails on the key
  instead of duplicating), and ` + "`UPDATE`" + `s (a guarded ` + "`UPDATE … WHERE status = …`" + ` applies once);
- dedupe written by hand, the inbox pattern without the runtime: the code that runs only once the handler has
  claimed or looked up the job's or message's stable id (the ids above, also when a function of the package
  builds it, as a helper that formats a Kafka message's topic, partition and offset) and found it new. A claim is an
  ` + "`INSERT`" + ` of the id that a conflict leaves out (` + "`ON CONFLICT … DO NOTHING`" + `, ` + "`WHERE NOT EXISTS`" + `, ` + "`INSERT IGNORE`" + `,
  ` + "`INSERT OR IGNORE`" + `), read through its affected-row count (` + "`sql.Result.RowsAffected`" + `, pgx's
  ` + "`CommandTag.RowsAffected`" + `: 0 for an id seen before) or, with ` + "`RETURNING`" + `, the error of its row's ` + "`Scan`" + `
  (` + "`sql.ErrNoRows`" + `, ` + "`pgx.ErrNoRows`" + ` for an id seen before). A lookup is a ` + "`SELECT EXISTS (…)`" + ` or
  ` + "`SELECT count(…)`" + ` of the id (a processed-messages table) scanned into a variable, or a ` + "`SELECT`" + ` of columns
  (no aggregate, which returns a row whatever matches) ` + "`WHERE`" + ` the id is, whose ` + "`Scan`" + ` finds a row for an id
  seen before and fails with ` + "`sql.ErrNoRows`" + ` for a new one. The code deduped is what follows, in its block, an
  ` + "`if`" + ` that holds for every id seen before and leaves (` + "`return`" + `, ` + "`continue`" + `, ` + "`break`" + `, ` + "`panic`" + `), and its
  ` + "`else`" + `; the branch of an ` + "`if`" + ` that holds only for a new id (` + "`n == 1`" + `, ` + "`!exists`" + `, ` + "`count == 0`" + `); or what
  follows a ` + "`switch`" + ` with no tag one of whose cases holds for every id seen before, when that clause and those
  before it leave (a ` + "`break`" + ` leaves only the switch); with the functions of the package it calls. A function of
  the package given the id that returns what such a test says (` + "`return n == 1, err`" + `, ` + "`return exists, err`" + `) is
  such a test where it is called (` + "`if ok, err := claim(ctx, tx, d.MessageId); err != nil || !ok { … continue }`" + `);
  one of another package is not followed. As in an inbox's handler, the database writes of the code deduped are
  not reported, and a call to another service there still needs a key derived from the id. A claim or lookup of
  another value (a fresh uuid, a delivery tag), an outcome never read or tested without leaving, and an upsert
  (` + "`DO UPDATE`" + ` affects a row on a conflict too) dedupe nothing;
- a unit of the Matrix server-server protocol queued for delivery: a call whose every INSERT goes into a delivery
  queue (a table whose rows a ` + "`DELETE`" + ` of the package removes by their ids or positions, ` + "`json_nid = ANY($1)`" + `, ` + "`IN ($1)`" + `,
  ` + "`id <= $3`" + `, or once they expire) and that passes a PDU (a value with gomatrixserverlib's ` + "`PDU.EventID`" + `: the
  remote homeserver dedupes events by id) or a ` + "`gomatrixserverlib.EDU`" + ` whose ` + "`Type`" + `, a constant set in the
  function, is a state the remote overwrites or an update it orders by stream id (` + "`m.typing`" + `, ` + "`m.presence`" + `,
  ` + "`m.receipt`" + `, ` + "`m.device_list_update`" + `, ` + "`m.signing_key_update`" + `): the queued copy does not last, and the
  remote applies it once (dendrite's ` + "`OutgoingQueues.SendEDU`" + ` and ` + "`SendEvent`" + `). A to-device EDU, an EDU
  of a type the code does not fix, and an event kept in a table that lasts (dendrite's invites) are still reported.`,
	Rule: `Every non-idempotent operation exposed to retries (POST that creates or charges, message handlers with side effects) needs an idempotency key or natural idempotence.
Background job frameworks retry by default; jobs must be idempotent or have retries disabled.`,
	Before: `
func sendReceipt(ctx context.Context, t *asynq.Task) error {
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(amount)}
	params.SetIdempotencyKey(uuid.NewString()) // a new key on every retry
	_, err := paymentintent.New(params)
	return err
}`,
	After: `
func sendReceipt(ctx context.Context, t *asynq.Task) error {
	id, _ := asynq.GetTaskID(ctx)
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(amount)}
	params.SetIdempotencyKey(idempotency.Derive(id, "charge")) // the same key on every retry
	_, err := paymentintent.New(params)
	return err
}`,
	Fix: `
Key the effect with the job's own stable id, one key per step:
` + "`github.com/idemlint/idemlint/runtime/idempotency.Derive(id, step)`" + ` with the asynq task id
(` + "`asynq.GetTaskID(ctx)`" + `), river's ` + "`job.ID`" + `, or Temporal's workflow id and activity id
(` + "`activity.GetInfo(ctx)`" + `). Send it as the ` + "`Idempotency-Key`" + ` header or the provider's key field, or store it in
a column with a unique constraint and write with ` + "`INSERT … ON CONFLICT DO NOTHING`" + `. When the effect cannot be
keyed and must not repeat, disable the framework's retries for that job (` + "`asynq.MaxRetry(0)`" + `,
` + "`MaxAttempts: 1`" + `, ` + "`MaximumAttempts: 1`" + `).

In a message consumer, dedupe on the message's stable id with
` + "`github.com/idemlint/idemlint/runtime/idempotency.Inbox`" + ` (` + "`inbox.Consume(ctx, id, handle)`" + ` runs handle once per id,
its database writes in the inbox's transaction, and ack after it returns), or by hand (claim the id with
` + "`INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING`" + ` in the transaction of the effect, and roll back and
ack when no row was affected), and send
` + "`idempotency.Derive(id, step)`" + ` as the key of every call to another service.`,
	Options: []checkdoc.Option{
		{Flag: "-key-headers", Setting: "key-headers", Default: "", Text: "comma-separated extra request headers that carry an idempotency key (besides `Idempotency-Key`, `X-Idempotency-Key`)"},
		{Flag: "-key-fields", Setting: "key-fields", Default: "", Text: "comma-separated extra struct fields that carry an idempotency key (besides `IdempotencyKey`, `IdempotencyToken`, `ClientToken`, `ClientRequestToken`)"},
	},
}
