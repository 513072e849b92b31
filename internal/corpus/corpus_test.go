package corpus

import (
	"slices"
	"strings"
	"testing"
)

const dir = "../../testdata/corpus"

func read(t *testing.T, name string) []byte {
	t.Helper()
	return ReadFile(t, dir, name)
}

func reviewed(t *testing.T) []Reviewed {
	t.Helper()
	rs, err := ParseReviewed(read(t, "findings.txt"))
	if err != nil {
		t.Fatalf("findings.txt: %v", err)
	}
	return rs
}

func lines(data []byte) []string {
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// diff fails t with the findings in want but not got and in got but not want.
func diff(t *testing.T, what string, want, got []string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("%s: reviewed in findings.txt but not reported: %s", what, w)
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			t.Errorf("%s: reported but not reviewed in findings.txt: %s", what, g)
		}
	}
}

func TestModules(t *testing.T) {
	mods, err := ParseModules(read(t, "modules.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(mods) < 20 {
		t.Errorf("modules.txt lists %d modules, want at least 20", len(mods))
	}
}

// TestReviewed: every finding of the checked-in raw output (written by
// `make corpus`) has exactly one verdict in findings.txt, and nothing else
// does.
func TestReviewed(t *testing.T) {
	var got []string
	for _, r := range reviewed(t) {
		if slices.Contains(got, r.Finding) {
			t.Errorf("findings.txt:%d: reviewed twice: %s", r.Line, r.Finding)
		}
		got = append(got, r.Finding)
	}
	diff(t, "raw.txt", lines(read(t, "raw.txt")), got)
}

// TestCorpus runs the suite over the corpus again (fetching it through the
// module proxy when the module cache lacks it) and compares the findings
// with raw.txt and findings.txt: a change of the suite that changes a
// finding fails until `make corpus` is run and findings.txt reviewed again.
func TestCorpus(t *testing.T) {
	mods, err := ParseModules(read(t, "modules.txt"))
	if err != nil {
		t.Fatal(err)
	}
	bin := idemlintBinary(t)
	work := t.TempDir()
	if err := Prepare(work, "go", mods); err != nil {
		t.Fatal(err)
	}
	found, err := Run(bin, work, "go", mods)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range found {
		got = append(got, f.String())
	}
	diff(t, "corpus", lines(read(t, "raw.txt")), got)
	var rev []string
	for _, r := range reviewed(t) {
		rev = append(rev, r.Finding)
	}
	diff(t, "corpus", rev, got)
}

func idemlintBinary(t *testing.T) string {
	t.Helper()
	bin, err := Binary(t.TempDir(), "go")
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

func TestParseReviewed(t *testing.T) {
	good := "# comment\na@v1/f.go:1:2: unboundedretry: msg: more\n\ttrue: a reason\n\nb@v1/g.go:3:4: nojitter: m\n\tfalse: why not\n"
	rs, err := ParseReviewed([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 || !rs[0].True || rs[1].True || rs[1].Reason != "why not" {
		t.Fatalf("ParseReviewed = %+v", rs)
	}
	if c := CheckOf(rs[0].Finding); c != "unboundedretry" {
		t.Errorf("CheckOf = %q, want unboundedretry", c)
	}
	p := Precision(rs)
	if len(p) != 2 || !strings.Contains(p[0], "0 true /   1") || !strings.Contains(p[1], "1 true /   1") {
		t.Errorf("Precision = %q", p)
	}
	for _, bad := range []string{
		"a@v1/f.go:1:2: c: m\n",                                 // no verdict
		"a@v1/f.go:1:2: c: m\n\tmaybe: x\n",                     // bad verdict
		"a@v1/f.go:1:2: c: m\n\ttrue:\n",                        // no reason
		"\ttrue: orphan\n",                                      // no finding
		"a@v1/f.go:1:2: c: m\nb@v1/g.go:1:1: c: m\n\ttrue: x\n", // first has none
	} {
		if _, err := ParseReviewed([]byte(bad)); err == nil {
			t.Errorf("ParseReviewed(%q) = nil error", bad)
		}
	}
}

func TestParseModules(t *testing.T) {
	mods, err := ParseModules([]byte("# c\nexample.com/m@v1.2.3 . ./x/...\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := mods[0].ImportPatterns(); !slices.Equal(got, []string{"example.com/m", "example.com/m/x/..."}) {
		t.Errorf("ImportPatterns = %q", got)
	}
	for _, bad := range []string{"example.com/m .\n", "example.com/m@v1\n", "example.com/m@v1 x\n", "a@v1 .\na@v2 .\n"} {
		if _, err := ParseModules([]byte(bad)); err == nil {
			t.Errorf("ParseModules(%q) = nil error", bad)
		}
	}
}

func TestParseJSON(t *testing.T) {
	data := `{"p": {"nojitter": [{"posn": "/mc/a@v1/f.go:3:4", "message": "m"}], "unboundedretry": [{"posn": "/mc/a@v1/f.go:10:1", "message": "n"}, {"posn": "/mc/a@v1/f.go:9:1", "message": "n"}]}}
{"q": {}}`
	fs, err := parseJSON([]byte(data), func(p string) string { return relPos(p, "/mc") })
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a@v1/f.go:3:4: nojitter: m", "a@v1/f.go:9:1: unboundedretry: n", "a@v1/f.go:10:1: unboundedretry: n"}
	var got []string
	for _, f := range fs {
		got = append(got, f.String())
	}
	if !slices.Equal(got, want) {
		t.Errorf("parseJSON = %q, want %q", got, want)
	}
	if _, err := parseJSON([]byte(`{"p": {"nojitter": {"error": "boom"}}}`), func(p string) string { return relPos(p, "/mc") }); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("parseJSON of an analyzer error = %v", err)
	}
}

func TestLocation(t *testing.T) {
	f := Finding{Pos: "github.com/!i!b!m/sarama@v1.61.1/internal/x/client.go:1291:5"}
	mod, ver, file, line, ok := f.Location()
	if !ok || mod != "github.com/IBM/sarama" || ver != "v1.61.1" || file != "internal/x/client.go" || line != 1291 {
		t.Errorf("Location = %q %q %q %d %v", mod, ver, file, line, ok)
	}
	if _, _, _, _, ok := (Finding{Pos: "/usr/lib/go/src/os/file.go:3:4"}).Location(); ok {
		t.Error("Location of a position outside the module cache: ok")
	}
}

func TestModuleDir(t *testing.T) {
	if got := ModuleDir("/mc", "github.com/IBM/sarama", "v1.61.1"); got != "/mc/github.com/!i!b!m/sarama@v1.61.1" {
		t.Errorf("ModuleDir = %q", got)
	}
}
