package jobretry_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/idemlint/idemlint/passes/jobretry"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite docs/jobretry.md from the check's structured documentation")

// TestDocsUpToDate fails when docs/jobretry.md differs from the page
// generated from Documentation (go test ./passes/jobretry -update-docs
// rewrites it).
func TestDocsUpToDate(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "jobretry.md")
	want := jobretry.Documentation.Markdown()
	if *updateDocs {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./passes/jobretry -update-docs writes it)", err)
	}
	if string(got) != want {
		t.Error("docs/jobretry.md is stale: run go test ./passes/jobretry -update-docs")
	}
}
