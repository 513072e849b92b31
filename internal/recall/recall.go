// Package recall measures idemlint's recall over the labelled corpus of
// testdata/recall: real retry bugs in public Go modules (bugs.txt, kind
// "bug"), each labelled by reading the code against the rules of
// idempotency-and-retries.md, never by what idemlint reports, and
// look-alike ranges of correct code of the same shape (kind "lookalike"),
// where any finding of the named checks is false.
//
// The modules are fetched and analyzed with internal/corpus (the same
// throwaway module and the same idemlint run as the precision corpus);
// this package only matches findings against the labelled ranges.
package recall

import (
	"bufio"
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/idemlint/idemlint/internal/corpus"
)

// Checks are the checks a bug can be labelled with, in table order.
var Checks = []string{"unboundedretry", "nojitter", "keyinloop", "unkeyedpost", "nestedretry", "retrytimeout", "retrystatus", "jobretry", "keyprop"}

// Entry is one line of bugs.txt.
type Entry struct {
	ID        string
	Lookalike bool
	Module    string // module path
	Version   string
	Package   string // import path
	File      string // relative to the module root
	From, To  int    // line range, inclusive
	// Checks: the rule a bug breaks (one check), or the checks whose
	// findings would be false in a look-alike range.
	Checks []string
	Reason string
	Line   int // line in bugs.txt
}

// Matches reports whether f is of one of e's checks and lies in e's range.
func (e Entry) Matches(f corpus.Finding) bool {
	if !slices.Contains(e.Checks, f.Check) {
		return false
	}
	mod, ver, file, line, ok := f.Location()
	return ok && mod == e.Module && ver == e.Version && file == e.File && e.From <= line && line <= e.To
}

// Parse reads bugs.txt: tab-separated lines
//
//	id  kind  module@version  package  file  from-to  check[,check...]  reason
//
// with kind "bug" (one check) or "lookalike" (checks, or "*" for all of
// Checks); blank lines and "#" comments are skipped.
func Parse(data []byte) ([]Entry, error) { return ParseWith(data, moduleOrigin) }

// Origin reads an entry's third and fourth fields, where its code comes from
// and its package, into the entry's Module and Version: the first two parts
// of a finding's Location. ParseWith checks the other six fields.
type Origin func(where, pkg string) (module, version string, err error)

// moduleOrigin is the recall corpus's origin: module@version of the module
// proxy, and the import path of a package of that module.
func moduleOrigin(where, pkg string) (string, string, error) {
	module, version, ok := strings.Cut(where, "@")
	if !ok || module == "" || !strings.HasPrefix(version, "v") {
		return "", "", fmt.Errorf("%q is not module@version", where)
	}
	if pkg != module && !strings.HasPrefix(pkg, module+"/") {
		return "", "", fmt.Errorf("package %s is not in module %s", pkg, module)
	}
	return module, version, nil
}

