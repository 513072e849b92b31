// Package gclreport describes the JSON report golangci-lint writes with
// --output.json.path: the part of it that idemlint's plugin test and its
// soak (internal/benchfloor/soaknorm) read.
package gclreport

// Report is golangci-lint's JSON report.
type Report struct {
	Issues []Issue
	Report struct {
		Warnings []struct{ Tag, Text string }
		Error    string
	}
}

// Issue is one finding of a linter; the idemlint plugin's FromLinter is
// "idemlint".
type Issue struct {
	FromLinter string
	Text       string
	Pos        struct {
		Filename     string
		Line, Column int
	}
}
