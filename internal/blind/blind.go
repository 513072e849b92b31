// Package blind measures idemlint's recall over the blind sample of
// testdata/blind: retry bugs and look-alikes in repositories of GitHub
// (applications and services as well as libraries), labelled by reading the
// code against the rules of idempotency-and-retries.md before any run of
// the tool, and never taught to it in the same issue.
//
// Labels are in the format of testdata/recall/bugs.txt (internal/recall
// parses and matches them), keyed by repository and commit instead of
// module and version:
//
//	id  kind  owner/repo@commit  package-dir  file  from-to  check  reason
//
// package-dir and file are relative to the repository's root. The code is
// read from the mirrors the fetch tool leaves under /work/.mirror (the
// runner cannot fetch them), exported to a temporary directory, and
// analyzed there; a finding's position becomes "owner/repo@commit/file:line:col"
// so that recall.Entry.Matches reads it as it reads a module cache position.
package blind

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/idemlint/idemlint/internal/corpus"
	"github.com/idemlint/idemlint/internal/recall"
)

// Parse reads one labels file (bugs-*.txt).
func Parse(data []byte) ([]recall.Entry, error) {
	es, err := recall.ParseWith(data, repoOrigin)
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		if path.Dir(e.File) != e.Package {
			return nil, fmt.Errorf("line %d: file %s is not in package dir %s", e.Line, e.File, e.Package)
		}
	}
	return es, nil
}

// repoOrigin reads "owner/repo@commit" (a full 40-hex commit) and a package
// directory relative to the repository's root ("." for the root).
func repoOrigin(where, pkg string) (string, string, error) {
	repo, commit, ok := strings.Cut(where, "@")
	owner, name, ok2 := strings.Cut(repo, "/")
	if !ok || !ok2 || owner == "" || name == "" || strings.Contains(name, "/") {
		return "", "", fmt.Errorf("%q is not owner/repo@commit", where)
	}
	if len(commit) != 40 || strings.Trim(commit, "0123456789abcdef") != "" {
		return "", "", fmt.Errorf("%q: commit %q is not 40 lower-case hex digits", where, commit)
	}
	if pkg == "" || path.Clean(pkg) != pkg || path.IsAbs(pkg) || pkg == ".." || strings.HasPrefix(pkg, "../") {
		return "", "", fmt.Errorf("package dir %q is not a clean path relative to the repository", pkg)
	}
	return repo, commit, nil
}

// Labels are the entries of every bugs-*.txt of a directory, in file order.
type Labels struct {
	Entries []recall.Entry
	Source  []string // Source[i]: the file Entries[i] is in
}

// Where names an entry's line: "bugs-a.txt:12".
func (l Labels) Where(i int) string { return fmt.Sprintf("%s:%d", l.Source[i], l.Entries[i].Line) }

// Load reads every bugs-*.txt of dir; an id used in two files is an error.
func Load(dir string) (Labels, error) {
	files, err := filepath.Glob(filepath.Join(dir, "bugs-*.txt"))
	if err != nil {
		return Labels{}, err
	}
	if len(files) == 0 {
		return Labels{}, fmt.Errorf("no bugs-*.txt in %s", dir)
	}
	slices.Sort(files)
	var l Labels
	seen := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return Labels{}, err
		}
		es, err := Parse(data)
		name := filepath.Base(f)
		if err != nil {
			return Labels{}, fmt.Errorf("%s: %v", name, err)
		}
		for _, e := range es {
			if prev, ok := seen[e.ID]; ok {
				return Labels{}, fmt.Errorf("%s:%d: id %s is used in %s too", name, e.Line, e.ID, prev)
			}
			seen[e.ID] = name
			l.Entries = append(l.Entries, e)
			l.Source = append(l.Source, name)
		}
	}
	return l, nil
}

// Repo is one repository at one commit and its labelled package dirs.
type Repo struct {
	Repo, Commit string
	Packages     []string
}

