// Package checkdoc holds each check's structured documentation, the one
// source of what a check says about itself: the analyzer's Doc is made from
// it (AnalyzerDoc), and so are the pages in docs/ (Markdown; analyzers'
// TestDocsUpToDate fails when a checked-in page is stale, and
// `go test ./analyzers -update-docs` rewrites them).
package checkdoc

import (
	"fmt"
	"strings"
	"sync"
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
	// Source is the file that holds this Doc, from the module root;
	// empty means passes/<Name>/doc.go.
	Source string

	analyzerDoc struct {
		once sync.Once
		text string
	}
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
	source := d.Source
	if source == "" {
		source = "passes/" + d.Name + "/doc.go"
	}
	fmt.Fprintf(&b, "<!-- Generated from the check's structured documentation (%s); edit that, then run `go test ./analyzers -update-docs`. -->\n\n", source)
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

// AnalyzerDoc returns the analyzer's Doc: the first line "<name>: report
// <title>", then the text, the rule and the fix, as plain text (without
// Markdown's code marks, emphasis and code fences).
//
// It is made once for each Doc: every check's constructor asks for it, at
// the start of each run of the tool (go vet runs the tool once for each
// package).
func (d *Doc) AnalyzerDoc() string {
	d.analyzerDoc.once.Do(func() { d.analyzerDoc.text = d.analyzerDocText() })
	return d.analyzerDoc.text
}

func (d *Doc) analyzerDocText() string {
	parts := []string{d.Name + ": report " + d.Title, d.Text}
	if d.Rule != "" {
		parts = append(parts, "The rule:\n"+strings.TrimSpace(d.Rule))
	}
	if d.Fix != "" {
		parts = append(parts, "Fix: "+strings.TrimSpace(d.Fix))
	}
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(plain(strings.TrimSpace(p)))
	}
	return b.String()
}

// plain removes Markdown's code fences (indenting the code by a tab
// instead), code marks and strong emphasis from s.
func plain(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 64)
	code, first := false, true
	for rest := s; ; {
		line, more, found := strings.Cut(rest, "\n")
		switch {
		case strings.HasPrefix(line, "```"):
			code = !code
		default:
			if !first {
				b.WriteByte('\n')
			}
			first = false
			if code {
				b.WriteByte('\t')
				b.WriteString(line)
				break
			}
			for i := 0; i < len(line); i++ {
				switch {
				case line[i] == '`':
				case line[i] == '*' && i+1 < len(line) && line[i+1] == '*':
					i++
				default:
					b.WriteByte(line[i])
				}
			}
		}
		if !found {
			break
		}
		rest = more
	}
	return b.String()
}
