package nestedretry

import (
	"bytes"
	"encoding/gob"
	"reflect"
	"testing"

	"github.com/idemlint/idemlint/internal/testgopath"
)

func TestSamePackage(t *testing.T) {
	testgopath.Check(t, Analyzer, "samepkg", "ifacecase")
}

// TestFactRoundTrip checks that the fact survives the gob encoding drivers
// use between packages (vet's fact files included), and that the encoding
// is deterministic.
func TestFactRoundTrip(t *testing.T) {
	for _, want := range []*retriesFact{
		{Layer: "github.com/avast/retry-go/v4.Do", Attempts: 5, In: "example.com/pay.Charge"},
		{Layer: "(*github.com/hashicorp/go-retryablehttp.Client).Do", Lib: "github.com/hashicorp/go-retryablehttp", Client: true, Attempts: 3, In: "example.com/pay.(*Client).send"},
		{Layer: "retry loop", Attempts: -1, In: "example.com/pay.poll"},
		{Layer: "github.com/googleapis/gax-go/v2.Invoke", Lib: "github.com/googleapis/gax-go/v2", In: "example.com/cloud.(*Client).Get"},
		{Layer: "github.com/idemlint/idemlint/runtime/retry.Do", Lib: "github.com/idemlint/idemlint/runtime/retry", Attempts: 2, In: "example.com/pay.Sync", AllowNested: true},
	} {
		var b1, b2 bytes.Buffer
		if err := gob.NewEncoder(&b1).Encode(want); err != nil {
			t.Fatalf("encode %v: %v", want, err)
		}
		if err := gob.NewEncoder(&b2).Encode(want); err != nil {
			t.Fatalf("encode %v: %v", want, err)
		}
		if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
			t.Errorf("encoding of %v is not deterministic", want)
		}
		got := new(retriesFact)
		if err := gob.NewDecoder(&b1).Decode(got); err != nil {
			t.Fatalf("decode %v: %v", want, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("round trip: got %+v, want %+v", got, want)
		}
		if got.String() != want.String() {
			t.Errorf("String after round trip: got %q, want %q", got, want)
		}
	}
}

// TestTransportFactRoundTrip: the retrying transport's fact survives gob.
func TestTransportFactRoundTrip(t *testing.T) {
	want := &transportFact{RoundTrip: retriesFact{Layer: "wrapcase/retry.Retry", Lib: "wrapcase/retry", Attempts: 3, In: "wrapcase/transport.(*retryTransport).RoundTrip", Factors: []int{3}}}
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(want); err != nil {
		t.Fatal(err)
	}
	got := new(transportFact)
	if err := gob.NewDecoder(&b).Decode(got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) || got.String() != want.String() {
		t.Errorf("round trip: got %+v (%s), want %+v (%s)", got, got, want, want)
	}
}

func TestClients(t *testing.T) {
	testgopath.Check(t, Analyzer, "retryablehttpcase", "stripecase", "stripeoff", "awscase", "k8scase", "gaxcase", "cloud.google.com/go/secrets", "grpccase", "funcvalues")
}

// TestDisabledLayers: look-alikes (issue 47) whose inner layer makes one
// attempt (turned off per call, at the dial, after construction) or cannot
// be read: no finding.
func TestDisabledLayers(t *testing.T) {
	testgopath.Check(t, Analyzer, "layersoff")
}

// TestAcrossPackages: layers reached through other packages' functions;
// policyuse calls the model's policies package (retryscope's testdata, in
// testdata/borrow.txt).
func TestAcrossPackages(t *testing.T) {
	testgopath.Check(t, Analyzer, "crossdep", "crossuse", "crossvar", "onelayer", "grpcdep", "grpcuse", "wrapcase", "policyuse")
}

// TestJobHandlers: a job handler is the outer layer its framework retries.
func TestJobHandlers(t *testing.T) {
	testgopath.Check(t, Analyzer, "jobcase")
}
