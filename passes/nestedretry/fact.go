package nestedretry

import (
	"fmt"
	"strings"
)

// retriesFact marks a function that retries when called: its body, or a
// function it calls, holds a retry layer (a retry loop, a retry library
// call, or a call to a client that retries by itself). Calls to the
// function inside another retry are nested retries.
//
// The fact holds only strings and ints, so its gob encoding is
// deterministic.
type retriesFact struct {
	// Layer describes the retry layer reached: "retry loop", the full
	// name of a library's entry point (retry-go v4's Do), or of a client
	// method (go-retryablehttp's (*Client).Do).
	Layer string
	// Lib is the import path of the layer's library or client; "" for a
	// hand-written loop.
	Lib string
	// Client is true when the layer is a client that retries by itself.
	Client bool
	// Attempts is the layer's attempt cap: > 0 known, 0 unknown, -1 none.
	Attempts int
	// In is the full name of the function whose body holds the layer.
	In string
	// AllowNested is set for a runtime/retry.Do whose Policy sets
	// AllowNested: it retries even inside another Do.
	AllowNested bool
	// Factors are the attempt caps of the layer and of the layers nested
	// in it, outermost first, on the path that makes the most calls, when
	// every cap on it is known: a retry loop of 4 around a client that
	// tries 5 times is [4 5]. Nil when the layer's own cap is unknown.
	Factors []int
	// OffBy, for a client over a retrying transport, is the import path
	// of the package whose function of the request's context the
	// transport asks before it retries (go-containerregistry's
	// internal/retry, for retry.Ever(in.Context())): an outer retry whose
	// function calls that package with a context (retry.Never(ctx)) turns
	// it off.
	OffBy string
}

func (*retriesFact) AFact() {}

func (f *retriesFact) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "retries(%s", f.Layer)
	if c := capText(f.Attempts); c != "" {
		fmt.Fprintf(&b, ", %s", c)
	}
	fmt.Fprintf(&b, ", in %s)", f.In)
	return b.String()
}

// capText describes an attempt cap; "" when unknown.
func capText(n int) string {
	switch {
	case n == 1:
		return "1 attempt"
	case n > 1:
		return fmt.Sprintf("%d attempts", n)
	case n < 0:
		return "no attempt cap"
	}
	return ""
}

// transportFact marks a function that returns an http.RoundTripper whose
// RoundTrip retries (go-containerregistry's transport.NewRetry): a
// net/http client sending through it, as its Transport or under another
// RoundTripper that wraps it, retries each request by itself. RoundTrip is
// the retry layer that RoundTrip reaches.
type transportFact struct {
	RoundTrip retriesFact
	// OffBy is the import path of the package whose function RoundTrip
	// asks of the request's context (retry.Ever(in.Context())), or "".
	OffBy string
}

func (*transportFact) AFact() {}

func (f *transportFact) String() string {
	return "retrying transport(" + f.RoundTrip.String() + ")"
}
