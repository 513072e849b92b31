package driver

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"log"
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// A diagnostic is an analysis.Diagnostic with its positions resolved, so
// that it outlives its package's file set.
type diagnostic struct {
	posn, end token.Position // end is the zero Position when the diagnostic has none
	jsonEnd   token.Position // end, or posn when there is none
	message   string
	category  string
	related   []related
	fixes     []fix
}

// A fix is a suggested fix with its edits' positions resolved.
type fix struct {
	message string
	edits   []edit
}

type edit struct {
	start, end token.Position // end is the zero Position when the edit has no End
	new        string
}

type related struct {
	posn, end token.Position
	jsonEnd   token.Position
	message   string
}

func resolve(fset *token.FileSet, diags []analysis.Diagnostic) []diagnostic {
	out := make([]diagnostic, 0, len(diags))
	orPos := func(end, pos token.Pos) token.Pos {
		if end != token.NoPos {
			return end
		}
		return pos
	}
	for _, d := range diags {
		rd := diagnostic{
			posn:     fset.Position(d.Pos),
			end:      fset.Position(d.End),
			jsonEnd:  fset.Position(orPos(d.End, d.Pos)),
			message:  d.Message,
			category: d.Category,
		}
		for _, r := range d.Related {
			rd.related = append(rd.related, related{
				posn:    fset.Position(r.Pos),
				end:     fset.Position(r.End),
				jsonEnd: fset.Position(orPos(r.End, r.Pos)),
				message: r.Message,
			})
		}
		for _, sf := range d.SuggestedFixes {
			f := fix{message: sf.Message}
			for _, e := range sf.TextEdits {
				f.edits = append(f.edits, edit{start: fset.Position(e.Pos), end: fset.Position(e.End), new: string(e.NewText)})
			}
			rd.fixes = append(rd.fixes, f)
		}
		out = append(out, rd)
	}
	return out
}

// forEach visits the action graph from roots in depth-first postorder, as
// the multichecker prints it.
func (g *graph) forEach(f func(*action)) {
	seen := make(map[*action]bool)
	var visit func([]*action)
	visit = func(acts []*action) {
		for _, act := range acts {
			if !seen[act] {
				seen[act] = true
				visit(act.deps)
				f(act)
			}
		}
	}
	visit(g.roots)
}

// The output formats: -format text (the default, on stderr, as the
// multichecker prints it), json (the multichecker's -json tree), sarif
// (SARIF 2.1.0) and github (GitHub Actions workflow commands); all but text
// go to stdout.
const (
	formatText   = "text"
	formatJSON   = "json"
	formatSARIF  = "sarif"
	formatGitHub = "github"
)

var formats = []string{formatText, formatJSON, formatSARIF, formatGitHub}

// output is what printing needs besides the graph.
type output struct {
	format       string
	contextLines int                  // text: lines of context (-c), or -1
	analyzers    []*analysis.Analyzer // sarif: the rules
	root         string               // sarif, github: the directory paths are relative to
	version      string               // sarif: the tool's version
	pkgErrors    []string             // sarif: the package errors printed on stderr
}

// print prints the diagnostics and errors in out.format and returns the
// exit code, the same in every format: 1 if an analysis failed, 3 if there
// are findings, 0 otherwise.
func (g *graph) print(out *output) int {
	var err error
	switch out.format {
	case formatJSON:
		err = g.printJSON(os.Stdout)
	case formatSARIF:
		err = g.printSARIF(os.Stdout, out)
	case formatGitHub:
		err = g.printGitHub(os.Stdout, out.root)
	default:
		err = g.printText(os.Stderr, out.contextLines)
	}
	if err != nil {
		log.Print(err)
		return 1
	}
	return g.exitCode()
}

// exitCode is the exit code of a run: 1 if an analysis failed, 3 if there
// are findings, 0 otherwise.
func (g *graph) exitCode() int {
	var numErrors, rootDiags int
	g.forEach(func(act *action) {
		if act.err != nil {
			numErrors++
		} else if act.isRoot {
			rootDiags += len(act.diags)
		}
	})
	switch {
	case numErrors > 0:
		return 1
	case rootDiags > 0:
		return 3
	}
	return 0
}

// findings visits the analysis errors in the graph's depth-first order,
// then the roots' findings sorted by file, line, column and check (the
// same in every format): the same finding in a file of two packages (p and
// p [p.test]) is visited once. Errors that say only that a package does
// not type-check are left out: its type errors, printed before, say why,
// where the multichecker adds a line per check.
func (g *graph) findings(onErr func(*action), onDiag func(*action, diagnostic)) {
	type key struct {
		pos, end token.Position
		*analysis.Analyzer
		message string
	}
	type finding struct {
		act *action
		d   diagnostic
	}
	seen := make(map[key]bool)
	var all []finding
	g.forEach(func(act *action) {
		if act.err != nil {
			if !act.illTyped {
				onErr(act)
			}
			return
		}
		if !act.isRoot {
			return
		}
		for _, d := range act.diags {
			k := key{d.posn, d.end, act.a, d.message}
			if !seen[k] {
				seen[k] = true
				all = append(all, finding{act, d})
			}
		}
	})
	slices.SortStableFunc(all, func(a, b finding) int {
		return cmp.Or(comparePosition(a.d.posn, b.d.posn), strings.Compare(a.act.a.Name, b.act.a.Name), strings.Compare(a.d.message, b.d.message))
	})
	for _, f := range all {
		onDiag(f.act, f.d)
	}
}

