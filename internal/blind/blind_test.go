package blind

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/idemlint/idemlint/internal/corpus"
	"github.com/idemlint/idemlint/internal/recall"
)

const commit = "0123456789abcdef0123456789abcdef01234567"

func TestParse(t *testing.T) {
	good := "# c\n" +
		"b1\tbug\tacme/shop@" + commit + "\tinternal/pay\tinternal/pay/charge.go\t10-20\tkeyinloop\tfresh key per attempt\n" +
		"l1\tlookalike\tacme/shop@" + commit + "\t.\tmain.go\t30-40\t*\tjittered and capped\n"
	es, err := Parse([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 2 || es[0].Module != "acme/shop" || es[0].Version != commit || es[0].Package != "internal/pay" || !es[1].Lookalike || len(es[1].Checks) != len(recall.Checks) {
		t.Fatalf("Parse = %+v", es)
	}
	fs := []corpus.Finding{
		{Pos: "acme/shop@" + commit + "/internal/pay/charge.go:15:2", Check: "keyinloop"},
		{Pos: "acme/shop@" + commit + "/internal/pay/charge.go:15:2", Check: "nojitter"},
		{Pos: "acme/shop@" + commit + "/main.go:31:1", Check: "nestedretry"},
		{Pos: "acme/shop@" + strings.Repeat("f", 40) + "/main.go:31:1", Check: "nestedretry"},
	}
	r := recall.Match(es, fs)
	if len(r.Found["b1"]) != 1 || len(r.False["l1"]) != 1 || len(r.Unmatched) != 2 {
		t.Errorf("Match = %+v", r)
	}
	for _, bad := range []string{
		"b1\tbug\tacme/shop@v1.2.3\t.\tmain.go\t1-2\tnojitter\tr\n",                         // a version, not a commit
		"b1\tbug\tacme/shop@" + commit[:12] + "\t.\tmain.go\t1-2\tnojitter\tr\n",            // short commit
		"b1\tbug\tacme@" + commit + "\t.\tmain.go\t1-2\tnojitter\tr\n",                      // no repo name
		"b1\tbug\tgithub.com/acme/shop@" + commit + "\t.\tmain.go\t1-2\tnojitter\tr\n",      // a module path
		"b1\tbug\tacme/shop@" + commit + "\t../x\tx/main.go\t1-2\tnojitter\tr\n",            // outside the repository
		"b1\tbug\tacme/shop@" + commit + "\tcmd/\tcmd/main.go\t1-2\tnojitter\tr\n",          // not clean
		"b1\tbug\tacme/shop@" + commit + "\tcmd\tinternal/main.go\t1-2\tnojitter\tr\n",      // file outside the package dir
		"b1\tbug\tacme/shop@" + commit + "\tcmd\tcmd/main.go\t1-2\tnojitter,keyinloop\tr\n", // two rules
	} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%q) = nil error", bad)
		}
	}
	if got := Repos(es); len(got) != 1 || !slices.Equal(got[0].Packages, []string{"internal/pay", "."}) {
		t.Errorf("Repos = %+v", got)
	}
}

func TestRel(t *testing.T) {
	rel := Rel("/tmp/x/acme+shop-1", Repo{Repo: "acme/shop", Commit: commit})
	if got, want := rel("/tmp/x/acme+shop-1/sub/a.go:3:4"), "acme/shop@"+commit+"/sub/a.go:3:4"; got != want {
		t.Errorf("rel = %q, want %q", got, want)
	}
	if got := rel("/root/go/pkg/mod/x@v1/a.go:3:4"); got != "/root/go/pkg/mod/x@v1/a.go:3:4" {
		t.Errorf("rel of a dependency = %q", got)
	}
}

