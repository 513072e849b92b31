package driver

import (
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
)

// The subset of SARIF 2.1.0 (https://docs.oasis-open.org/sarif/sarif/v2.1.0/)
// that the driver writes.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool               sarifTool                        `json:"tool"`
		Invocations        []sarifInvocation                `json:"invocations"`
		OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
		Results            []sarifResult                    `json:"results"`
		ColumnKind         string                           `json:"columnKind"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name            string            `json:"name"`
		Version         string            `json:"version,omitempty"`
		SemanticVersion string            `json:"semanticVersion,omitempty"`
		InformationURI  string            `json:"informationUri"`
		Rules           []sarifRule       `json:"rules"`
		Properties      map[string]string `json:"properties,omitempty"`
	}
	sarifRule struct {
		ID               string       `json:"id"`
		ShortDescription sarifMessage `json:"shortDescription"`
		FullDescription  sarifMessage `json:"fullDescription"`
		HelpURI          string       `json:"helpUri,omitempty"`
		Help             sarifMessage `json:"help"`
		DefaultConfig    struct {
			Level string `json:"level"`
		} `json:"defaultConfiguration"`
	}
	sarifInvocation struct {
		ExecutionSuccessful bool                `json:"executionSuccessful"`
		Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
	}
	sarifNotification struct {
		Level   string       `json:"level"`
		Message sarifMessage `json:"message"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID           string          `json:"ruleId"`
		RuleIndex        int             `json:"ruleIndex"`
		Level            string          `json:"level"`
		Message          sarifMessage    `json:"message"`
		Locations        []sarifLocation `json:"locations"`
		RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
		Fixes            []sarifFix      `json:"fixes,omitempty"`
	}
	sarifLocation struct {
		ID               *int                  `json:"id,omitempty"`
		PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
		Message          *sarifMessage         `json:"message,omitempty"`
	}
	sarifPhysicalLocation struct {
		ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
		Region           sarifRegion           `json:"region"`
	}
	sarifArtifactLocation struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn"`
		EndLine     int `json:"endLine,omitempty"`
		EndColumn   int `json:"endColumn,omitempty"`
	}
	sarifFix struct {
		Description     sarifMessage          `json:"description"`
		ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
	}
	sarifArtifactChange struct {
		ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
		Replacements     []sarifReplacement    `json:"replacements"`
	}
	sarifReplacement struct {
		DeletedRegion   sarifRegion   `json:"deletedRegion"`
		InsertedContent *sarifMessage `json:"insertedContent,omitempty"`
	}
)

// srcRoot is the uriBaseId of the paths in the module: GitHub code scanning
// and the SARIF viewers resolve it to the checkout.
const srcRoot = "%SRCROOT%"

// printSARIF prints the findings as one SARIF 2.1.0 run: one rule per
// analyzer, with its summary, its documentation and the address of its page;
// paths relative to the module root; related information as related
// locations; suggested fixes as fixes; analysis and package errors as
// notifications of a failed invocation.
func (g *graph) printSARIF(w io.Writer, out *output) error {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           "idemlint",
			InformationURI: "https://github.com/idemlint/idemlint",
			// The module version as the build information gives it.
			Properties: map[string]string{"moduleVersion": out.version},
		}},
		ColumnKind: "utf16CodeUnits",
		Results:    []sarifResult{},
	}
	// SARIF's version is numeric: a release or pseudo-version without its
	// "v"; a build without one, "(devel)", is 0.0.0-devel.
	v, ok := strings.CutPrefix(out.version, "v")
	if !ok || v == "" || v[0] < '0' || v[0] > '9' {
		v = "0.0.0-devel"
	}
	run.Tool.Driver.Version, run.Tool.Driver.SemanticVersion = v, v
	ruleIndex := make(map[*analysis.Analyzer]int)
	for _, a := range out.analyzers {
		ruleIndex[a] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleOf(a))
	}
	root := out.root
	if root != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLocation{srcRoot: {URI: fileURI(root) + "/"}}
	}
	cols := newColumns()
	loc := func(posn, end token.Position) sarifPhysicalLocation {
		return sarifPhysicalLocation{ArtifactLocation: artifact(root, posn.Filename), Region: cols.region(posn, end)}
	}
	inv := sarifInvocation{ExecutionSuccessful: len(out.pkgErrors) == 0}
	for _, e := range out.pkgErrors {
		inv.Notifications = append(inv.Notifications, sarifNotification{Level: "error", Message: sarifMessage{e}})
	}
	g.findings(func(act *action) {
		inv.ExecutionSuccessful = false
		inv.Notifications = append(inv.Notifications, sarifNotification{Level: "error",
			Message: sarifMessage{fmt.Sprintf("%s: %s: %v", act.pkg.ID, act.a.Name, act.err)}})
	}, func(act *action, d diagnostic) {
		r := sarifResult{
			RuleID:    act.a.Name,
			RuleIndex: ruleIndex[act.a],
			Level:     "warning",
			Message:   sarifMessage{d.message},
			Locations: []sarifLocation{{PhysicalLocation: loc(d.posn, d.end)}},
		}
		for i, rel := range d.related {
			id := i + 1
			r.RelatedLocations = append(r.RelatedLocations, sarifLocation{ID: &id, PhysicalLocation: loc(rel.posn, rel.end), Message: &sarifMessage{rel.message}})
		}
		for _, f := range d.fixes {
			sf := sarifFix{Description: sarifMessage{f.message}}
			byFile := make(map[string]int) // index in sf.ArtifactChanges
			for _, e := range f.edits {
				i, ok := byFile[e.start.Filename]
				if !ok {
					i = len(sf.ArtifactChanges)
					byFile[e.start.Filename] = i
					sf.ArtifactChanges = append(sf.ArtifactChanges, sarifArtifactChange{ArtifactLocation: artifact(root, e.start.Filename)})
				}
				end := e.end
				if !end.IsValid() {
					end = e.start
				}
				rep := sarifReplacement{DeletedRegion: cols.region(e.start, end)}
				if e.new != "" {
					rep.InsertedContent = &sarifMessage{e.new}
				}
				sf.ArtifactChanges[i].Replacements = append(sf.ArtifactChanges[i].Replacements, rep)
			}
			r.Fixes = append(r.Fixes, sf)
		}
		run.Results = append(run.Results, r)
	})
	run.Invocations = []sarifInvocation{inv}
	data, err := json.MarshalIndent(sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	}, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// sarifRuleOf describes analyzer a: its Doc's first line (without the
