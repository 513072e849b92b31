// Command corpusrun is `make corpus`: it fetches the modules of
// testdata/corpus/modules.txt into the module cache, runs an idemlint
// binary over their packages, writes the findings to
// testdata/corpus/raw.txt, and lists those that testdata/corpus/findings.txt
// has not reviewed yet (or reviewed but no longer reported).
//
//	go run ./internal/corpus/corpusrun -idemlint bin/idemlint
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/idemlint/idemlint/internal/corpus"
)

func main() {
	idemlint := flag.String("idemlint", "bin/idemlint", "the idemlint binary")
	dir := flag.String("dir", "testdata/corpus", "the corpus directory: modules.txt, findings.txt, raw.txt")
	prepare := flag.String("prepare", "", "only write the corpus module into this directory, fetch it, and print its package patterns (for bench.sh)")
	flag.Parse()
	if *prepare != "" {
		if err := prepareOnly(*prepare, *dir); err != nil {
			fmt.Fprintln(os.Stderr, "corpus:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*idemlint, *dir); err != nil {
		fmt.Fprintln(os.Stderr, "corpus:", err)
		os.Exit(1)
	}
}

func modules(dir string) ([]corpus.Module, error) {
	data, err := os.ReadFile(filepath.Join(dir, "modules.txt"))
	if err != nil {
		return nil, err
	}
	return corpus.ParseModules(data)
}

func prepareOnly(work, dir string) error {
	mods, err := modules(dir)
	if err != nil {
		return err
	}
	if err := corpus.Prepare(work, "go", mods); err != nil {
		return err
	}
	for _, m := range mods {
		for _, p := range m.ImportPatterns() {
			fmt.Println(p)
		}
	}
	return nil
}

func run(idemlint, dir string) error {
	bin, err := filepath.Abs(idemlint)
	if err != nil {
		return err
	}
	mods, err := modules(dir)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "idemlint-corpus-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	start := time.Now()
	if err := corpus.Prepare(work, "go", mods); err != nil {
		return err
	}
	fmt.Printf("fetched %d modules in %s\n", len(mods), time.Since(start).Round(time.Second))
	start = time.Now()
	found, err := corpus.Run(bin, work, "go", mods)
	if err != nil {
		return err
	}
	fmt.Printf("idemlint over the corpus in %s: %d findings\n", time.Since(start).Round(time.Second), len(found))
	if err := os.WriteFile(filepath.Join(dir, "raw.txt"), corpus.FormatRaw(found), 0o644); err != nil {
		return err
	}
	reviewedData, err := os.ReadFile(filepath.Join(dir, "findings.txt"))
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	reviewed, err := corpus.ParseReviewed(reviewedData)
	if err != nil {
		return fmt.Errorf("findings.txt: %v", err)
	}
	var known []string
	for _, r := range reviewed {
		known = append(known, r.Finding)
	}
	var now []string
	for _, f := range found {
		now = append(now, f.String())
	}
	stale := 0
	for _, f := range now {
		if !slices.Contains(known, f) {
			fmt.Println("not reviewed:", f)
			stale++
		}
	}
	for _, f := range known {
		if !slices.Contains(now, f) {
			fmt.Println("reviewed but no longer reported:", f)
			stale++
		}
	}
	for _, s := range corpus.Precision(reviewed) {
		fmt.Println(s)
	}
	if stale > 0 {
		return fmt.Errorf("%d differences between raw.txt and findings.txt: review them in findings.txt", stale)
	}
	return nil
}