// Repos groups the entries by repository and commit, in order of first
// appearance.
func Repos(es []recall.Entry) []Repo {
	var out []Repo
	for _, e := range es {
		i := slices.IndexFunc(out, func(r Repo) bool { return r.Repo == e.Module && r.Commit == e.Version })
		if i < 0 {
			out = append(out, Repo{Repo: e.Module, Commit: e.Version})
			i = len(out) - 1
		}
		if !slices.Contains(out[i].Packages, e.Package) {
			out[i].Packages = append(out[i].Packages, e.Package)
		}
	}
	return out
}

// MirrorDir is the git directory the fetch tool leaves for repo
// ("owner/name") under mirrors: mirrors/owner+name/repo.
func MirrorDir(mirrors, repo string) string {
	return filepath.Join(mirrors, strings.Replace(repo, "/", "+", 1), "repo")
}

// Export writes r's tree at its commit into dst (an empty directory),
// reading blobs from the mirror with git cat-file; the mirror is not
// written, and export-ignore drops nothing. The fetch tool's snapshots lack
// files of 4 MiB and more: such a blob is skipped and its path returned
// (CheckRanges reports a labelled file among them). A missing mirror or
// commit is an error that names the repository to fetch.
func Export(mirrors string, r Repo, dst string) (skipped []string, err error) {
	git := MirrorDir(mirrors, r.Repo)
	if _, err := os.Stat(git); err != nil {
		return nil, fmt.Errorf("%s: no mirror at %s: fetch github:%s (the fetch tool), then run again", r.Repo, git, r.Repo)
	}
	if out, err := gitCmd(git, "cat-file", "-e", r.Commit+"^{commit}").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%s: commit %s is not in the mirror %s (fetch github:%s again?): %v %s", r.Repo, r.Commit, git, r.Repo, err, out)
	}
	tree, err := gitCmd(git, "ls-tree", "-r", "-z", "--full-tree", r.Commit).Output()
	if err != nil {
		return nil, fmt.Errorf("%s: git ls-tree %s: %v", r.Repo, r.Commit, err)
	}
	type blob struct{ mode, sha, path string }
	var blobs []blob
	for _, rec := range strings.Split(strings.TrimSuffix(string(tree), "\x00"), "\x00") {
		meta, path, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 || f[1] != "blob" { // submodules (commit entries) have no content here
			continue
		}
		blobs = append(blobs, blob{f[0], f[2], path})
	}
	cmd := gitCmd(git, "cat-file", "--batch")
	var in bytes.Buffer
	for _, b := range blobs {
		in.WriteString(b.sha + "\n")
	}
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: git cat-file --batch: %v", r.Repo, err)
	}
	for _, b := range blobs {
		header, rest, _ := bytes.Cut(out, []byte("\n"))
		f := strings.Fields(string(header))
		if len(f) == 2 && f[1] == "missing" {
			skipped = append(skipped, b.path)
			out = rest
			continue
		}
		var size int
		if len(f) != 3 || f[0] != b.sha {
			return nil, fmt.Errorf("%s: git cat-file --batch: unexpected header %q for %s", r.Repo, header, b.path)
		}
		if _, err := fmt.Sscan(f[2], &size); err != nil || size+1 > len(rest) {
			return nil, fmt.Errorf("%s: git cat-file --batch: bad size in %q", r.Repo, header)
		}
		content := rest[:size]
		out = rest[size+1:]
		p := filepath.Join(dst, filepath.FromSlash(b.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		switch b.mode {
		case "120000":
			err = os.Symlink(string(content), p)
		case "100755":
			err = os.WriteFile(p, content, 0o755)
		default:
			err = os.WriteFile(p, content, 0o644)
		}
		if err != nil {
			return nil, err
		}
	}
	return skipped, nil
}

func gitCmd(gitDir string, args ...string) *exec.Cmd {
	return exec.Command("git", append([]string{"--git-dir=" + gitDir}, args...)...)
}

// ModuleOf returns the directory of the module that holds the package dir
// pkg of the tree at root: the nearest directory at or above it with a
// go.mod (so nested modules are analyzed as themselves).
func ModuleOf(root, pkg string) (string, error) {
	dir := filepath.Join(root, filepath.FromSlash(pkg))
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		if dir == root {
			return "", fmt.Errorf("package dir %s has no go.mod at or above it", pkg)
		}
		dir = filepath.Dir(dir)
	}
}

