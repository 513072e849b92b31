package analyzers

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// FileNames are the names of a configuration file, looked up in this order
// in a directory; the first one found is the directory's file.
var FileNames = []string{"idemlint.yml", ".idemlint.yml"}

// A File is one configuration file (idemlint.yml):
//
//	checks: [all, -nojitter]
//	paths:
//	  "internal/gen/**": {checks: [-all]}
//	retry-funcs: [example.com/pkg.Retry]
//	strict-context: true
//
// Its checks apply to the packages in its directory and below it, after
// those of the files above it; paths apply checks to the files that a
// pattern matches. The suite settings (the keys of Config but disable) are
// read from the files at or above the directory the command runs in.
type File struct {
	Path   string       // the file
	Dir    string       // its directory
	Checks []string     // "all", "-all", "<check>", "-<check>", applied in order
	Paths  []PathChecks // in the file's order
	suite  []suiteSetting
}

// PathChecks is a per-path override: the checks list applied to the files
// that Pattern matches.
type PathChecks struct {
	// Pattern is slash-separated and relative to the file's directory; it
	// matches a file when it matches the file's path or one of its parent
	// directories, element by element (path.Match), where "**" matches
	// any number of elements: "internal/gen", "internal/gen/**",
	// "**/*_test.go".
	Pattern string
	Checks  []string
	Line    int
}

type suiteSetting struct {
	key   string
	line  int
	apply func(*Config)
}

// suiteKeys are the configuration file's keys of the suite settings.
var suiteKeys = []string{"retry-funcs", "key-generators", "key-headers", "key-fields", "strict-context", "report-unused-ignores"}

// ParseFile parses a configuration file's contents; name is its path, for
// errors ("idemlint.yml:3:5: unknown key ...").
func ParseFile(name string, data []byte) (*File, error) {
	f := &File{Path: name, Dir: filepath.Dir(name)}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return f, nil // empty
	}
	top := doc.Content[0]
	errorf := func(n *yaml.Node, format string, args ...any) error {
		return fmt.Errorf("%s:%d:%d: %s", name, n.Line, n.Column, fmt.Sprintf(format, args...))
	}
	if top.Kind != yaml.MappingNode {
		return nil, errorf(top, "want a mapping of settings (checks, paths, %s)", strings.Join(suiteKeys, ", "))
	}
	stringList := func(n *yaml.Node, key string) ([]string, error) {
		if n.Kind != yaml.SequenceNode {
			return nil, errorf(n, "%s: want a list, such as [a, b]", key)
		}
		var out []string
		for _, e := range n.Content {
			if e.Kind != yaml.ScalarNode || e.Tag != "!!str" {
				return nil, errorf(e, "%s: want a string", key)
			}
			out = append(out, e.Value)
		}
		return out, nil
	}
	checks := func(n *yaml.Node) ([]string, error) {
		list, err := stringList(n, "checks")
		if err != nil {
			return nil, err
		}
		for i, c := range list {
			name := strings.TrimPrefix(c, "-")
			if name != "all" && !slices.Contains(Checks(), name) {
				return nil, errorf(n.Content[i], "checks: unknown check %q (all, %s; -name turns one off)", c, strings.Join(Checks(), ", "))
			}
		}
		return list, nil
	}
	seen := make(map[string]bool)
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		key := k.Value
		if seen[key] {
			return nil, errorf(k, "%s: set twice", key)
		}
		seen[key] = true
		switch key {
		case "checks":
			list, err := checks(v)
			if err != nil {
				return nil, err
			}
			f.Checks = list
		case "paths":
			if v.Kind != yaml.MappingNode {
				return nil, errorf(v, "paths: want a mapping of patterns to settings, such as {\"internal/gen/**\": {checks: [-all]}}")
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				pk, pv := v.Content[j], v.Content[j+1]
				if _, err := path.Match(strings.ReplaceAll(pk.Value, "**", "*"), ""); err != nil || pk.Value == "" || path.IsAbs(pk.Value) {
					return nil, errorf(pk, "paths: %q is not a relative pattern", pk.Value)
				}
				if pv.Kind != yaml.MappingNode {
					return nil, errorf(pv, "paths: %q: want a mapping, such as {checks: [-all]}", pk.Value)
				}
				pc := PathChecks{Pattern: path.Clean(pk.Value), Line: pk.Line}
				for m := 0; m+1 < len(pv.Content); m += 2 {
					if pv.Content[m].Value != "checks" {
						return nil, errorf(pv.Content[m], "paths: %q: unknown key %q (a path sets only checks)", pk.Value, pv.Content[m].Value)
					}
					list, err := checks(pv.Content[m+1])
					if err != nil {
						return nil, err
					}
					pc.Checks = list
				}
				f.Paths = append(f.Paths, pc)
			}
		case "retry-funcs", "key-generators", "key-headers", "key-fields":
			list, err := stringList(v, key)
			if err != nil {
				return nil, err
			}
			if key == "retry-funcs" || key == "key-generators" {
				for j, n := range list {
					if !validFuncName(n) {
						return nil, errorf(v.Content[j], "%s: %q is not a full function name such as \"example.com/pkg.Func\" or \"(*example.com/pkg.Type).Method\"", key, n)
					}
				}
			}
			field := map[string]func(*Config) *[]string{
				"retry-funcs":    func(c *Config) *[]string { return &c.RetryFuncs },
				"key-generators": func(c *Config) *[]string { return &c.KeyGenerators },
				"key-headers":    func(c *Config) *[]string { return &c.KeyHeaders },
				"key-fields":     func(c *Config) *[]string { return &c.KeyFields },
			}[key]
			f.suite = append(f.suite, suiteSetting{key, k.Line, func(c *Config) { *field(c) = slices.Clone(list) }})
		case "strict-context", "report-unused-ignores":
			var b bool
			if v.Kind != yaml.ScalarNode || v.Decode(&b) != nil {
				return nil, errorf(v, "%s: want true or false", key)
			}
			f.suite = append(f.suite, suiteSetting{key, k.Line, func(c *Config) {
				if key == "strict-context" {
					c.StrictContext = b
				} else {
					c.ReportUnusedIgnores = b
				}
			}})
		default:
			return nil, errorf(k, "unknown key %q (checks, paths, %s)", key, strings.Join(suiteKeys, ", "))
		}
	}
	return f, nil
}

