package driver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"log"
	"os"
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
	fixes     []jsonFix
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
		for _, fix := range d.SuggestedFixes {
			var edits []jsonTextEdit
			for _, edit := range fix.TextEdits {
				edits = append(edits, jsonTextEdit{
					Filename: fset.Position(edit.Pos).Filename,
					Start:    fset.Position(edit.Pos).Offset,
					End:      fset.Position(edit.End).Offset,
					New:      string(edit.NewText),
				})
			}
			rd.fixes = append(rd.fixes, jsonFix{Message: fix.Message, Edits: edits})
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

// print prints the diagnostics and errors as the multichecker does, in
// text on stderr or with -json on stdout, and returns the exit code: 1 if
// an analysis failed, 3 if there are findings (text only), 0 otherwise.
func (g *graph) print(asJSON bool, contextLines int) int {
	if asJSON {
		if err := g.printJSON(os.Stdout); err != nil {
			return 1
		}
		return 0
	}
	if err := g.printText(os.Stderr, contextLines); err != nil {
		return 1
	}
	return g.exitCode()
}

// exitCode is the exit code of a text run: 1 if an analysis failed, 3 if
// there are findings, 0 otherwise.
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

// printErrors prints the errors of pkgs and their dependencies as
// packages.PrintErrors does, to w, and returns how many it printed.
func printErrors(w io.Writer, pkgs []*packages.Package) int {
	var n int
	errModules := make(map[*packages.Module]bool)
	for pkg := range packages.Postorder(pkgs) {
		for _, err := range pkg.Errors {
			fmt.Fprintln(w, err)
			n++
		}
		if mod := pkg.Module; mod != nil && mod.Error != nil && !errModules[mod] {
			errModules[mod] = true
			fmt.Fprintln(w, mod.Error.Err)
			n++
		}
	}
	return n
}

func (g *graph) printText(w io.Writer, contextLines int) error {
	// The same finding in a file of two packages (p and p [p.test]) is
	// printed once.
	type key struct {
		pos, end token.Position
		*analysis.Analyzer
		message string
	}
	seen := make(map[key]bool)
	buf := new(bytes.Buffer)
	g.forEach(func(act *action) {
		if act.err != nil {
			fmt.Fprintf(w, "%s: %v\n", act.a.Name, act.err)
			return
		}
		if !act.isRoot {
			return
		}
		for _, d := range act.diags {
			k := key{d.posn, d.end, act.a, d.message}
			if seen[k] {
				continue
			}
			seen[k] = true
			printPlain(buf, contextLines, d.posn, d.end, d.message)
			for _, r := range d.related {
				printPlain(buf, contextLines, r.posn, r.end, "\t"+r.message)
			}
		}
	})
	_, err := w.Write(buf.Bytes())
	return err
}

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
			for _, d := range act.diags {
				jd := jsonDiagnostic{
					Category:       d.category,
					Posn:           d.posn.String(),
					End:            d.jsonEnd.String(),
					Message:        d.message,
					SuggestedFixes: d.fixes,
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
