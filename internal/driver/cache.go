package driver

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"flag"
	"fmt"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/internal/prefilter"
)

// CacheEnv is the environment variable that sets where the standalone
// driver keeps what it learnt of dependencies from one run to the next:
// "off" keeps nothing; a directory keeps it there; unset, the directory
// idemlint under the user's cache directory (os.UserCacheDir).
const CacheEnv = "IDEMLINT_CACHE"

// cacheFormat changes whenever what an entry holds or how its key is made
// changes, so that no build reads another's entries the wrong way.
const cacheFormat = "idemlint-deps-1"

// A depCache keeps, for each dependency that is analysed only for its
// facts, the outcome of its analysis: whether the prefilters skipped it,
// and its facts. A later run with the same dependency (the same files,
// unchanged, the same export data, the same outcomes for its own
// dependencies), the same idemlint executable and the same analyzer
// settings reads the outcome instead of running the prefilters, parsing
// and type-checking the package and running its analyzers: what the go
// command's build cache does for the export data the floor reads.
//
// An entry is a file named by its key; a key hashes everything that the
// outcome depends on (depKey), so an entry is never stale, only unused.
// Entries are written to a temporary file and renamed, so concurrent runs
// share a directory safely; an entry that does not decode is a miss.
type depCache struct {
	dir  string
	salt [sha256.Size]byte // the executable, the analyzers and their settings
	// modCache and goroot are the module cache and the Go tree's source,
	// whose files are never rewritten (fileStamp).
	modCache, goroot string

	hits, misses, writes atomic.Int64
}

// A cacheEntry is what is kept of one dependency.
type cacheEntry struct {
	Skipped   bool
	RuledOut  []string // analyzer names
	Facts     []byte
	FactNames []cacheFactName
	PkgFacts  []string // fact type names
}

type cacheFactName struct{ Name, Type string }

// Entries not used for this long are removed, at most once a day.
const (
	cacheUnused   = 5 * 24 * time.Hour
	cacheTrimEach = 24 * time.Hour
	cacheTouch    = time.Hour // an entry used is marked used at most once this often
)

// openCache returns the dependency cache that CacheEnv names, for a run
// of analyzers with the settings of flags (nil: none), or nil when it is
// off or its directory cannot be made (the run then analyses every
// dependency, as it would without a cache; why is returned for -debug v).
func openCache(analyzers []*analysis.Analyzer, settings []string) (*depCache, string) {
	dir := os.Getenv(CacheEnv)
	switch dir {
	case "off":
		return nil, CacheEnv + "=off"
	case "":
		base, err := os.UserCacheDir()
		if err != nil {
			return nil, err.Error()
		}
		dir = filepath.Join(base, "idemlint")
	}
	dir = filepath.Join(dir, "deps")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err.Error()
	}
	exe, err := executableID()
	if err != nil {
		return nil, err.Error()
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n", cacheFormat, exe)
	for _, a := range withRequired(analyzers) {
		fmt.Fprintf(h, "analyzer %s\n", a.Name)
		a.Flags.VisitAll(func(f *flag.Flag) { fmt.Fprintf(h, "flag %s.%s=%q\n", a.Name, f.Name, f.Value.String()) })
	}
	for _, s := range settings {
		fmt.Fprintf(h, "setting %q\n", s)
	}
	c := &depCache{dir: dir, modCache: modCacheDir()}
	if build.Default.GOROOT != "" {
		c.goroot = filepath.Join(build.Default.GOROOT, "src")
	}
	h.Sum(c.salt[:0])
	return c, dir
}

// executableID identifies the running executable by its path, size and
// modification time: a rebuilt idemlint (or test binary) is another one.
func executableID() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s %d %d", exe, fi.Size(), fi.ModTime().UnixNano()), nil
}

// settingFlags are the driver's flags that change no analysis: output,
// profiling and deprecated no-ops.
var settingFlags = []string{"debug", "cpuprofile", "memprofile", "trace", "flags", "V", "json", "format", "c", "fix",
	"diff", "source", "v", "all", "tags"}

