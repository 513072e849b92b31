package retrytimeout_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/retrytimeout"
)

func TestRetryTimeout(t *testing.T) {
	testgopath.Check(t, retrytimeout.Analyzer, "timeouts", "fieldclients", "defaultset", "retryable", "jobs", "stored", "grpctimeouts", "grpcpertry", "copied", "copiedset")
}

// TestRelated checks a finding points at the client that lacks the
// timeout, when the code makes it: the new(http.Client), the zero
// http.Client and the &http.Client{Timeout: 0} of loops.go, the NewClient()
// of retryable.go; none for http.DefaultClient.
func TestRelated(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	want := map[string]struct {
		line int
		msg  string
	}{
		"loops.go:81":     {73, "the client without a Timeout: new(http.Client)"},
		"loops.go:93":     {89, "the client without a Timeout: a zero http.Client"},
		"loops.go:106":    {101, "the client without a Timeout: &http.Client literal without Timeout"},
		"retryable.go:29": {23, "the client without a Timeout: retryablehttp.NewClient(), whose HTTPClient has none"},
		"loops.go:54":     {0, ""}, // http.DefaultClient
	}
	seen := 0
	for _, d := range testgopath.Run(t, dir, retrytimeout.Analyzer, "timeouts", "retryable") {
		k := fmt.Sprintf("%s:%d", filepath.Base(d.Posn.Filename), d.Posn.Line)
		w, ok := want[k]
		if !ok {
			continue
		}
		seen++
		switch {
		case w.line == 0 && len(d.Related) != 0:
			t.Errorf("%s: related %+v, want none", k, d.Related)
		case w.line != 0 && (len(d.Related) != 1 || d.Related[0].Posn.Line != w.line || d.Related[0].Message != w.msg):
			t.Errorf("%s: related %+v, want line %d %q", k, d.Related, w.line, w.msg)
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d findings looked for were reported", seen, len(want))
	}
}

// TestCopiedRelated checks a copied Timeout's finding points at the client
// without one and at the call of the package passing it (godo's
// NewFromToken).
func TestCopiedRelated(t *testing.T) {
	dir := testgopath.Dir(t, analysistest.TestData())
	want := map[string][]string{
		"godo.go:60":    {"godo.go:34 the client without a Timeout: oauth2.NewClient(ctx, ts)", "godo.go:35 passed by NewFromToken"},
		"helpers.go:17": {"helpers.go:21 the client without a Timeout: cleanhttp.DefaultPooledClient()", "helpers.go:21 passed by DefaultRetrying"},
	}
	seen := 0
	for _, d := range testgopath.Run(t, dir, retrytimeout.Analyzer, "copied") {
		k := fmt.Sprintf("%s:%d", filepath.Base(d.Posn.Filename), d.Posn.Line)
		w, ok := want[k]
		if !ok {
			continue
		}
		seen++
		var got []string
		for _, r := range d.Related {
			got = append(got, fmt.Sprintf("%s:%d %s", filepath.Base(r.Posn.Filename), r.Posn.Line, r.Message))
		}
		if fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("%s: related %q, want %q", k, got, w)
		}
	}
	if seen != len(want) {
		t.Errorf("%d of the %d findings looked for were reported", seen, len(want))
	}
}
