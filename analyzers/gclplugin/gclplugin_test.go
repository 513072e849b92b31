package gclplugin_test

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"

	"github.com/idemlint/idemlint/analyzers"
	"github.com/idemlint/idemlint/analyzers/gclplugin"
)

// settings returns raw settings shaped the way golangci-lint hands them over:
// YAML decoded into maps and []any.
func settings(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func anyList(ss ...string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// built returns the names of the analyzers p builds.
func built(t *testing.T, p register.LinterPlugin) []string {
	t.Helper()
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range as {
		names = append(names, a.Name)
	}
	return names
}

func TestRegistered(t *testing.T) {
	newPlugin, err := register.GetPlugin("idemlint")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(nil)
	if err != nil {
		t.Fatalf("no settings: %v", err)
	}
	if got := p.GetLoadMode(); got != register.LoadModeTypesInfo {
		t.Errorf("GetLoadMode() = %q, want %q", got, register.LoadModeTypesInfo)
	}
}

func TestGoodSettings(t *testing.T) {
	p, err := gclplugin.New(settings(
		"disable", anyList(),
		"retry-funcs", anyList("example.com/retry.Do", "(*example.com/retry.Client).Do"),
		"key-generators", anyList("example.com/keys.New"),
		"key-headers", anyList("X-Request-Token"),
		"key-fields", anyList("DedupID"),
		"strict-context", true,
	))
	if err != nil {
		t.Fatal(err)
	}
	if names, want := built(t, p), analyzers.Checks(); !slices.Equal(names, want) {
		t.Errorf("analyzers = %v, want every check %v", names, want)
	}
}

// TestDisable disables each check in turn and checks that only it is gone.
func TestDisable(t *testing.T) {
	all := analyzers.Checks()
	for _, off := range all {
		p, err := gclplugin.New(settings("disable", anyList(off)))
		if err != nil {
			t.Fatalf("disable %s: %v", off, err)
		}
		names := built(t, p)
		want := slices.DeleteFunc(slices.Clone(all), func(n string) bool { return n == off })
		if !slices.Equal(names, want) {
			t.Errorf("disable %s: analyzers = %v, want %v", off, names, want)
		}
	}
}

func TestBadSettings(t *testing.T) {
	for _, tc := range []struct {
		name     string
		settings any
		want     []string // substrings of the error
	}{
		{
			name:     "unknown key",
			settings: settings("retry-func", anyList("example.com/retry.Do")),
			want:     []string{`idemlint settings: unknown key "retry-func"`, "valid keys: ", "retry-funcs", "strict-context"},
		},
		{
			name:     "unknown key next to good ones",
			settings: settings("strict-context", true, "StrictCtx", true),
			want:     []string{`unknown key "StrictCtx"`},
		},
		{
			name:     "number for a list",
			settings: settings("disable", 3),
			want:     []string{`idemlint settings: key "disable": got a number, want a list of strings`},
		},
		{
			name:     "string for a list",
			settings: settings("key-headers", "X-Request-Token"),
			want:     []string{`key "key-headers": got a string, want a list of strings`},
		},
		{
			name:     "number in a list",
			settings: settings("key-fields", []any{"DedupID", 7}),
			want:     []string{`key "key-fields": got a number in the list, want a string`},
		},
		{
			name:     "string for a boolean",
			settings: settings("strict-context", "yes"),
			want:     []string{`key "strict-context": got a string, want a boolean`},
		},
		{
			name:     "not a map",
			settings: anyList("disable"),
			want:     []string{"idemlint settings: got a list, want a map with the keys disable, retry-funcs"},
		},
		{
			name:     "unknown check",
			settings: settings("disable", anyList("nosuchcheck")),
			want:     []string{"idemlint settings: ", `disable: unknown check "nosuchcheck"`},
		},
		{
			name:     "malformed function name",
			settings: settings("retry-funcs", anyList("Retry")),
			want:     []string{"idemlint settings: ", `retry-funcs: "Retry"`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := gclplugin.New(tc.settings)
			if err == nil {
				t.Fatalf("New(%v) = %v, want an error", tc.settings, p)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// TestKeys checks that every analyzers.Config field is a setting and that
// the example configuration and the documentation show every setting.
func TestKeys(t *testing.T) {
	keys := gclplugin.Keys()
	if n := len(keys); n != countFields() {
		t.Errorf("Keys() = %v: %d keys for %d Config fields; give every field a json tag", keys, n, countFields())
	}
	root := filepath.Join("..", "..")
	example, err := os.ReadFile(filepath.Join(root, ".golangci.example.yml"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "golangci.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if !strings.Contains(string(example), "\n          "+k+":") {
			t.Errorf(".golangci.example.yml does not show setting %q under settings", k)
		}
		if !strings.Contains(string(doc), "| `"+k+"` |") {
			t.Errorf("docs/golangci.md has no settings table row for %q", k)
		}
	}
}

func countFields() int {
	n := 0
	for f := range reflect.TypeFor[analyzers.Config]().Fields() {
		if f.IsExported() {
			n++
		}
	}
	return n
}
