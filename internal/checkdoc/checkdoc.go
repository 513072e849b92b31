// Package checkdoc holds each check's structured documentation, from which
// the pages in docs/ are generated (analyzers' TestDocsUpToDate fails when a
// checked-in page is stale; `go test ./analyzers -update-docs` rewrites
// them).
package checkdoc

import (
	"fmt"
	"strings"
)

// Doc is one check's documentation.
type Doc struct {
	Name    string   // the check's name
	Title   string   // one line, sentence case, no period
	Since   string   // the version that introduced the check
	Text    string   // what it finds and why, Markdown paragraphs
	Rule    string   // the rule from the reference it enforces, quoted
	Before  string   // Go code the check reports
	After   string   // the same code fixed
	Fix     string   // how to fix, Markdown; mention suggested fixes
	Options []Option // flags and golangci-lint settings that change it
	// More holds further sections (tables of what is modelled, limits),
	// rendered after Fix and before Options.
	More []Section
}

// Section is a titled part of a page, Markdown.
type Section struct {
	Title string
	Text  string
}

// Option is a setting of a check.
type Option struct {
	Flag    string // the command-line flag, e.g. "-strict-context"
	Setting string // the golangci-lint setting key, e.g. "strict-context"
	Default string
	Text    string
}

// Markdown renders the page docs/<name>.md.
func (d *Doc) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!-- Generated from the check's structured documentation (passes/%s/docs.go); edit that, then run `go test ./analyzers -update-docs`. -->\n\n", d.Name)
	fmt.Fprintf(&b, "# %s: %s\n\n", d.Name, d.Title)
	if d.Since != "" {
		fmt.Fprintf(&b, "Since %s.\n\n", d.Since)
	}
	b.WriteString(strings.TrimSpace(d.Text) + "\n\n")
	if d.Rule != "" {
		b.WriteString("## The rule\n\n")
		for _, line := range strings.Split(strings.TrimSpace(d.Rule), "\n") {
			b.WriteString("> " + line + "\n")
		}
		b.WriteString("\n")
	}
	if d.Before != "" {
		b.WriteString("## Reported\n\n```go\n" + strings.TrimSpace(d.Before) + "\n```\n\n")
	}
	if d.After != "" {
		b.WriteString("## Fixed\n\n```go\n" + strings.TrimSpace(d.After) + "\n```\n\n")
	}
	if d.Fix != "" {
		b.WriteString("## Fix\n\n" + strings.TrimSpace(d.Fix) + "\n\n")
	}
	for _, sec := range d.More {
		b.WriteString("## " + sec.Title + "\n\n" + strings.TrimSpace(sec.Text) + "\n\n")
	}
	b.WriteString("## Options\n\n")
	if len(d.Options) == 0 {
		b.WriteString("None besides the suite's (see [configuration](configuration.md)).\n")
	} else {
		b.WriteString("| flag | golangci-lint setting | default | meaning |\n|---|---|---|---|\n")
		for _, o := range d.Options {
			fmt.Fprintf(&b, "| `%s` | `%s` | `%s` | %s |\n", o.Flag, o.Setting, o.Default, o.Text)
		}
	}
	b.WriteString("\nSilence one finding with `//idemlint:ignore " + d.Name + " <reason>` on its line or the line above.\n")
	return b.String()
}
