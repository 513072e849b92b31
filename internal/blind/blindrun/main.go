// Command blindrun is `make blind`: it runs an idemlint binary over the
// blind sample of testdata/blind (every bugs-*.txt), reading each labelled
// repository at its commit from the mirrors the fetch tool leaves under
// /work/.mirror, prints recall per check, the missed bugs, the false
// findings on look-alikes and the findings in no labelled range, and writes
// testdata/blind/found.txt.
//
//	go run ./internal/blind/blindrun -idemlint bin/idemlint
//
// The sample is labelled first and run once: see testdata/blind/README.md.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/idemlint/idemlint/internal/blind"
	"github.com/idemlint/idemlint/internal/corpus"
	"github.com/idemlint/idemlint/internal/recall"
)

func main() {
	idemlint := flag.String("idemlint", "bin/idemlint", "the idemlint binary")
	dir := flag.String("dir", "testdata/blind", "the sample's directory: bugs-*.txt, found.txt")
	mirrors := flag.String("mirrors", "/work/.mirror", "where the fetch tool leaves the repositories (owner+name/repo)")
	keep := flag.Bool("keep", false, "keep the exported trees (their directory is printed)")
	flag.Parse()
	if err := run(*idemlint, *dir, *mirrors, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "blind:", err)
		os.Exit(1)
	}
}

func run(idemlint, dir, mirrors string, keep bool) error {
	bin, err := filepath.Abs(idemlint)
	if err != nil {
		return err
	}
	l, err := blind.Load(dir)
	if err != nil {
		return err
	}
	repos := blind.Repos(l.Entries)
	// A missing mirror stops the run before anything is analyzed, naming
	// every repository to fetch.
	var missing []string
	for _, r := range repos {
		if _, err := os.Stat(blind.MirrorDir(mirrors, r.Repo)); err != nil {
			missing = append(missing, "github:"+r.Repo)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("no mirror under %s of %d repositories; fetch each with the fetch tool, then run again:\n%s",
			mirrors, len(missing), strings.Join(missing, "\n"))
	}
	for _, kv := range blind.Env {
		k, v, _ := strings.Cut(kv, "=")
		os.Setenv(k, v)
	}
	work, err := os.MkdirTemp("", "idemlint-blind-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Println("exported trees in", work)
	} else {
		defer os.RemoveAll(work)
	}
	var findings []corpus.Finding
	var failed []string
	for _, r := range repos {
		start := time.Now()
		fs, err := blind.Analyze(bin, mirrors, work, l, r)
		if err != nil {
			fmt.Printf("FAILED %s@%s: %v\n", r.Repo, r.Commit, err)
			failed = append(failed, r.Repo)
			continue
		}
		fmt.Printf("%s@%.12s: %d packages, %d findings, %s\n", r.Repo, r.Commit, len(r.Packages), len(fs), time.Since(start).Round(time.Second))
		findings = append(findings, fs...)
	}
	res := recall.Match(l.Entries, findings)
	fmt.Printf("\nblind sample: %d repositories (%d not analyzed), %d findings in the labelled packages\n\n%s\n",
		len(repos), len(failed), len(findings), recall.Table(l.Entries, res))
	var missed, falses []string
	for i, e := range l.Entries {
		switch {
		case !e.Lookalike && len(res.Found[e.ID]) == 0:
			missed = append(missed, fmt.Sprintf("%-14s %s (%s): %s", e.Checks[0], e.ID, l.Where(i), e.Reason))
		case e.Lookalike:
			for _, f := range res.False[e.ID] {
				falses = append(falses, fmt.Sprintf("%s (%s): %s", e.ID, l.Where(i), f))
			}
		}
	}
	slices.Sort(missed)
	fmt.Printf("missed bugs (%d):\n%s\n\n", len(missed), strings.Join(missed, "\n"))
	fmt.Printf("false findings on look-alikes (%d):\n%s\n\n", len(falses), strings.Join(falses, "\n"))
	fmt.Printf("findings in no labelled range (%d):\n", len(res.Unmatched))
	for _, f := range res.Unmatched {
		fmt.Println(f)
	}
	header := "The blind sample's run, recorded from it (not a label) by make blind.\n" +
		"found <id>: a bug the tool found; false <id>: a look-alike it has a finding in."
	if len(failed) > 0 {
		header += "\nnot analyzed (their bugs count as missed): " + strings.Join(failed, ", ")
	}
	return os.WriteFile(filepath.Join(dir, "found.txt"), recall.FormatBaselineWith(header, l.Entries, res), 0o644)
}