// "name: " prefix) is the short description, the rest the full one.
func sarifRuleOf(a *analysis.Analyzer) sarifRule {
	summary, rest, _ := strings.Cut(a.Doc, "\n")
	summary = strings.TrimPrefix(summary, a.Name+": ")
	full := strings.TrimSpace(rest)
	if full == "" {
		full = summary
	}
	r := sarifRule{
		ID:               a.Name,
		ShortDescription: sarifMessage{sentence(summary)},
		FullDescription:  sarifMessage{sentence(full)},
		HelpURI:          a.URL,
		Help:             sarifMessage{sentence(full)},
	}
	if a.URL != "" {
		r.Help.Text += " See " + a.URL + "."
	}
	r.DefaultConfig.Level = "warning"
	return r
}

// sentence ends s with a period, as SARIF asks of plain-text messages.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") {
		return s
	}
	return s + "."
}

// artifact locates file relative to root, with the %SRCROOT% base, or by
// its absolute file URI when it lies outside root.
func artifact(root, file string) sarifArtifactLocation {
	if root != "" {
		if rel, err := filepath.Rel(root, file); err == nil && filepath.IsLocal(rel) {
			return sarifArtifactLocation{URI: (&url.URL{Path: filepath.ToSlash(rel)}).EscapedPath(), URIBaseID: srcRoot}
		}
	}
	return sarifArtifactLocation{URI: fileURI(file)}
}

func fileURI(path string) string {
	path = filepath.ToSlash(path)
	if !strings.HasPrefix(path, "/") {
		path = "/" + path // a Windows drive letter
	}
	return (&url.URL{Scheme: "file", Path: path}).String()
}

// columns converts the byte columns of token.Position into the UTF-16 code
// unit columns of SARIF's default columnKind, reading each file once.
type columns struct {
	files map[string][]byte
}

func newColumns() *columns { return &columns{files: make(map[string][]byte)} }

func (c *columns) region(posn, end token.Position) sarifRegion {
	r := sarifRegion{StartLine: posn.Line, StartColumn: c.column(posn)}
	if end.IsValid() && end.Line > 0 {
		r.EndLine, r.EndColumn = end.Line, c.column(end)
	}
	return r
}

func (c *columns) column(p token.Position) int {
	data, ok := c.files[p.Filename]
	if !ok {
		data, _ = os.ReadFile(p.Filename)
		c.files[p.Filename] = data
	}
	start := p.Offset - (p.Column - 1)
	if p.Column < 1 || start < 0 || p.Offset > len(data) {
		return max(p.Column, 1)
	}
	col := 1
	for s := data[start:p.Offset]; len(s) > 0; {
		r, size := utf8.DecodeRune(s)
		s = s[size:]
		if r >= 0x10000 {
			col += 2
		} else {
			col++
		}
	}
	return col
}