// Files finds the configuration files that apply to directories, reading
// each once. It is safe for concurrent use.
type Files struct {
	mu   sync.Mutex
	dirs map[string]dirFile
}

type dirFile struct {
	file *File // nil if the directory has none
	err  error
}

// NewFiles returns an empty cache of configuration files.
func NewFiles() *Files { return &Files{dirs: make(map[string]dirFile)} }

// Chain returns the configuration files of dir and its parents, outermost
// first.
func (c *Files) Chain(dir string) ([]*File, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	var chain []*File
	for {
		f, err := c.inDir(dir)
		if err != nil {
			return nil, err
		}
		if f != nil {
			chain = append(chain, f)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	slices.Reverse(chain)
	return chain, nil
}

// Paths lists the configuration files of dir and its parents, outermost
// first, without reading them.
func Paths(dir string) []string {
	var out []string
	for dir, _ = filepath.Abs(dir); ; dir = filepath.Dir(dir) {
		for _, name := range FileNames {
			if p := filepath.Join(dir, name); fileExists(p) {
				out = append(out, p)
				break
			}
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	slices.Reverse(out)
	return out
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

func (c *Files) inDir(dir string) (*File, error) {
	c.mu.Lock()
	e, ok := c.dirs[dir]
	c.mu.Unlock()
	if ok {
		return e.file, e.err
	}
	for _, name := range FileNames {
		p := filepath.Join(dir, name)
		data, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
			continue
		}
		if err == nil {
			e.file, e.err = ParseFile(p, data)
		} else {
			e.err = err
		}
		break
	}
	c.mu.Lock()
	c.dirs[dir] = e
	c.mu.Unlock()
	return e.file, e.err
}

// ApplySuite sets cfg's suite settings from chain, outer files first, so
// that a file's setting replaces those of the files above it.
func ApplySuite(cfg *Config, chain []*File) {
	for _, f := range chain {
		for _, s := range f.suite {
			s.apply(cfg)
		}
	}
}

// CheckSuite reports an error for the first suite setting of a file in
// chain that is not in suite, the chain whose settings the run uses: a
// file below the directory the command runs in may set only checks and
// paths.
func CheckSuite(chain, suite []*File) error {
	for _, f := range chain {
		if len(f.suite) > 0 && !slices.Contains(suite, f) {
			s := f.suite[0]
			return fmt.Errorf("%s:%d: %s: suite settings apply to the whole run and are read from the idemlint.yml files at or above the directory idemlint runs in; move it there", f.Path, s.line, s.key)
		}
	}
	return nil
}

// Enabled reports whether chain, the configuration files above file's
// directory, outermost first, lets check report in file: every file's
// checks in turn, then the paths that match file, in the same order.
func Enabled(chain []*File, check, file string) bool {
	on := true
	for _, f := range chain {
		on = applyChecks(on, f.Checks, check)
	}
	for _, f := range chain {
		rel, err := filepath.Rel(f.Dir, file)
		if err != nil || !filepath.IsLocal(rel) {
			continue
		}
		rel = filepath.ToSlash(rel)
		for _, p := range f.Paths {
			if matchPath(p.Pattern, rel) {
				on = applyChecks(on, p.Checks, check)
			}
		}
	}
	return on
}

func applyChecks(on bool, list []string, check string) bool {
	for _, c := range list {
		switch c {
		case "all", check:
			on = true
		case "-all", "-" + check:
			on = false
		}
	}
	return on
}

// matchPath reports whether pattern matches name or one of its parent
// directories (see PathChecks.Pattern).
func matchPath(pattern, name string) bool {
	pat, elems := strings.Split(pattern, "/"), strings.Split(name, "/")
	for n := len(elems); n > 0; n-- {
		if matchElems(pat, elems[:n]) {
			return true
		}
	}
	return false
}

func matchElems(pat, elems []string) bool {
	if len(pat) == 0 {
		return len(elems) == 0
	}
	if pat[0] == "**" {
		for i := 0; i <= len(elems); i++ {
			if matchElems(pat[1:], elems[i:]) {
				return true
			}
		}
		return false
	}
	if len(elems) == 0 {
		return false
	}
	ok, _ := path.Match(pat[0], elems[0])
	return ok && matchElems(pat[1:], elems[1:])
}
