package keys

import (
	"slices"
	"testing"
)

func TestParam(t *testing.T) {
	for name, want := range map[string]bool{
		"idempotencyKey": true, "idemKey": true, "clientToken": true, "idempotency_token": true,
		"ClientRequestToken": true, "paymentIdempotencyKey": true,
		"key": false, "requestID": false, "token": false, "idempotent": false,
	} {
		if got := Param(name); got != want {
			t.Errorf("Param(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestNames(t *testing.T) {
	n := NewNames([]string{" X-Dedup-Key "}, []string{"DedupToken"})
	for _, h := range []string{"Idempotency-Key", "idempotency-key", "X-IDEMPOTENCY-KEY", "x-dedup-key"} {
		if !n.Header(h) {
			t.Errorf("Header(%q) = false", h)
		}
	}
	for _, h := range []string{"X-Request-Id", "traceparent", ""} {
		if n.Header(h) {
			t.Errorf("Header(%q) = true", h)
		}
	}
	if !n.Field("ClientToken") || !n.Field("DedupToken") || n.Field("clienttoken") {
		t.Error("Field: default, extra or case-sensitive lookup wrong")
	}
}

func TestList(t *testing.T) {
	var names []string
	l := List{P: &names}
	if err := l.Set("a.F, (*b.T).M,,"); err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.F", "(*b.T).M"}; !slices.Equal(names, want) {
		t.Errorf("Set: %q, want %q", names, want)
	}
	if got := l.String(); got != "a.F,(*b.T).M" {
		t.Errorf("String: %q", got)
	}
}