// flagSettings returns the values of the flags of fs that may change what
// an analysis finds, as name=value, sorted.
func flagSettings(fs *flag.FlagSet) []string {
	var out []string
	fs.VisitAll(func(f *flag.Flag) {
		if !slices.Contains(settingFlags, f.Name) {
			out = append(out, fmt.Sprintf("%s=%s", f.Name, f.Value.String()))
		}
	})
	sort.Strings(out)
	return out
}

// depKey is the key of p's outcome: the cache's salt; p's identity, Go
// version and export data (named by the hash of its contents in the go
// command's cache); each compiled file's path and contents (fileStamp);
// and the key of each import (imports gives the keys computed so far; an
// import without one counts by its export data). ok is false when a file
// cannot be read: such a package is not cached.
func (c *depCache) depKey(p *packages.Package, imports func(*packages.Package) (string, bool)) (string, bool) {
	h := sha256.New()
	h.Write(c.salt[:])
	goVersion := ""
	if p.Module != nil {
		goVersion = p.Module.GoVersion
	}
	fmt.Fprintf(h, "id %q path %q go %q export %q\n", p.ID, p.PkgPath, goVersion, p.ExportFile)
	for _, name := range p.CompiledGoFiles {
		stamp, ok := fileStamp(name, under(name, c.modCache) || under(name, c.goroot))
		if !ok {
			return "", false
		}
		fmt.Fprintf(h, "file %q %s\n", name, stamp)
	}
	paths := make([]string, 0, len(p.Imports))
	for path := range p.Imports {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		imp := p.Imports[path]
		k, ok := imports(imp)
		if !ok {
			k = "export " + imp.ExportFile
		}
		fmt.Fprintf(h, "import %q %s\n", path, k)
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

// fileStamp identifies the contents of a file: by its size and
// modification time when it is fixed (a file of the module cache, which
// is read-only and never rewritten, or of the Go tree), by their hash
// otherwise (a file of the main module, of a replacement directory, of a
// workspace module or of a vendor directory can be rewritten within the
// file system's clock tick, keeping its size).
func fileStamp(name string, fixed bool) (string, bool) {
	if fixed {
		fi, err := os.Stat(name)
		if err != nil {
			return "", false
		}
		return fmt.Sprintf("%d %d", fi.Size(), fi.ModTime().UnixNano()), true
	}
	src, err := os.ReadFile(name)
	if err != nil {
		return "", false
	}
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:]), true
}

// under reports whether name is a file below dir ("" is no directory).
func under(name, dir string) bool {
	return dir != "" && strings.HasPrefix(name, dir+string(filepath.Separator))
}

// modCacheDir is the go command's module cache: GOMODCACHE, or pkg/mod in
// the first GOPATH entry.
func modCacheDir() string {
	if dir := os.Getenv("GOMODCACHE"); dir != "" {
		return filepath.Clean(dir)
	}
	if list := filepath.SplitList(build.Default.GOPATH); len(list) > 0 && list[0] != "" {
		return filepath.Join(list[0], "pkg", "mod")
	}
	return ""
}

func (c *depCache) file(key string) string { return filepath.Join(c.dir, key[:2], key) }

// get returns the entry of key, or false.
func (c *depCache) get(key string) (*cacheEntry, bool) {
	name := c.file(key)
	data, err := os.ReadFile(name)
	if err != nil {
		c.misses.Add(1)
		return nil, false
	}
	var en cacheEntry
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&en); err != nil {
		c.misses.Add(1)
		return nil, false
	}
	c.hits.Add(1)
	if fi, err := os.Stat(name); err == nil && time.Since(fi.ModTime()) > cacheTouch {
		now := time.Now()
		os.Chtimes(name, now, now) // marks it used for trim; a failure only makes it older
	}
	return &en, true
}

// put writes the entry of key; a failure leaves the cache as it was.
func (c *depCache) put(key string, en *cacheEntry) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(en); err != nil {
		return
	}
	name := c.file(key)
	if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), key+".*.tmp")
	if err != nil {
		return
	}
	_, werr := tmp.Write(buf.Bytes())
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), name) != nil {
		os.Remove(tmp.Name())
		return
	}
	c.writes.Add(1)
}