// ParseWith reads entries in the format of bugs.txt whose third and fourth
// fields origin reads (testdata/blind's labels name a repository and a
// commit, not a module and a version).
func ParseWith(data []byte, origin Origin) ([]Entry, error) {
	var out []Entry
	ids := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 8 {
			return nil, fmt.Errorf("line %d: %d tab-separated fields, want 8 (id kind module@version package file lines check reason)", n, len(f))
		}
		e := Entry{ID: f[0], Package: f[3], File: f[4], Reason: strings.TrimSpace(f[7]), Line: n}
		if e.ID == "" || ids[e.ID] {
			return nil, fmt.Errorf("line %d: id %q empty or used twice", n, e.ID)
		}
		ids[e.ID] = true
		switch f[1] {
		case "bug":
		case "lookalike":
			e.Lookalike = true
		default:
			return nil, fmt.Errorf("line %d: kind %q is neither bug nor lookalike", n, f[1])
		}
		var err error
		if e.Module, e.Version, err = origin(f[2], e.Package); err != nil {
			return nil, fmt.Errorf("line %d: %v", n, err)
		}
		from, to, _ := strings.Cut(f[5], "-")
		var err1, err2 error
		e.From, err1 = strconv.Atoi(from)
		e.To, err2 = strconv.Atoi(to)
		if err1 != nil || err2 != nil || e.From < 1 || e.To < e.From {
			return nil, fmt.Errorf("line %d: line range %q is not from-to", n, f[5])
		}
		if f[6] == "*" && e.Lookalike {
			e.Checks = Checks
		} else {
			e.Checks = strings.Split(f[6], ",")
		}
		for _, c := range e.Checks {
			if !slices.Contains(Checks, c) {
				return nil, fmt.Errorf("line %d: unknown check %q", n, c)
			}
		}
		if !e.Lookalike && len(e.Checks) != 1 {
			return nil, fmt.Errorf("line %d: a bug breaks one rule; give one check", n)
		}
		if e.Reason == "" {
			return nil, fmt.Errorf("line %d: no reason", n)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// Result is the outcome of matching the findings against the entries.
type Result struct {
	Found     map[string][]corpus.Finding // bug id: the findings in its range
	False     map[string][]corpus.Finding // look-alike id: the findings in its range
	Unmatched []corpus.Finding            // findings in no labelled range
}

// Match matches every finding against every entry.
func Match(entries []Entry, findings []corpus.Finding) Result {
	r := Result{Found: map[string][]corpus.Finding{}, False: map[string][]corpus.Finding{}}
	for _, f := range findings {
		matched := false
		for _, e := range entries {
			if !e.Matches(f) {
				continue
			}
			matched = true
			if e.Lookalike {
				r.False[e.ID] = append(r.False[e.ID], f)
			} else {
				r.Found[e.ID] = append(r.Found[e.ID], f)
			}
		}
		if !matched {
			r.Unmatched = append(r.Unmatched, f)
		}
	}
	return r
}

// Table formats recall per check: labelled bugs, found, recall; then the
// look-alikes and their false findings.
func Table(entries []Entry, r Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-16s %8s %6s %7s\n", "check", "labelled", "found", "recall")
	total, found := 0, 0
	looks, falses := 0, 0
	for _, c := range Checks {
		n, k := 0, 0
		for _, e := range entries {
			if !e.Lookalike && e.Checks[0] == c {
				n++
				if len(r.Found[e.ID]) > 0 {
					k++
				}
			}
		}
		total += n
		found += k
		fmt.Fprintf(&b, "%-16s %8d %6d %7s\n", c, n, k, pct(k, n))
	}
	fmt.Fprintf(&b, "%-16s %8d %6d %7s\n", "all", total, found, pct(found, total))
	for _, e := range entries {
		if e.Lookalike {
			looks++
			if len(r.False[e.ID]) > 0 {
				falses++
			}
		}
	}
	fmt.Fprintf(&b, "look-alike ranges: %d, with a false finding: %d\n", looks, falses)
	return b.String()
}

func pct(k, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(k)/float64(n))
}

// Baseline is found.txt: what the tool found when it was last written
// (recorded from the run, not a label).
type Baseline struct {
	Found []string // ids of bugs found
	// False: ids of look-alikes that had a false finding then, known
	// precision bugs; any other look-alike with a finding fails the test.
	False []string
}

// ParseBaseline reads found.txt: "found <id>" and "false <id>" lines, "#"
// comments.
func ParseBaseline(data []byte) (Baseline, error) {
	var b Baseline
	for i, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		kind, id, ok := strings.Cut(l, " ")
		switch {
		case ok && kind == "found":
			b.Found = append(b.Found, strings.TrimSpace(id))
		case ok && kind == "false":
			b.False = append(b.False, strings.TrimSpace(id))
		default:
			return Baseline{}, fmt.Errorf("found.txt:%d: %q is neither \"found <id>\" nor \"false <id>\"", i+1, l)
		}
	}
	return b, nil
}

// FormatBaseline writes found.txt for r.
func FormatBaseline(entries []Entry, r Result) []byte {
	return FormatBaselineWith("The recall baseline, recorded from the run (not a label) by\n"+
		"go test ./internal/recall -run TestRecall -update.\n"+
		"found <id>: a bug of bugs.txt the tool finds; the test fails when it is no longer found.\n"+
		"false <id>: a look-alike the tool has a false finding in (a known precision bug);\n"+
		"a finding in any other look-alike fails the test.", entries, r)
}

// FormatBaselineWith writes a found.txt for r under header, each of its
// lines a "#" comment: "found <id>" for each bug found, then "false <id>"
// for each look-alike with a finding.
func FormatBaselineWith(header string, entries []Entry, r Result) []byte {
	var b bytes.Buffer
	for _, l := range strings.Split(header, "\n") {
		b.WriteString(strings.TrimRight("# "+l, " ") + "\n")
	}
	for _, e := range entries {
		if !e.Lookalike && len(r.Found[e.ID]) > 0 {
			fmt.Fprintf(&b, "found %s\n", e.ID)
		}
	}
	for _, e := range entries {
		if e.Lookalike && len(r.False[e.ID]) > 0 {
			fmt.Fprintf(&b, "false %s\n", e.ID)
		}
	}
	return b.Bytes()
}
