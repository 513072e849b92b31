// Package suppress implements the //idemlint:ignore and
// //idemlint:file-ignore directives, honoured the same way by every driver
// because the checks report through it.
//
// A directive has the form
//
//	//idemlint:ignore check[,check...] reason
//
// and silences the named checks' findings on its own line or on the line
// below it; or
//
//	//idemlint:file-ignore check[,check...] reason
//
// anywhere in a file (by convention above the package clause), and
// silences them in the whole file. The reason is required.
package suppress

import (
	"go/ast"
	"go/token"
	"reflect"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// Prefix starts every line directive, FilePrefix every file directive.
const (
	Prefix     = "//idemlint:ignore"
	FilePrefix = "//idemlint:file-ignore"
)

// Analyzer parses the directives of a package once; its result is an *Index.
var Analyzer = &analysis.Analyzer{
	Name:             "idemlint_directives",
	Doc:              "idemlint_directives: parse //idemlint:ignore and //idemlint:file-ignore directives for the idemlint checks",
	URL:              "https://github.com/idemlint/idemlint/blob/main/docs/suppression.md",
	Run:              run,
	ResultType:       reflect.TypeFor[*Index](),
	RunDespiteErrors: true,
}

// Directive is one //idemlint:ignore or //idemlint:file-ignore comment.
type Directive struct {
	Pos       token.Pos // the comment
	File      string    // the file's name as the FileSet gives it
	Line      int       // the comment's line
	WholeFile bool      // //idemlint:file-ignore
	Checks    []string  // the checks it names
	Reason    string    // the text after the check list; may be empty
}

// Prefix is how the directive starts: Prefix or FilePrefix.
func (d *Directive) Prefix() string {
	if d.WholeFile {
		return FilePrefix
	}
	return Prefix
}

// Index holds a package's directives and which of them silenced a finding.
// It is safe for concurrent use by the checks of one package.
type Index struct {
	fset       *token.FileSet
	directives []*Directive
	byLine     map[lineKey][]*Directive
	byFile     map[string][]*Directive // file directives
	generated  map[string]bool         // files marked "Code generated ... DO NOT EDIT."

	mu   sync.Mutex
	used map[*Directive]bool
}

type lineKey struct {
	file string
	line int
}

func run(pass *analysis.Pass) (any, error) {
	idx := &Index{fset: pass.Fset, byLine: make(map[lineKey][]*Directive), byFile: make(map[string][]*Directive),
		generated: make(map[string]bool), used: make(map[*Directive]bool)}
	for _, f := range pass.Files {
		if ast.IsGenerated(f) {
			idx.generated[pass.Fset.File(f.Pos()).Name()] = true
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				d := parse(c)
				if d == nil {
					continue
				}
				p := pass.Fset.Position(c.Slash)
				d.File, d.Line = p.Filename, p.Line
				idx.directives = append(idx.directives, d)
				if d.WholeFile {
					idx.byFile[d.File] = append(idx.byFile[d.File], d)
				} else {
					idx.byLine[lineKey{d.File, d.Line}] = append(idx.byLine[lineKey{d.File, d.Line}], d)
				}
			}
		}
	}
	return idx, nil
}

// parse returns the directive in c, or nil if c is not one.
func parse(c *ast.Comment) *Directive {
	rest, whole := strings.CutPrefix(c.Text, FilePrefix)
	if !whole {
		var ok bool
		if rest, ok = strings.CutPrefix(c.Text, Prefix); !ok {
			return nil
		}
	}
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return nil
	}
	// A trailing "// ..." is a comment on the directive, not part of it.
	if i := strings.Index(rest, "//"); i >= 0 {
		rest = rest[:i]
	}
	fields := strings.Fields(rest)
	d := &Directive{Pos: c.Slash, WholeFile: whole}
	if len(fields) == 0 {
		return d
	}
	for _, name := range strings.Split(fields[0], ",") {
		if name = strings.TrimSpace(name); name != "" {
			d.Checks = append(d.Checks, name)
		}
	}
	d.Reason = strings.Join(fields[1:], " ")
	return d
}

// Directives returns the package's directives in source order.
func (idx *Index) Directives() []*Directive { return idx.directives }

// Used reports whether d silenced at least one finding so far.
func (idx *Index) Used(d *Directive) bool {
	idx.mu.Lock()
	defer idx.mu.Unlock()
	return idx.used[d]
}

// Silenced reports whether a finding of check at pos is silenced by a
// directive on its line or the line above, or by a file directive of its
// file, and marks that directive used. A directive without a reason
// silences nothing.
func (idx *Index) Silenced(check string, pos token.Pos) bool {
	if idx == nil || len(idx.directives) == 0 || !pos.IsValid() {
		return false
	}
	p := idx.fset.Position(pos)
	candidates := [][]*Directive{
		idx.byLine[lineKey{p.Filename, p.Line}],
		idx.byLine[lineKey{p.Filename, p.Line - 1}],
		idx.byFile[p.Filename],
	}
	for _, ds := range candidates {
		for _, d := range ds {
			if d.Reason == "" || !names(d, check) {
				continue
			}
			idx.mu.Lock()
			idx.used[d] = true
			idx.mu.Unlock()
			return true
		}
	}
	return false
}

func names(d *Directive, check string) bool {
	for _, c := range d.Checks {
		if c == check {
			return true
		}
	}
	return false
}

// Generated reports whether pos lies in a generated file ("Code generated
// ... DO NOT EDIT.").
func (idx *Index) Generated(pos token.Pos) bool {
	if idx == nil || len(idx.generated) == 0 || !pos.IsValid() {
		return false
	}
	return idx.generated[idx.fset.Position(pos).Filename]
}

// GeneratedAt reports whether pos lies in one of pass's files that is
// generated, for the checks that skip generated code before they report.
func GeneratedAt(pass *analysis.Pass, pos token.Pos) bool {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return ast.IsGenerated(f)
		}
	}
	return false
}

// Report reports d through pass unless it lies in a generated file or a
// directive silences it for check. Every idemlint check reports through
// Report, so no check needs its own test for generated files; pass must
// belong to an analyzer that requires Analyzer.
func Report(pass *analysis.Pass, check string, d analysis.Diagnostic) {
	idx, _ := pass.ResultOf[Analyzer].(*Index)
	if idx.Generated(d.Pos) || idx.Silenced(check, d.Pos) {
		return
	}
	pass.Report(d)
}