// UseWorkspace gives the module at dir the modules of the repository's
// go.work that holds it (the nearest one at or above dir, inside root) as
// replace directives of its exported go.mod, unless it replaces them
// already: the runner works with GOWORK=off and -mod=mod, and a module of a
// workspace may import its siblings without replacing them itself
// (quepasa's src/rabbitmq imports src/qplog, which only src/go.work names).
// It returns the module paths it replaced.
func UseWorkspace(root, dir string) ([]string, error) {
	work := ""
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.work")); err == nil {
			work = filepath.Join(d, "go.work")
			break
		}
		if d == root || !strings.HasPrefix(d, root) {
			return nil, nil
		}
	}
	data, err := os.ReadFile(work)
	if err != nil {
		return nil, err
	}
	wf, err := modfile.ParseWork(work, data, nil)
	if err != nil {
		return nil, err
	}
	gomod := filepath.Join(dir, "go.mod")
	data, err = os.ReadFile(gomod)
	if err != nil {
		return nil, err
	}
	mf, err := modfile.Parse(gomod, data, nil)
	if err != nil {
		return nil, err
	}
	var added []string
	for _, u := range wf.Use {
		useDir := filepath.Join(filepath.Dir(work), filepath.FromSlash(u.Path))
		udata, err := os.ReadFile(filepath.Join(useDir, "go.mod"))
		if err != nil {
			continue // a use of a directory the snapshot lacks
		}
		path := modfile.ModulePath(udata)
		if path == "" || mf.Module != nil && path == mf.Module.Mod.Path ||
			slices.ContainsFunc(mf.Replace, func(r *modfile.Replace) bool { return r.Old.Path == path }) {
			continue
		}
		rel, err := filepath.Rel(dir, useDir)
		if err != nil {
			return nil, err
		}
		rel = filepath.ToSlash(rel)
		if !strings.HasPrefix(rel, ".") {
			rel = "./" + rel
		}
		if err := mf.AddReplace(path, "", rel, ""); err != nil {
			return nil, err
		}
		added = append(added, path)
	}
	if len(added) == 0 {
		return nil, nil
	}
	out, err := mf.Format()
	if err != nil {
		return nil, err
	}
	return added, os.WriteFile(gomod, out, 0o644)
}

// Env is the environment of the go command and idemlint in an exported
// tree: dependencies through the module proxy (-mod=mod lets the go command
// complete a stale go.sum; a module with a vendor directory is built from it
// instead, see Vendored), no go.work of the repository (UseWorkspace), and
// this machine's toolchain.
var Env = []string{"GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local"}

// Vendored reports whether the module at dir has a vendor directory the go
// command can build from (vendor/modules.txt).
func Vendored(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "vendor", "modules.txt"))
	return err == nil
}

// refused is the go command's report of a module the proxy will not serve.
var refused = regexp.MustCompile(`go: (\S+)@(\S+): reading \S+: (403 Forbidden|404 Not Found|410 Gone)`)

// Download runs `go mod download` in the module directory dir. A
// requirement of the module's go.mod that the module proxy refuses (403, 404,
// 410: a private or vanished module, often one only tests import) is dropped
// from the exported go.mod and the download tried again; the dropped
// requirements are returned. If a labelled package needs one, its type
// check fails and the run reports it.
func Download(dir string) (dropped []string, err error) {
	for {
		cmd := exec.Command("go", "mod", "download")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), Env...)
		out, err := cmd.CombinedOutput()
		if err == nil {
			return dropped, nil
		}
		m := refused.FindSubmatch(out)
		if m == nil || slices.Contains(dropped, string(m[1])) {
			return dropped, fmt.Errorf("go mod download in %s: %v\n%s", dir, err, out)
		}
		before, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
		edit := exec.Command("go", "mod", "edit", "-droprequire="+string(m[1]))
		edit.Dir = dir
		edit.Env = cmd.Env
		if eout, err := edit.CombinedOutput(); err != nil {
			return dropped, fmt.Errorf("go mod edit -droprequire=%s in %s: %v\n%s", m[1], dir, err, eout)
		}
		if after, _ := os.ReadFile(filepath.Join(dir, "go.mod")); bytes.Equal(before, after) {
			// Not a requirement of this go.mod: a dependency needs it.
			return dropped, fmt.Errorf("go mod download in %s: %v\n%s", dir, err, out)
		}
		dropped = append(dropped, string(m[1]))
	}
}