// comparePosition orders positions by file, line and column.
func comparePosition(a, b token.Position) int {
	return cmp.Or(strings.Compare(a.Filename, b.Filename), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
}

// sortDiagnostics sorts diags by position, then message.
func sortDiagnostics(diags []diagnostic) {
	slices.SortStableFunc(diags, func(a, b diagnostic) int {
		return cmp.Or(comparePosition(a.posn, b.posn), strings.Compare(a.message, b.message))
	})
}

// printErrors prints the errors of pkgs and their dependencies as
// packages.PrintErrors does, to w, and returns how many it printed.
func printErrors(w io.Writer, pkgs []*packages.Package) int {
	errs := packageErrors(pkgs)
	for _, err := range errs {
		fmt.Fprintln(w, err)
	}
	return len(errs)
}

// packageErrors lists the errors of pkgs and their dependencies in the
// order packages.PrintErrors prints them.
func packageErrors(pkgs []*packages.Package) []string {
	var errs []string
	errModules := make(map[*packages.Module]bool)
	for pkg := range packages.Postorder(pkgs) {
		for _, err := range pkg.Errors {
			errs = append(errs, err.Error())
		}
		if mod := pkg.Module; mod != nil && mod.Error != nil && !errModules[mod] {
			errModules[mod] = true
			errs = append(errs, mod.Error.Err)
		}
	}
	return errs
}

// printText prints each finding as "file:line:col: message (check)", its
// related information below it indented by a tab, and analysis errors as
// "analyzer: error".
func (g *graph) printText(w io.Writer, contextLines int) error {
	buf := new(bytes.Buffer)
	g.findings(func(act *action) {
		fmt.Fprintf(buf, "%s: %v\n", act.a.Name, act.err)
	}, func(act *action, d diagnostic) {
		printPlain(buf, contextLines, d.posn, d.end, WithCheck(d.message, act.a.Name))
		for _, r := range d.related {
			printPlain(buf, contextLines, r.posn, r.end, "\t"+r.message)
		}
	})
	_, err := w.Write(buf.Bytes())
	return err
}

// WithCheck is message as text output shows it: followed by the name of the
// check that reported it, "message (nojitter)".
func WithCheck(message, check string) string { return message + " (" + check + ")" }

func printPlain(out io.Writer, contextLines int, posn, end token.Position, message string) {
	fmt.Fprintf(out, "%s: %s\n", posn, message)
	if contextLines < 0 {
		return
	}
	if !end.IsValid() {
		end = posn
	}
	data, _ := os.ReadFile(posn.Filename)
	lines := strings.Split(string(data), "\n")
	for i := posn.Line - contextLines; i <= end.Line+contextLines; i++ {
		if 1 <= i && i <= len(lines) {
			fmt.Fprintf(out, "%d\t%s\n", i, lines[i-1])
		}
	}
}

// The JSON schema of the multichecker's -json output.
type (
	jsonTextEdit struct {
		Filename string `json:"filename"`
		Start    int    `json:"start"`
		End      int    `json:"end"`
		New      string `json:"new"`
	}
	jsonFix struct {
		Message string         `json:"message"`
		Edits   []jsonTextEdit `json:"edits"`
	}
	jsonRelated struct {
		Posn    string `json:"posn"`
		End     string `json:"end"`
		Message string `json:"message"`
	}
	jsonDiagnostic struct {
		Category       string        `json:"category,omitempty"`
		Posn           string        `json:"posn"`
		End            string        `json:"end"`
		Message        string        `json:"message"`
		SuggestedFixes []jsonFix     `json:"suggested_fixes,omitempty"`
		Related        []jsonRelated `json:"related,omitempty"`
	}
	jsonError struct {
		Err string `json:"error"`
	}
)

func (g *graph) printJSON(w io.Writer) error {
	tree := make(map[string]map[string]any)
	g.forEach(func(act *action) {
		var v any
		if act.err != nil {
			v = jsonError{act.err.Error()}
		} else if act.isRoot && len(act.diags) > 0 {
			list := make([]jsonDiagnostic, 0, len(act.diags))
			diags := slices.Clone(act.diags)
			sortDiagnostics(diags)
			for _, d := range diags {
				jd := jsonDiagnostic{
					Category:       d.category,
					Posn:           d.posn.String(),
					End:            d.jsonEnd.String(),
					Message:        d.message,
					SuggestedFixes: jsonFixes(d.fixes),
				}
				for _, r := range d.related {
					jd.Related = append(jd.Related, jsonRelated{Posn: r.posn.String(), End: r.jsonEnd.String(), Message: r.message})
				}
				list = append(list, jd)
			}
			v = list
		}
		if v == nil {
			return
		}
		m := tree[act.pkg.ID]
		if m == nil {
			m = make(map[string]any)
			tree[act.pkg.ID] = m
		}
		m[act.a.Name] = v
	})
	data, err := json.MarshalIndent(tree, "", "\t")
	if err != nil {
		log.Panicf("internal error: JSON marshaling failed: %v", err)
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

func jsonFixes(fixes []fix) []jsonFix {
	var out []jsonFix
	for _, f := range fixes {
		var edits []jsonTextEdit
		for _, e := range f.edits {
			edits = append(edits, jsonTextEdit{Filename: e.start.Filename, Start: e.start.Offset, End: e.end.Offset, New: e.new})
		}
		out = append(out, jsonFix{Message: f.message, Edits: edits})
	}
	return out
}
