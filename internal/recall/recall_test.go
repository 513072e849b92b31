package recall

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/idemlint/idemlint/internal/corpus"
)

var update = flag.Bool("update", false, "rewrite testdata/recall/found.txt (the baseline) from this run")

const dir = "../../testdata/recall"

func read(t *testing.T, name string) []byte {
	t.Helper()
	return corpus.ReadFile(t, dir, name)
}

func load(t *testing.T) ([]corpus.Module, []Entry) {
	t.Helper()
	mods, err := corpus.ParseModules(read(t, "modules.txt"))
	if err != nil {
		t.Fatalf("modules.txt: %v", err)
	}
	entries, err := Parse(read(t, "bugs.txt"))
	if err != nil {
		t.Fatalf("bugs.txt: %v", err)
	}
	return mods, entries
}

// TestLabels checks bugs.txt against modules.txt without fetching anything:
// every entry's module is pinned at its version and its package analyzed.
func TestLabels(t *testing.T) {
	mods, entries := load(t)
	for _, e := range entries {
		i := slices.IndexFunc(mods, func(m corpus.Module) bool { return m.Path == e.Module })
		if i < 0 {
			t.Errorf("bugs.txt:%d: %s: module %s not in modules.txt", e.Line, e.ID, e.Module)
			continue
		}
		m := mods[i]
		if m.Version != e.Version {
			t.Errorf("bugs.txt:%d: %s: %s@%s, but modules.txt pins %s", e.Line, e.ID, e.Module, e.Version, m.Version)
		}
		if !covers(m.ImportPatterns(), e.Package) {
			t.Errorf("bugs.txt:%d: %s: package %s is not among the patterns of %s in modules.txt", e.Line, e.ID, e.Package, e.Module)
		}
	}
	bugs, looks := 0, 0
	for _, e := range entries {
		if e.Lookalike {
			looks++
		} else {
			bugs++
		}
	}
	if bugs < 40 || looks < 20 {
		t.Errorf("bugs.txt has %d bugs and %d look-alikes, want at least 40 and 20", bugs, looks)
	}
	base, err := ParseBaseline(read(t, "found.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range base.Found {
		if !slices.ContainsFunc(entries, func(e Entry) bool { return e.ID == id && !e.Lookalike }) {
			t.Errorf("found.txt: found %s is no bug of bugs.txt", id)
		}
	}
	for _, id := range base.False {
		if !slices.ContainsFunc(entries, func(e Entry) bool { return e.ID == id && e.Lookalike }) {
			t.Errorf("found.txt: false %s is no look-alike of bugs.txt", id)
		}
	}
}

func covers(patterns []string, pkg string) bool {
	for _, p := range patterns {
		if p == pkg {
			return true
		}
		if base, ok := strings.CutSuffix(p, "/..."); ok && (pkg == base || strings.HasPrefix(pkg, base+"/")) {
			return true
		}
	}
	return false
}

// TestRecall fetches the modules (through the module proxy, into the module
// cache), runs idemlint over their packages, and reports recall per check.
// It fails when a bug of found.txt is no longer found, or when a look-alike
// range gets a finding of its checks. -update rewrites found.txt.
func TestRecall(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches the recall corpus and runs idemlint over it")
	}
	mods, entries := load(t)
	bin, err := corpus.Binary(t.TempDir(), "go")
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	if err := corpus.Prepare(work, "go", mods); err != nil {
		t.Fatal(err)
	}
	modcache, err := corpus.ModCache(work, "go")
	if err != nil {
		t.Fatal(err)
	}
	// Every labelled range lies in a file of the pinned module.
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(corpus.ModuleDir(modcache, e.Module, e.Version), filepath.FromSlash(e.File)))
		if err != nil {
			t.Errorf("bugs.txt:%d: %s: %v", e.Line, e.ID, err)
			continue
		}
		if n := bytes.Count(data, []byte("\n")) + 1; e.To > n {
			t.Errorf("bugs.txt:%d: %s: range %d-%d past the end of %s (%d lines)", e.Line, e.ID, e.From, e.To, e.File, n)
		}
	}
	findings, err := corpus.Run(bin, work, "go", mods)
	if err != nil {
		t.Fatal(err)
	}
	r := Match(entries, findings)
	t.Logf("recall over testdata/recall (%d modules, %d findings):\n%s", len(mods), len(findings), Table(entries, r))
	var missed []string
	for _, e := range entries {
		if !e.Lookalike && len(r.Found[e.ID]) == 0 {
			missed = append(missed, e.Checks[0]+"\t"+e.ID+"\t"+e.Reason)
		}
	}
	slices.Sort(missed)
	t.Logf("missed bugs (%d):\n%s", len(missed), strings.Join(missed, "\n"))
	for _, f := range r.Unmatched {
		t.Logf("finding in no labelled range (label it: bug or look-alike): %s", f)
	}
	if *update {
		if err := os.WriteFile(filepath.Join(dir, "found.txt"), FormatBaseline(entries, r), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	base, err := ParseBaseline(read(t, "found.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		for _, f := range r.False[e.ID] {
			if slices.Contains(base.False, e.ID) {
				t.Logf("known false finding in look-alike %s (bugs.txt:%d, %s), a precision bug to fix: %s", e.ID, e.Line, e.Reason, f)
			} else {
				t.Errorf("look-alike %s (bugs.txt:%d, %s): false finding %s", e.ID, e.Line, e.Reason, f)
			}
		}
	}
	for _, id := range base.False {
		if len(r.False[id]) == 0 {
			t.Logf("look-alike %s has no false finding any more: run go test ./internal/recall -run TestRecall -update", id)
		}
	}
	for _, id := range base.Found {
		if len(r.Found[id]) == 0 {
			t.Errorf("%s is in found.txt but no longer found", id)
		}
	}
	for _, e := range entries {
		if !e.Lookalike && len(r.Found[e.ID]) > 0 && !slices.Contains(base.Found, e.ID) {
			t.Logf("newly found: %s (%s): run go test ./internal/recall -run TestRecall -update", e.ID, r.Found[e.ID][0])
		}
	}
}

func TestParse(t *testing.T) {
	good := "# c\n" +
		"b1\tbug\tgithub.com/IBM/sarama@v1.61.1\tgithub.com/IBM/sarama\tclient.go\t10-20\tnojitter\tconstant wait\n" +
		"l1\tlookalike\tgithub.com/IBM/sarama@v1.61.1\tgithub.com/IBM/sarama\tclient.go\t30-40\t*\tjittered\n" +
		"l2\tlookalike\tgithub.com/IBM/sarama@v1.61.1\tgithub.com/IBM/sarama\tclient.go\t50-50\tnojitter,unboundedretry\tcapped\n"
	es, err := Parse([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 3 || es[0].Lookalike || !es[1].Lookalike || len(es[1].Checks) != len(Checks) || len(es[2].Checks) != 2 {
		t.Fatalf("Parse = %+v", es)
	}
	fs := []corpus.Finding{
		{Pos: "github.com/!i!b!m/sarama@v1.61.1/client.go:15:3", Check: "nojitter"},
		{Pos: "github.com/!i!b!m/sarama@v1.61.1/client.go:15:3", Check: "unboundedretry"},
		{Pos: "github.com/!i!b!m/sarama@v1.61.1/client.go:35:3", Check: "keyinloop"},
		{Pos: "github.com/!i!b!m/sarama@v1.61.0/client.go:50:1", Check: "nojitter"},
	}
	r := Match(es, fs)
	if len(r.Found["b1"]) != 1 || len(r.False["l1"]) != 1 || len(r.False["l2"]) != 0 || len(r.Unmatched) != 2 {
		t.Errorf("Match = %+v", r)
	}
	tab := Table(es, r)
	if !strings.Contains(tab, "nojitter                1      1    100%") || !strings.Contains(tab, "with a false finding: 1") {
		t.Errorf("Table =\n%s", tab)
	}
	if got, err := ParseBaseline(FormatBaseline(es, r)); err != nil || !slices.Equal(got.Found, []string{"b1"}) || !slices.Equal(got.False, []string{"l1"}) {
		t.Errorf("baseline round trip = %+v, %v", got, err)
	}
	// keyprop (second hops) is a check of the corpus like the others.
	if kp, err := Parse([]byte("k1\tbug\tm@v1\tm\tf.go\t1-2\tkeyprop\tno key downstream\n")); err != nil || len(kp) != 1 || kp[0].Checks[0] != "keyprop" {
		t.Errorf("Parse of a keyprop bug = %+v, %v", kp, err)
	}
	if !strings.Contains(Table(es, r), "keyprop") {
		t.Errorf("Table has no keyprop row:\n%s", Table(es, r))
	}
	if _, err := ParseBaseline([]byte("b1\n")); err == nil {
		t.Error("ParseBaseline of a bare id: nil error")
	}
	for _, bad := range []string{
		"b1\tbug\tm@v1\tm\tf.go\t1-2\tnojitter\n",                                              // 7 fields
		"b1\tmaybe\tm@v1\tm\tf.go\t1-2\tnojitter\tr\n",                                         // kind
		"b1\tbug\tm\tm\tf.go\t1-2\tnojitter\tr\n",                                              // no version
		"b1\tbug\tm@v1\tother\tf.go\t1-2\tnojitter\tr\n",                                       // package outside the module
		"b1\tbug\tm@v1\tm\tf.go\t5-2\tnojitter\tr\n",                                           // range
		"b1\tbug\tm@v1\tm\tf.go\t1-2\tnosuch\tr\n",                                             // check
		"b1\tbug\tm@v1\tm\tf.go\t1-2\tnojitter,keyinloop\tr\n",                                 // two rules
		"b1\tbug\tm@v1\tm\tf.go\t1-2\tnojitter\t \n",                                           // reason
		"b1\tbug\tm@v1\tm\tf.go\t1-2\tnojitter\tr\nb1\tbug\tm@v1\tm\tf.go\t1-2\tnojitter\tr\n", // id twice
	} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%q) = nil error", bad)
		}
	}
}