// TestExport exports a commit of a throwaway repository laid out as the
// fetch tool lays out its mirrors, and finds the module of a nested go.mod.
func TestExport(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	src, mirrors := t.TempDir(), t.TempDir()
	gitCmd := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(src, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitCmd(src, "init", "-q")
	write("go.mod", "module acme.test/shop\n")
	write("tools/go.mod", "module acme.test/tools\n")
	write("tools/worker/w.go", "package worker\n\nfunc f() {}\n")
	write(".gitattributes", "tools/worker/w.go export-ignore\n")
	write("static/big.bin", "a file the snapshot lacks\n")
	gitCmd(src, "add", ".")
	gitCmd(src, "commit", "-q", "-m", "one")
	head := gitCmd(src, "rev-parse", "HEAD")
	gitCmd(mirrors, "clone", "-q", "--bare", src, filepath.Join("acme+shop", "repo"))
	// The fetch tool's snapshots lack files of 4 MiB and more: remove one
	// blob from the mirror (a local clone keeps loose objects).
	big := gitCmd(src, "rev-parse", "HEAD:static/big.bin")
	if err := os.Remove(filepath.Join(mirrors, "acme+shop", "repo", "objects", big[:2], big[2:])); err != nil {
		t.Fatal(err)
	}

	r := Repo{Repo: "acme/shop", Commit: head, Packages: []string{"tools/worker"}}
	dst := t.TempDir()
	skipped, err := Export(mirrors, r, dst)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(skipped, []string{"static/big.bin"}) {
		t.Errorf("Export skipped %q, want the blob missing from the mirror", skipped)
	}
	// export-ignore does not drop files, as git archive would.
	if data, err := os.ReadFile(filepath.Join(dst, "tools/worker/w.go")); err != nil || !strings.Contains(string(data), "func f") {
		t.Errorf("exported w.go: %q, %v", data, err)
	}
	if data, err := os.ReadFile(filepath.Join(dst, "go.mod")); err != nil || string(data) != "module acme.test/shop\n" {
		t.Errorf("exported go.mod: %q, %v", data, err)
	}
	if m, err := ModuleOf(dst, "tools/worker"); err != nil || m != filepath.Join(dst, "tools") {
		t.Errorf("ModuleOf = %q, %v; want the nested module", m, err)
	}
	l := Labels{Entries: []recall.Entry{{ID: "b", Module: "acme/shop", Version: head, File: "tools/worker/w.go", From: 1, To: 9, Line: 1}}, Source: []string{"bugs-x.txt"}}
	if errs := CheckRanges(l, r, dst); len(errs) != 1 || !strings.Contains(errs[0].Error(), "past the end") {
		t.Errorf("CheckRanges = %v, want one range past the end", errs)
	}
	_, err = Export(mirrors, Repo{Repo: "acme/other", Commit: head}, t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "fetch github:acme/other") {
		t.Errorf("Export of a missing mirror = %v, want an error naming the repository to fetch", err)
	}
	_, err = Export(mirrors, Repo{Repo: "acme/shop", Commit: strings.Repeat("1", 40)}, t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "not in the mirror") {
		t.Errorf("Export of a missing commit = %v", err)
	}
}

// TestUseWorkspace gives a module of a go.work its siblings as replace
// directives, keeping the ones it has.
func TestUseWorkspace(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"src/go.work":       "go 1.25.0\n\nuse (\n\t./app\n\t./log\n\t./events\n\t./gone\n)\n",
		"src/app/go.mod":    "module example.com/q/app\n\ngo 1.25.0\n\nreplace example.com/q/events => ../events\n",
		"src/log/go.mod":    "module example.com/q/log\n\ngo 1.25.0\n",
		"src/events/go.mod": "module example.com/q/events\n\ngo 1.25.0\n",
		"other/lone/go.mod": "module example.com/lone\n\ngo 1.25.0\n",
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	added, err := UseWorkspace(root, filepath.Join(root, "src", "app"))
	if err != nil || !slices.Equal(added, []string{"example.com/q/log"}) {
		t.Fatalf("UseWorkspace = %q, %v; want the one sibling not replaced yet", added, err)
	}
	data, _ := os.ReadFile(filepath.Join(root, "src", "app", "go.mod"))
	if !strings.Contains(string(data), "example.com/q/log => ../log") || !strings.Contains(string(data), "example.com/q/events => ../events") {
		t.Errorf("go.mod after UseWorkspace:\n%s", data)
	}
	if added, err := UseWorkspace(root, filepath.Join(root, "other", "lone")); err != nil || added != nil {
		t.Errorf("UseWorkspace of a module in no workspace = %q, %v", added, err)
	}
	lone := filepath.Join(root, "other", "lone")
	if Vendored(lone) {
		t.Error("Vendored of a module with no vendor directory")
	}
	if err := os.MkdirAll(filepath.Join(lone, "vendor"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(lone, "vendor", "modules.txt"), []byte("# example.com/x v1.0.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !Vendored(lone) {
		t.Error("Vendored of a module with vendor/modules.txt")
	}
}

// TestRefused reads the go command's report of a module the proxy refuses,
// which Download drops from the exported go.mod.
func TestRefused(t *testing.T) {
	out := "go: downloading example.com/a v1.0.0\ngo: drjosh.dev/assertzapper@v0.3.2: reading https://proxy.golang.org/drjosh.dev/assertzapper/@v/v0.3.2.mod: 403 Forbidden\n"
	m := refused.FindStringSubmatch(out)
	if m == nil || m[1] != "drjosh.dev/assertzapper" || m[2] != "v0.3.2" {
		t.Errorf("refused = %q", m)
	}
	if refused.MatchString("go: example.com/a@v1.0.0: verifying module: checksum mismatch") {
		t.Error("a checksum mismatch read as a refused module")
	}
}

// TestLabels parses every bugs-*.txt of testdata/blind and checks found.txt
// against them, without the mirrors.
func TestLabels(t *testing.T) {
	l, err := Load("../../testdata/blind")
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Entries) == 0 {
		t.Fatal("no labels")
	}
	data, err := os.ReadFile("../../testdata/blind/found.txt")
	if os.IsNotExist(err) {
		return // not run yet
	}
	if err != nil {
		t.Fatal(err)
	}
	base, err := recall.ParseBaseline(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range base.Found {
		if !slices.ContainsFunc(l.Entries, func(e recall.Entry) bool { return e.ID == id && !e.Lookalike }) {
			t.Errorf("found.txt: found %s is no bug of bugs-*.txt", id)
		}
	}
	for _, id := range base.False {
		if !slices.ContainsFunc(l.Entries, func(e recall.Entry) bool { return e.ID == id && e.Lookalike }) {
			t.Errorf("found.txt: false %s is no look-alike of bugs-*.txt", id)
		}
	}
}
