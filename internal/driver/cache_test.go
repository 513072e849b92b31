package driver

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/idemlint/idemlint/analyzers"
)

// TestDependencyCache checks that a second run reads every dependency's
// outcome from the cache and prints what the first printed; that a
// dependency whose file changed is analysed again, with its importers,
// and the others are not; that an entry that does not decode is a miss;
// and that the prefilters' check mode does not use the cache.
func TestDependencyCache(t *testing.T) {
	// job calls, in a retry loop, a dependency (pay) that retries a
	// dependency of its own (lib): the finding needs the facts of both.
	dir := crossPkg(t)
	t.Chdir(dir)
	t.Setenv(CacheEnv, t.TempDir())
	var cfg analyzers.Config
	suite := analyzers.New(&cfg)
	run := func(mode prefilterMode) (*graph, *depCache, string) {
		t.Helper()
		cache, where := openCache(suite, nil)
		if cache == nil {
			t.Fatalf("no cache: %s", where)
		}
		initial, err := load([]string{"./job"}, false)
		if err != nil {
			t.Fatalf("load: %v", err)
		}
		g := analyze(suite, initial, 2, nil, mode, cache)
		var out bytes.Buffer
		if printErrors(&out, initial) > 0 {
			t.Fatalf("package errors:\n%s", out.String())
		}
		if err := g.printText(&out, -1); err != nil {
			t.Fatal(err)
		}
		return g, cache, out.String()
	}
	const want = "job/job.go:18:15: pay.Pay reaches retry loop (3 attempts) inside a retry, up to 3×3×4 = 36 calls"
	deps := []string{"example.com/crosspkg/lib", "example.com/crosspkg/pay", "example.com/crosspkg/plain", "example.com/crosspkg/via"}

	g, cache, first := run(prefilterOn)
	if !strings.Contains(first, want) {
		t.Fatalf("output lacks %q:\n%s", want, first)
	}
	if len(g.cached) != 0 || cache.writes.Load() < int64(len(deps)) {
		t.Errorf("first run: cached %v, %s; want none cached and every dependency written", g.cached, cache)
	}
	if !slices.Contains(g.skipped, "example.com/crosspkg/plain") || !slices.Contains(g.withFacts, "example.com/crosspkg/lib") ||
		!slices.Contains(g.withFacts, "example.com/crosspkg/pay") {
		t.Errorf("first run: skipped %v, with facts %v; want plain skipped, lib and pay with facts", g.skipped, g.withFacts)
	}

	g2, cache, second := run(prefilterOn)
	if second != first {
		t.Errorf("the cached run prints otherwise:\nfirst:\n%s\nsecond:\n%s", first, second)
	}
	for _, d := range deps {
		if !slices.Contains(g2.cached, d) {
			t.Errorf("second run: %s not read from the cache (cached %v)", d, g2.cached)
		}
	}
	if !slices.Equal(g2.skipped, g.skipped) || !slices.Equal(g2.withFacts, g.withFacts) {
		t.Errorf("second run: skipped %v, with facts %v; first: %v, %v", g2.skipped, g2.withFacts, g.skipped, g.withFacts)
	}
	if cache.writes.Load() != 0 {
		t.Errorf("second run wrote: %s", cache)
	}

	// lib changes (its loop makes 5 attempts now), keeping its size and
	// its modification time: lib and pay and via, which import it, are
	// analysed again; plain is not.
	name := filepath.Join(dir, "lib/lib.go")
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(src, []byte("range 4")) {
		t.Fatalf("%s makes no 4 attempts:\n%s", name, src)
	}
	if err := os.WriteFile(name, bytes.Replace(src, []byte("range 4"), []byte("range 5"), 1), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(name, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	g3, _, third := run(prefilterOn)
	own := slices.DeleteFunc(slices.Clone(g3.cached), func(id string) bool { return !strings.HasPrefix(id, "example.com/") })
	if !slices.Equal(own, []string{"example.com/crosspkg/plain"}) || !slices.Contains(g3.cached, "time") {
		t.Errorf("after lib changed: cached %v, want example.com/crosspkg/plain of the module's and the standard library's", g3.cached)
	}
	if !strings.Contains(third, strings.Replace(want, "3×3×4 = 36", "3×3×5 = 45", 1)) {
		t.Errorf("after lib changed, want the finding with lib's new cap:\n%s", third)
	}

	// Entries that do not decode are misses.
	filepath.WalkDir(cache.dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Base(path) != "trim.txt" {
			os.WriteFile(path, []byte("not gob"), 0o666)
		}
		return nil
	})
	g4, cache, fourth := run(prefilterOn)
	if len(g4.cached) != 0 || cache.misses.Load() == 0 || fourth != third {
		t.Errorf("corrupt entries: cached %v, %s; output:\n%s\nwant:\n%s", g4.cached, cache, fourth, third)
	}

	// Check mode analyses every dependency, whatever the cache holds.
	g5, cache, fifth := run(prefilterCheck)
	if len(g5.cached) != 0 || cache.hits.Load()+cache.misses.Load() != 0 || fifth != third {
		t.Errorf("check mode: cached %v, %s; output:\n%s", g5.cached, cache, fifth)
	}
}

// TestCacheSettings checks that the cache's salt changes with an analyzer
// setting and with the analyzers run, and that CacheEnv=off turns it off.
func TestCacheSettings(t *testing.T) {
	t.Setenv(CacheEnv, t.TempDir())
	var cfg analyzers.Config
	suite := analyzers.New(&cfg)
	base, _ := openCache(suite, nil)
	other, _ := openCache(suite, []string{"key-headers=X-Request-Id"})
	fewer, _ := openCache(suite[:1], nil)
	if base == nil || other == nil || fewer == nil {
		t.Fatal("no cache")
	}
	if base.salt == other.salt || base.salt == fewer.salt {
		t.Error("the salt does not change with the settings or the analyzers")
	}
	o, ok := parseFlags([]string{"-key-headers=X-Request-Id", "-json", "./..."}, suite, cfg.Bind)
	if !ok || !slices.Contains(o.settings, "key-headers=X-Request-Id") || slices.ContainsFunc(o.settings, func(s string) bool {
		return strings.HasPrefix(s, "json=")
	}) {
		t.Errorf("settings %q: want key-headers and no json", o.settings)
	}
	// A setting from idemlint.yml is in the flags' values too.
	fromFile := analyzers.Config{RetryFuncs: []string{"example.com/p.Do"}}
	if o, ok := parseFlags([]string{"./..."}, analyzers.New(&fromFile), fromFile.Bind); !ok {
		t.Error("valid command line rejected")
	} else if !slices.Contains(o.settings, "retry-funcs=example.com/p.Do") {
		t.Errorf("a configured retry function is not among the settings: %q", o.settings)
	}
	t.Setenv(CacheEnv, "off")
	if c, why := openCache(suite, nil); c != nil || !strings.Contains(why, "off") {
		t.Errorf("%s=off: cache %v (%s)", CacheEnv, c, why)
	}
}

// TestFileStamp checks that a file outside the module cache and the Go
// tree is known by its contents, and one inside them by its size and time.
func TestFileStamp(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.go")
	write := func(src string) os.FileInfo {
		t.Helper()
		if err := os.WriteFile(name, []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	fi := write("package a // 1\n")
	before, _ := fileStamp(name, false)
	fixedBefore, _ := fileStamp(name, true)
	write("package a // 2\n")
	if err := os.Chtimes(name, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	after, _ := fileStamp(name, false)
	fixedAfter, _ := fileStamp(name, true)
	if before == after {
		t.Error("a rewritten file of the same size and time has the same stamp")
	}
	if fixedBefore != fixedAfter {
		t.Error("a fixed file's stamp is not its size and time")
	}
	if _, ok := fileStamp(filepath.Join(dir, "missing.go"), false); ok {
		t.Error("a missing file has a stamp")
	}
	if !under(name, dir) || under(name, dir+"x") || under(name, "") {
		t.Error("under")
	}
}
