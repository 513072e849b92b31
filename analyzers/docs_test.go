package analyzers_test

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/internal/prefilter"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite docs/<check>.md from the checks' structured documentation")

// TestDocsUpToDate fails when a checked-in page in docs/ differs from the
// page generated from its check's structured documentation.
func TestDocsUpToDate(t *testing.T) {
	docs := analyzers.Docs()
	if len(docs) != len(analyzers.Checks()) {
		t.Fatalf("%d checks but %d documented", len(analyzers.Checks()), len(docs))
	}
	for _, d := range docs {
		path := filepath.Join("..", "docs", d.Name+".md")
		want := d.Markdown()
		if *updateDocs {
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test ./analyzers -update-docs writes it)", err)
		}
		if string(got) != want {
			t.Errorf("docs/%s.md is stale: run go test ./analyzers -update-docs", d.Name)
		}
	}
}

// TestAnalyzerURLs checks every check's URL points at its page.
func TestAnalyzerURLs(t *testing.T) {
	for _, a := range analyzers.New(&analyzers.Config{}) {
		want := "https://github.com/idemlint/idemlint/blob/main/docs/" + a.Name + ".md"
		if a.URL != want {
			t.Errorf("%s: URL %q, want %q", a.Name, a.URL, want)
		}
		if _, err := os.Stat(filepath.Join("..", "docs", a.Name+".md")); err != nil {
			t.Errorf("%s: %v", a.Name, err)
		}
	}
}

// TestRegistry checks that the suite New builds is the registry's: one
// analyzer per check in Checks' order, each named as its documentation and
// documented by it, with a prefilter registered for nestedretry and
// keyprop and jobretry (the checks with facts) and for no other; and that
// Disable drops a check and nothing else.
func TestRegistry(t *testing.T) {
	suite, docs := analyzers.New(&analyzers.Config{}), analyzers.Docs()
	if got := names(suite); !slices.Equal(got, analyzers.Checks()) {
		t.Fatalf("New builds %v, want Checks() %v", got, analyzers.Checks())
	}
	for i, a := range suite {
		if d := docs[i]; a.Name != d.Name || a.Doc != d.AnalyzerDoc() {
			t.Errorf("%s: not named or documented by its checkdoc.Doc (%s)", a.Name, d.Name)
		}
		if !strings.HasPrefix(a.Doc, a.Name+": report ") {
			t.Errorf("%s: Doc does not start with %q: %q", a.Name, a.Name+": report ", a.Doc)
		}
		if hasPrefilter, wantPrefilter := prefilter.Lookup(a) != nil, a.Name == "nestedretry" || a.Name == "keyprop" || a.Name == "jobretry"; hasPrefilter != wantPrefilter {
			t.Errorf("%s: prefilter registered %v, want %v", a.Name, hasPrefilter, wantPrefilter)
		}
	}
	disabled := analyzers.New(&analyzers.Config{Disable: []string{"nojitter"}})
	want := slices.DeleteFunc(analyzers.Checks(), func(n string) bool { return n == "nojitter" })
	if got := names(disabled); !slices.Equal(got, want) {
		t.Errorf("with nojitter disabled, New builds %v, want %v", got, want)
	}
}

func names(as []*analysis.Analyzer) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Name)
	}
	return out
}
