package main

import (
	"slices"
	"testing"
)

var n = normalizer{dir: "/w/corpus", strip: []string{"/m/pkg/mod", "/goroot/src/"}}

func TestParseTextAndVetAgree(t *testing.T) {
	text := "/m/pkg/mod/example.com/a@v1.0.0/b.go:12:3: retry loop has no cap: add one (unboundedretry)\n" +
		"/m/pkg/mod/example.com/a@v1.0.0/b.go:10:2: \tthe outer layer: a retry loop (3 attempts)\n" +
		"/goroot/src/net/http/client.go:7:1: nojitter-like message: with colons (and parentheses): inside (nojitter)\n"
	vet := "# example.com/a\n" +
		"/m/pkg/mod/example.com/a@v1.0.0/b.go:12:3: retry loop has no cap: add one (unboundedretry)\n" +
		"/m/pkg/mod/example.com/a@v1.0.0/b.go:10:2: \tthe outer layer: a retry loop (3 attempts)\n" +
		"# net/http\n" +
		"../../goroot/src/net/http/client.go:7:1: nojitter-like message: with colons (and parentheses): inside (nojitter)\n"
	want := []string{
		"example.com/a@v1.0.0/b.go:12:3: retry loop has no cap: add one",
		"net/http/client.go:7:1: nojitter-like message: with colons (and parentheses): inside",
	}
	for _, tc := range []struct {
		format, data string
	}{{"text", text}, {"vet", vet}} {
		got, errs, err := n.parse(tc.format, []byte(tc.data))
		if err != nil || len(errs) > 0 {
			t.Fatalf("%s: errs %q, err %v", tc.format, errs, err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", tc.format, got, want)
		}
	}
}

func TestParseTextErrors(t *testing.T) {
	out := "a.go:1:2: a finding\n" +
		"idemlint: nestedretry: internal error: boom\n" +
		"panic: runtime error: index out of range [3] with length 3\n" +
		"# example.com/a\n"
	got, errs, err := n.parse("text", []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"/w/corpus/a.go:1:2: a finding"}; !slices.Equal(got, want) {
		t.Errorf("findings: got %q, want %q", got, want)
	}
	// A "# " line is a header only in go vet's output.
	if len(errs) != 3 || errs[1] != "panic: runtime error: index out of range [3] with length 3" {
		t.Errorf("errors: got %q", errs)
	}
	_, errs, _ = n.parse("vet", []byte(out))
	if len(errs) != 2 {
		t.Errorf("vet errors: got %q, want the analyzer error and the panic", errs)
	}
}

func TestParseGolangci(t *testing.T) {
	data := `{"Issues":[
{"FromLinter":"idemlint","Text":"unboundedretry: retry loop has no cap: add one","Pos":{"Filename":"/m/pkg/mod/example.com/a@v1.0.0/b.go","Line":12,"Column":3}},
{"FromLinter":"idemlint","Text":"nestedretry(related information): the inner retry","Pos":{"Filename":"/m/pkg/mod/example.com/a@v1.0.0/b.go","Line":20,"Column":1}},
{"FromLinter":"idemlint","Text":"nojitter: constant wait: no jitter","Pos":{"Filename":"b.go","Line":30,"Column":2}}
],"Report":{"Linters":[{"Name":"idemlint","Enabled":true}]}}
`
	got, errs, err := n.parse("golangci", []byte(data))
	if err != nil || len(errs) > 0 {
		t.Fatalf("errs %q, err %v", errs, err)
	}
	want := []string{
		"/w/corpus/b.go:30:2: constant wait: no jitter",
		"example.com/a@v1.0.0/b.go:12:3: retry loop has no cap: add one",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestParseGolangciErrors(t *testing.T) {
	data := `{"Issues":[
{"FromLinter":"typecheck","Text":"undefined: x","Pos":{"Filename":"/w/corpus/a.go","Line":1,"Column":2}}
],"Report":{"Warnings":[{"Tag":"runner","Text":"can't run linter idemlint: panic"}],"Error":"timeout exceeded"}}`
	got, errs, err := n.parse("golangci", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 || len(errs) != 3 {
		t.Errorf("got findings %q and errors %q, want none and 3", got, errs)
	}
	if _, _, err := n.parse("golangci", []byte(`{"Issues":[]}{"Issues":[]}`)); err == nil {
		t.Error("two JSON objects: no error")
	}
}
