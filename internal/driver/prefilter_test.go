package driver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/internal/testgopath"
)

// TestPrefiltersSound runs the suite, with every dependency analysed and
// the prefilters checked against the facts, over each check's test
// packages and the library stubs (the retry shapes, libraries, clients and
// look-alikes the checks are tested on): one generated root imports them
// all, so that each is a dependency a prefilter may rule out. A package
// ruled out must export no fact, nor may an analyzer whose prefilter
// rules out a package that another analyzer's keeps. The test also makes
// sure that it is not vacuous: facts are exported (the test packages
// mostly retry in unexported functions, which have none), and packages
// are ruled out, whole and for some analyzers.
func TestPrefiltersSound(t *testing.T) {
	facts, ruled, partial := 0, 0, 0
	for _, tree := range testgopath.Trees(t) {
		check := filepath.Base(filepath.Dir(tree))
		t.Run(check, func(t *testing.T) {
			gopath := testgopath.Dir(t, tree)
			list := exec.Command("go", "list", "-e", "-f", "{{if not .Error}}{{.ImportPath}}{{end}}", "./...")
			list.Dir, list.Env = filepath.Join(gopath, "src"), testgopath.Env(gopath)
			out, err := list.Output()
			if err != nil {
				t.Fatalf("go list: %v", err)
			}
			var imports []string
			for _, path := range strings.Fields(string(out)) {
				if path != "unsafe" && !strings.Contains(path, "/internal/") && !strings.HasPrefix(path, "internal/") {
					imports = append(imports, path)
				}
			}
			var src strings.Builder
			src.WriteString("package zzroot\n\nimport (\n")
			for _, path := range imports {
				src.WriteString("\t_ \"" + path + "\"\n")
			}
			src.WriteString(")\n")
			if err := os.MkdirAll(filepath.Join(gopath, "src", "zzroot"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(gopath, "src", "zzroot", "root.go"), []byte(src.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			initial := testgopath.Load(t, gopath, loadMode, "zzroot")
			var cfg analyzers.Config
			g := analyze(analyzers.New(&cfg), initial, 2, nil, prefilterCheck, nil)
			for _, v := range g.violations {
				t.Errorf("prefilter unsound: %s", v)
			}
			t.Logf("%d packages under test; with facts: %v; %d ruled out; %d ruled out for some analyzers", len(imports), g.withFacts, len(g.rejected), len(g.partial))
			facts += len(g.withFacts)
			ruled += len(g.rejected)
			partial += len(g.partial)
		})
	}
	if facts < 5 || ruled == 0 || partial == 0 {
		t.Errorf("vacuous: %d packages with facts, %d ruled out, %d ruled out for some analyzers", facts, ruled, partial)
	}
}