// Rel returns the position rewriter for a tree of r exported at root:
// root/file:line:col becomes owner/repo@commit/file:line:col; positions
// elsewhere (dependencies) are left as they are.
func Rel(root string, r Repo) func(string) string {
	prefix := filepath.ToSlash(root) + "/"
	return func(posn string) string {
		p := filepath.ToSlash(posn)
		if rest, ok := strings.CutPrefix(p, prefix); ok {
			return r.Repo + "@" + r.Commit + "/" + rest
		}
		return p
	}
}

// CheckRanges reports entries of r whose file is missing from the tree at
// root or whose range runs past its end.
func CheckRanges(l Labels, r Repo, root string) []error {
	var errs []error
	for i, e := range l.Entries {
		if e.Module != r.Repo || e.Version != r.Commit {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(e.File)))
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %s: %v", l.Where(i), e.ID, err))
			continue
		}
		if n := bytes.Count(data, []byte("\n")) + 1; e.To > n {
			errs = append(errs, fmt.Errorf("%s: %s: range %d-%d past the end of %s (%d lines)", l.Where(i), e.ID, e.From, e.To, e.File, n))
		}
	}
	return errs
}

// Analyze exports r into a new directory under work, downloads the
// dependencies of each module holding a labelled package, and runs the
// idemlint binary over the labelled packages, module by module.
func Analyze(idemlint, mirrors, work string, l Labels, r Repo) ([]corpus.Finding, error) {
	root, err := os.MkdirTemp(work, strings.Replace(r.Repo, "/", "+", 1)+"-")
	if err != nil {
		return nil, err
	}
	if root, err = filepath.EvalSymlinks(root); err != nil {
		return nil, err
	}
	skipped, err := Export(mirrors, r, root)
	if err != nil {
		return nil, err
	}
	if len(skipped) > 0 {
		fmt.Printf("%s: %d files not in the mirror (4 MiB and more), left out: %s\n", r.Repo, len(skipped), strings.Join(skipped, ", "))
	}
	if errs := CheckRanges(l, r, root); len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	byModule := map[string][]string{}
	var order []string
	for _, p := range r.Packages {
		m, err := ModuleOf(root, p)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", r.Repo, err)
		}
		rel, err := filepath.Rel(m, filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return nil, err
		}
		if byModule[m] == nil {
			order = append(order, m)
		}
		pattern := "./" + filepath.ToSlash(rel)
		if rel == "." {
			pattern = "."
		}
		byModule[m] = append(byModule[m], pattern)
	}
	var all []corpus.Finding
	for _, m := range order {
		replaced, err := UseWorkspace(root, m)
		if err != nil {
			return nil, fmt.Errorf("%s: go.work of %s: %v", r.Repo, m, err)
		}
		if len(replaced) > 0 {
			fmt.Printf("%s: the modules of its go.work replaced in the exported go.mod of %s: %d\n", r.Repo, m, len(replaced))
		}
		var env []string
		if Vendored(m) {
			// The repository vendors its dependencies: build from them, as
			// its own CI does, with nothing to download.
			env = []string{"GOFLAGS=-mod=vendor"}
			fmt.Printf("%s: %s vendors its dependencies: -mod=vendor\n", r.Repo, m)
		} else {
			dropped, err := Download(m)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", r.Repo, err)
			}
			if len(dropped) > 0 {
				fmt.Printf("%s: requirements the module proxy refuses, dropped from the exported go.mod: %s\n", r.Repo, strings.Join(dropped, ", "))
			}
		}
		fs, err := corpus.RunPatterns(idemlint, m, byModule[m], Rel(root, r), env)
		if err != nil {
			return nil, fmt.Errorf("%s (module %s): %v", r.Repo, m, err)
		}
		all = append(all, fs...)
	}
	return all, nil
}
