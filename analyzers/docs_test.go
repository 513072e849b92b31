package analyzers_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/idemlint/idemlint/analyzers"
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
