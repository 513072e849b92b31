package idempotency_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

func ExampleMiddleware() {
	var payments int
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Runs once per key; with MemoryStore, OnCommit applies in-memory
		// state exactly when the key completes.
		idempotency.OnCommit(r.Context(), func() { payments++ })
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, `{"id":"pay_1"}`)
	})
	store := idempotency.NewMemoryStore()
	srv := httptest.NewServer(idempotency.Middleware(store,
		idempotency.WithScope(func(r *http.Request) (string, error) { return r.Header.Get("X-Account"), nil }),
	)(handler))
	defer srv.Close()

	key := idempotency.NewKey()
	send := func(body string) {
		req, _ := http.NewRequest("POST", srv.URL+"/payments", strings.NewReader(body))
		req.Header.Set("Idempotency-Key", key)
		req.Header.Set("X-Account", "acct_1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			log.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, resp.Header.Get("Idempotent-Replayed"), string(b))
	}
	send(`{"amount": 100}`)
	send(`{"amount": 100}`) // a retry: replayed, the handler does not run
	send(`{"amount": 999}`) // the same key for another request
	fmt.Println("payments:", payments)
	// Output:
	// 201  {"id":"pay_1"}
	// 201 true {"id":"pay_1"}
	// 422  {"type":"https://github.com/idemlint/idemlint/blob/main/docs/runtime-idempotency.md#idempotency-key-reused","title":"Idempotency-Key is already used","status":422,"detail":"This key was used with a different request; send a new key for a new request."}
	// payments: 1
}

func ExampleDerive() {
	// The key a step sends downstream: the same on every retry, distinct per step.
	charge := idempotency.Derive("order-42", "charge")
	fmt.Println(len(charge), charge == idempotency.Derive("order-42", "charge"), charge == idempotency.Derive("order-42", "refund"))
	// Output: 64 true false
}

func ExampleParseKey() {
	for _, v := range []string{`"8e03978e-40d5-43e8-bc93-6894a57f9324"`, "opaque_token_1", `"a\"b"`, "", "caf\u00e9"} {
		k, err := idempotency.ParseKey(v)
		fmt.Printf("%q %v\n", k, err)
	}
	// Output:
	// "8e03978e-40d5-43e8-bc93-6894a57f9324" <nil>
	// "opaque_token_1" <nil>
	// "a\"b" <nil>
	// "" idempotency: invalid key: empty
	// "" idempotency: invalid key: character 0xc3 is not printable ASCII
}

func ExampleStepValue() {
	calls := 0
	charge := func(ctx context.Context, downstreamKey string) (string, error) {
		calls++ // a call to a payment provider, keyed with downstreamKey
		return "ch_123", nil
	}
	fail := true
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, err := idempotency.StepValue(r.Context(), "charge", func(ctx context.Context) (string, error) {
			return charge(ctx, idempotency.StepKey(ctx))
		})
		if err != nil || fail {
			fail = false
			http.Error(w, "failed after the charge", http.StatusBadGateway)
			return
		}
		fmt.Fprint(w, id)
	})
	h := idempotency.Middleware(idempotency.NewMemoryStore())(handler)
	for range 2 {
		req := httptest.NewRequest("POST", "/orders", strings.NewReader("{}"))
		req.Header.Set("Idempotency-Key", "order-42")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		fmt.Println(w.Code, strings.TrimSpace(w.Body.String()))
	}
	fmt.Println("provider calls:", calls)
	// Output:
	// 502 failed after the charge
	// 200 ch_123
	// provider calls: 1
}

func ExampleTx() {
	// With the PostgreSQL store (runtime/pgstore), the handler writes in the attempt's transaction:
	// its rows commit together with the stored response, or not at all.
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tx := idempotency.Tx(r.Context())
		if _, err := tx.ExecContext(r.Context(), `INSERT INTO payments (amount) VALUES ($1)`, 100); err != nil {
			http.Error(w, "cannot create payment", http.StatusInternalServerError) // rolled back, key released
			return
		}
		w.WriteHeader(http.StatusCreated)
	})
	_ = handler
}

func ExampleWithObserver() {
	counts := map[idempotency.EventOutcome]int{} // one goroutine here; guard it in a server
	h := idempotency.Middleware(idempotency.NewMemoryStore(),
		idempotency.WithObserver(func(_ context.Context, e idempotency.Event) { counts[e.Outcome]++ }),
	)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusCreated) }))
	for range 3 {
		req := httptest.NewRequest("POST", "/payments", strings.NewReader(`{}`))
		req.Header.Set("Idempotency-Key", "order-42")
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	fmt.Println(counts[idempotency.OutcomeExecuted], "executed,", counts[idempotency.OutcomeReplayed], "replayed")
	// Output: 1 executed, 2 replayed
}
