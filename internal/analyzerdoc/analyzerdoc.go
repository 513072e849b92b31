// Package analyzerdoc extracts an analyzer's documentation from its doc.go
// file, which the analyzer package embeds with //go:embed doc.go.
//
// The documentation is the package comment's section that starts with a
// heading "# Analyzer <name>"; it ends at the next heading or the end of the
// comment. The first line after the heading is the summary,
// "<name>: <summary>".
package analyzerdoc

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// Section returns the "# Analyzer name" section of the package comment in
// the Go source src. It panics if the section is missing: that is a
// programming error caught by every test of the analyzer.
func Section(src, name string) string {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		panic(fmt.Sprintf("analyzerdoc: parsing doc.go of %s: %v", name, err))
	}
	text := docText(f)
	heading := "# Analyzer " + name
	var out []string
	in := false
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.TrimSpace(line) == heading:
			in = true
			continue
		case in && strings.HasPrefix(line, "# "):
			in = false
		}
		if in {
			out = append(out, line)
		}
	}
	doc := strings.TrimSpace(strings.Join(out, "\n"))
	if !strings.HasPrefix(doc, name+": ") {
		panic(fmt.Sprintf("analyzerdoc: doc.go of %s has no section %q starting with %q", name, heading, name+": "))
	}
	return doc
}

func docText(f *ast.File) string {
	if f.Doc == nil {
		return ""
	}
	return f.Doc.Text()
}