// trim removes the entries unused for cacheUnused, and temporary files
// left by a run that stopped midway, at most once per cacheTrimEach (a
// file trim.txt in the directory holds when it last ran).
func (c *depCache) trim() {
	stamp := filepath.Join(c.dir, "trim.txt")
	if fi, err := os.Stat(stamp); err == nil && time.Since(fi.ModTime()) < cacheTrimEach {
		return
	}
	if err := os.WriteFile(stamp, []byte(time.Now().UTC().Format(time.RFC3339)+"\n"), 0o666); err != nil {
		return
	}
	filepath.WalkDir(c.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path == stamp {
			return nil
		}
		if fi, err := d.Info(); err == nil && time.Since(fi.ModTime()) > cacheUnused {
			os.Remove(path)
		}
		return nil
	})
}

// entryOf returns what the cache keeps of s, a dependency just processed,
// or nil when s is not to be kept: an analysis that failed or reported
// errors, or an ill-typed package, is done again next time.
func entryOf(s *pkgState) *cacheEntry {
	if s.illTyped || len(s.pkg.Errors) > 0 {
		return nil
	}
	for _, act := range s.actions {
		if act.err != nil {
			return nil
		}
	}
	en := &cacheEntry{Skipped: s.skipped, Facts: s.facts}
	for _, a := range s.ruledOut {
		en.RuledOut = append(en.RuledOut, a.Name)
	}
	for _, n := range s.factNames {
		en.FactNames = append(en.FactNames, cacheFactName{n.Name, n.Type.String()})
	}
	for _, t := range s.pkgFacts {
		en.PkgFacts = append(en.PkgFacts, t.String())
	}
	return en
}

// restore sets s to the outcome en holds; false when en names an analyzer
// or fact type that this run does not have (then s is processed anew).
func (en *cacheEntry) restore(s *pkgState, factTypes map[string]reflect.Type) bool {
	var ruledOut []*analysis.Analyzer
	for _, name := range en.RuledOut {
		i := slices.IndexFunc(s.actions, func(act *action) bool { return act.a.Name == name })
		if i < 0 {
			return false
		}
		ruledOut = append(ruledOut, s.actions[i].a)
	}
	var names []prefilter.FactName
	for _, n := range en.FactNames {
		t := factTypes[n.Type]
		if t == nil {
			return false
		}
		names = append(names, prefilter.FactName{Name: n.Name, Type: t})
	}
	var pkgFacts []reflect.Type
	for _, name := range en.PkgFacts {
		t := factTypes[name]
		if t == nil {
			return false
		}
		pkgFacts = append(pkgFacts, t)
	}
	s.skipped, s.ruledOut, s.facts, s.factNames, s.pkgFacts = en.Skipped, ruledOut, en.Facts, names, pkgFacts
	s.cached = true
	return true
}

// factTypesOf returns the fact types of analyzers and those they require,
// by the name cacheEntry gives them.
func factTypesOf(analyzers []*analysis.Analyzer) map[string]reflect.Type {
	out := make(map[string]reflect.Type)
	for _, a := range withRequired(analyzers) {
		for _, f := range a.FactTypes {
			t := reflect.TypeOf(f)
			out[t.String()] = t
		}
	}
	return out
}

// cacheKeys holds the keys of the packages processed so far, for the keys
// of their importers.
type cacheKeys struct {
	mu   sync.Mutex
	keys map[*packages.Package]string
}

func (k *cacheKeys) get(p *packages.Package) (string, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	key, ok := k.keys[p]
	return key, ok
}

func (k *cacheKeys) set(p *packages.Package, key string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.keys == nil {
		k.keys = make(map[*packages.Package]string)
	}
	k.keys[p] = key
}

// String summarizes the cache's use, for -debug v.
func (c *depCache) String() string {
	return fmt.Sprintf("dependency cache %s: %d hits, %d misses, %d written", c.dir, c.hits.Load(), c.misses.Load(),
		c.writes.Load())
}
