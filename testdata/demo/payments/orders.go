package payments

// The demo's order endpoint: it reads the client's Idempotency-Key, and
// must pass a key derived from it to the services it calls, or a retried
// request ships twice.

import (
	"bytes"
	"net/http"
)

// Create handles POST /orders.
func Create(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("Idempotency-Key")
	if key == "" {
		http.Error(w, "Idempotency-Key required", http.StatusBadRequest)
		return
	}
	resp, err := http.Post("https://shipping.example.com/shipments", "application/json", bytes.NewReader(nil))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	resp.Body.Close()
	w.WriteHeader(http.StatusCreated)
}
