package checkdoc

import (
	"strings"
	"testing"
)

// TestAnalyzerDoc checks the analyzer's Doc made from a Doc: the summary
// line, then the text, the rule and the fix, with Markdown's marks
// removed and a fenced block indented.
func TestAnalyzerDoc(t *testing.T) {
	d := &Doc{
		Name:  "demo",
		Title: "retries with `no` cap",
		Text:  "\nIt reports **loops** with `for`:\n\n```go\nfor {\n}\n```\n",
		Rule:  "Cap every retry.",
		Fix:   "\nUse `retry.Do`.",
	}
	want := "demo: report retries with no cap\n\nIt reports loops with for:\n\n\tfor {\n\t}\n\nThe rule:\nCap every retry.\n\nFix: Use retry.Do."
	if got := d.AnalyzerDoc(); got != want {
		t.Errorf("AnalyzerDoc() =\n%q\nwant\n%q", got, want)
	}
}

// TestMarkdownSource checks the generated page names the file its Doc is
// in: passes/<name>/doc.go unless Source says otherwise.
func TestMarkdownSource(t *testing.T) {
	for _, c := range []struct{ source, want string }{
		{"", "(passes/demo/doc.go)"},
		{"analyzers/directive.go", "(analyzers/directive.go)"},
	} {
		d := &Doc{Name: "demo", Title: "t", Text: "x", Source: c.source}
		if first, _, _ := strings.Cut(d.Markdown(), "\n"); !strings.Contains(first, c.want) {
			t.Errorf("Source %q: first line %q does not name %s", c.source, first, c.want)
		}
	}
}
