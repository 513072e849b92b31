package analyzers_test

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/internal/testgopath"
)

// maxMessage is the longest a diagnostic's message may be, in characters.
const maxMessage = 120

// importPath matches a name qualified by an import path with a slash in it
// ("github.com/idemlint/idemlint/runtime/retry.Do", "(*net/http.Client).Do",
// "runtime/retry.Do"): messages spell names as the code does, "retry.Do".
var importPath = regexp.MustCompile(`[A-Za-z0-9_.~-]+(?:/[A-Za-z0-9_.~-]+)+\.[A-Za-z_]`)

// capitalised matches a message that starts with a capitalised word
// ("Retry loop"), not with a name as the code spells it ("RetryIf",
// "POST", "Idempotency-Key").
var capitalised = regexp.MustCompile(`^[A-Z][a-z]+[ ,;:]`)

// messageProblem says what is wrong with a diagnostic's (or a related
// location's) message, or "".
func messageProblem(msg string) string {
	switch r, _ := utf8.DecodeRuneInString(msg); {
	case msg == "":
		return "empty"
	case utf8.RuneCountInString(msg) > maxMessage:
		return fmt.Sprintf("%d characters, more than %d", utf8.RuneCountInString(msg), maxMessage)
	case unicode.IsUpper(r) && capitalised.MatchString(msg):
		return "starts with a capitalised word"
	case strings.HasSuffix(msg, "."):
		return "ends with a period"
	case strings.Contains(msg, "\n"):
		return "spans lines"
	}
	if m := importPath.FindString(msg); m != "" {
		return fmt.Sprintf("names %q by its import path: spell it as the code does (retry.Do, (*http.Client).Do)", m)
	}
	return ""
}

func TestMessageProblem(t *testing.T) {
	for msg, bad := range map[string]bool{
		"retry loop has no attempt cap and no deadline; use retry.Do, whose Policy caps attempts":        false,
		"POST through (*http.Client).Do sends no idempotency key; mint one with idempotency.NewKey()":    false,
		"retry loop (3 attempts) inside retry.Do (5 attempts), up to 3×5 = 15 calls; retry in one layer": false,
		"use github.com/idemlint/idemlint/runtime/retry.Do":                                              true,
		"POST through (*net/http.Client).Do sends no key":                                                true,
		"or runtime/retry.Do": true,
		"call to example.com/demo/jobs.syncLedger reaches a retry loop": true,
		"Retry loop has no cap":           true,
		"retry loop has no cap.":          true,
		strings.Repeat("x", maxMessage+1): true,
	} {
		if got := messageProblem(msg) != ""; got != bad {
			t.Errorf("messageProblem(%q) = %q, want a problem: %v", msg, messageProblem(msg), bad)
		}
	}
}

// TestMessages runs every registered check over every check's test
// packages (passes/<check>/testdata/src, with the shared stubs), in the
// default configuration and with -strict-context, and fails on any
// message (or related location's message) longer than maxMessage
// characters, not lowercase, ending with a period, or naming something by
// its full import path. A new check is covered as soon as it is in the
// registry and has test packages.
func TestMessages(t *testing.T) {
	if testing.Short() {
		t.Skip("loads every check's test packages")
	}
	trees := testgopath.Trees(t)
	byCheck := make(map[string]int)
	seen := make(map[string]bool)
	for _, tree := range trees {
		entries, err := os.ReadDir(filepath.Join(tree, "src"))
		if err != nil {
			continue // a pass without test packages
		}
		var patterns []string
		for _, e := range entries {
			if e.IsDir() {
				patterns = append(patterns, e.Name()+"/...")
			}
		}
		gopath := testgopath.Dir(t, tree)
		pkgs := testgopath.Load(t, gopath, packages.LoadAllSyntax, patterns...)
		for _, cfg := range []*analyzers.Config{{}, {StrictContext: true}} {
			graph, err := checker.Analyze(analyzers.New(cfg), pkgs, nil)
			if err != nil {
				t.Fatalf("%s: %v", tree, err)
			}
			for act := range graph.All() {
				if !act.IsRoot || act.Err != nil {
					continue
				}
				for _, d := range act.Diagnostics {
					byCheck[act.Analyzer.Name]++
					check := func(what, msg string, pos token.Pos) {
						posn := act.Package.Fset.Position(pos)
						key := fmt.Sprint(posn, act.Analyzer.Name, what, msg)
						if p := messageProblem(msg); p != "" && !seen[key] {
							seen[key] = true
							t.Errorf("%s: %s: %s %s: %s", posn, act.Analyzer.Name, what, p, msg)
						}
					}
					check("message", d.Message, d.Pos)
					for _, r := range d.Related {
						check("related", r.Message, r.Pos)
					}
				}
			}
		}
	}
	for _, name := range analyzers.Checks() {
		if name != analyzers.DirectiveName && byCheck[name] == 0 {
			t.Errorf("vacuous: %s reported nothing over the checks' test packages", name)
		}
	}
	t.Logf("diagnostics checked, by check: %v", byCheck)
}
