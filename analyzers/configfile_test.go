package analyzers_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/idemlint/idemlint/analyzers"
)

func TestParseFileErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"checks: [all, -nojiter]\n", `idemlint.yml:1:15: checks: unknown check "-nojiter"`},
		{"checks: [all]\nretry-func: [a.B]\n", `idemlint.yml:2:1: unknown key "retry-func"`},
		{"paths:\n  gen/**:\n    checks: [-all]\n    strict-context: true\n", `idemlint.yml:4:5: paths: "gen/**": unknown key "strict-context"`},
		{"retry-funcs: [notafunc]\n", `idemlint.yml:1:15: retry-funcs: "notafunc" is not a full function name`},
		{"strict-context: maybe\n", `idemlint.yml:1:17: strict-context: want true or false`},
		{"checks: all\n", `idemlint.yml:1:9: checks: want a list`},
		{"- a\n", `idemlint.yml:1:1: want a mapping`},
		{"checks: [all]\nchecks: [-all]\n", `idemlint.yml:2:1: checks: set twice`},
		{"checks: [\n", `idemlint.yml: yaml:`},
	} {
		_, err := analyzers.ParseFile("idemlint.yml", []byte(c.src))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %s…", c.src, err, c.want)
		}
	}
}

func writeConfig(t *testing.T, dir, name, src string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestConfigChain checks the files are found by walking up, applied outer
// first, with per-path overrides, and that suite settings come from the
// files above the run's directory only.
func TestConfigChain(t *testing.T) {
	root := t.TempDir()
	writeConfig(t, root, "idemlint.yml", "checks: [all, -nojitter]\nretry-funcs: [example.com/p.Retry]\nstrict-context: true\n"+
		"paths:\n  \"internal/gen/**\": {checks: [-all]}\n  \"**/*_test.go\": {checks: [-unkeyedpost]}\n")
	writeConfig(t, filepath.Join(root, "svc"), ".idemlint.yml", "checks: [nojitter]\n")
	writeConfig(t, filepath.Join(root, "lib"), "idemlint.yml", "key-headers: [X-Key]\n")
	files := analyzers.NewFiles()

	enabled := func(check, file string) bool {
		t.Helper()
		chain, err := files.Chain(filepath.Dir(filepath.Join(root, file)))
		if err != nil {
			t.Fatal(err)
		}
		return analyzers.Enabled(chain, check, filepath.Join(root, file))
	}
	for _, c := range []struct {
		check, file string
		want        bool
	}{
		{"nojitter", "a/a.go", false},
		{"unboundedretry", "a/a.go", true},
		{"nojitter", "svc/s.go", true},                   // the inner file turns it back on
		{"unboundedretry", "internal/gen/x/g.go", false}, // -all under internal/gen
		{"unboundedretry", "internal/generated.go", true},
		{"unkeyedpost", "svc/s_test.go", false},
		{"unkeyedpost", "svc/s.go", true},
	} {
		if got := enabled(c.check, c.file); got != c.want {
			t.Errorf("%s in %s: enabled %v, want %v", c.check, c.file, got, c.want)
		}
	}

	suite, err := files.Chain(root)
	if err != nil {
		t.Fatal(err)
	}
	var cfg analyzers.Config
	analyzers.ApplySuite(&cfg, suite)
	if !cfg.StrictContext || !slices.Equal(cfg.RetryFuncs, []string{"example.com/p.Retry"}) {
		t.Errorf("suite settings: %+v", cfg)
	}
	lib, err := files.Chain(filepath.Join(root, "lib"))
	if err != nil {
		t.Fatal(err)
	}
	if err := analyzers.CheckSuite(lib, suite); err == nil || !strings.Contains(err.Error(), filepath.Join(root, "lib", "idemlint.yml")+":1: key-headers: suite settings apply to the whole run") {
		t.Errorf("a suite setting below the run's directory: %v", err)
	}
	svc, _ := files.Chain(filepath.Join(root, "svc"))
	if err := analyzers.CheckSuite(svc, suite); err != nil {
		t.Errorf("checks below the run's directory: %v", err)
	}
}
