// Package driver is idemlint's standalone analysis driver. It runs a set of
// go/analysis analyzers over packages named by patterns, like
// go/analysis/multichecker, with the same output and exit codes, but it
// streams: it loads only the package graph and the compiler's export data
// (go list -export), then parses and type-checks one package at a time per
// worker, runs the analyzers on it, and keeps only the package's
// diagnostics and its serialized facts. The multichecker keeps the syntax
// and types of every package for the whole run.
//
// Fixes (-fix, -diff), -flags, -V, help, and the vet-tool protocol (a .cfg
// argument) are left to the multichecker: Run reports that it did not
// handle them.
package driver

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// Env is the environment variable that selects the driver: "multichecker"
// makes Run decline every command line, so that the caller falls back to
// go/analysis/multichecker.
const Env = "IDEMLINT_DRIVER"

// The GC settings of the driver, unless GOGC or GOMEMLIMIT are set.
const (
	gcPercent   = 400
	memoryLimit = 512 << 20
)

// TuneGC sets the GC of a run of the tool that analyses packages (the
// streaming driver, or one action of the vet-tool protocol), unless GOGC
// or GOMEMLIMIT set it: collect at every fivefold growth of the heap
// (gcPercent) rather than at every doubling, and past a soft limit
// (memoryLimit) as often as needed. A vet action's live heap is one
// package and the export data of its imports, tens of MB; collecting at
// every doubling from the runtime's 4 MB start spent an eighth of the vet
// route's CPU in the GC.
func TuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}

// Select decides which findings a run keeps, by a configuration that
// depends on where the files are. It is called with the directories of the
// packages to analyse, before they are analysed, and returns keep, which
// reports whether a finding of check in file is kept, or an error that
// stops the run.
type Select func(dirs []string) (keep func(check, file string) bool, err error)

// Run runs analyzers over the packages that args name, as the multichecker
// would with the same arguments (bind registers extra flags that the
// caller has already parsed), keeping the findings that sel keeps (nil
// keeps all). It returns the exit code and true, or false
// when the caller must hand the command line to the multichecker: fixes,
// -flags, -V, help, the vet-tool protocol, no package arguments, or a
// command line that does not parse (the multichecker prints the usage
// error).
func Run(args []string, analyzers []*analysis.Analyzer, bind func(*flag.FlagSet), sel Select) (int, bool) {
	if os.Getenv(Env) == "multichecker" {
		return 0, false
	}
	if err := analysis.Validate(analyzers); err != nil {
		return 0, false
	}
	o, ok := parseFlags(args, analyzers, bind)
	if !ok || o.fix || o.diff || o.printFlags || o.version || len(o.args) == 0 || o.args[0] == "help" ||
		len(o.args) == 1 && strings.HasSuffix(o.args[0], ".cfg") {
		return 0, false
	}
	log.SetFlags(0)
	log.SetPrefix(filepath.Base(os.Args[0]) + ": ")
	// The live heap is a few packages at a time: collecting at every
	// doubling of it spends a third of the run in the GC. Collect at every
	// fivefold growth instead, but past a soft limit as often as needed.
	// The limit is above the live heap of the largest packages (a root
	// such as cloud.google.com/go/storage and the export data it imports
	// hold 250 MB): at 300 MiB the GC ran back to back and took a fifth of
	// the CPU over the corpus.
	TuneGC()
	o.sel = sel
	return run(o), true
}

func run(o *options) (exitcode int) {
	exitAtLeast := func(code int) { exitcode = max(code, exitcode) }

	if o.cpuProfile != "" {
		startWriting(o.cpuProfile, pprof.StartCPUProfile)
		defer pprof.StopCPUProfile()
	}
	if o.trace != "" {
		startWriting(o.trace, trace.Start)
		defer func() {
			trace.Stop()
			log.Printf("To view the trace, run:\n$ go tool trace view %s", o.trace)
		}()
	}
	if o.memProfile != "" {
		f, err := os.Create(o.memProfile)
		if err != nil {
			log.Fatal(err)
		}
		defer func() {
			runtime.GC()
			if err := pprof.WriteHeapProfile(f); err != nil {
				log.Fatalf("Writing memory profile: %v", err)
			}
			f.Close()
		}()
	}

	if o.dbg('v') {
		log.SetPrefix("")
		log.SetFlags(log.Lmicroseconds)
		log.Printf("load %s", o.args)
	}
	initial, err := load(o.args, o.tests)
	if err != nil {
		log.Print(err)
		exitAtLeast(1)
		return
	}
	// A pattern that names no package (a directory that does not exist, an
	// import path no module provides) loads as a package with only the go
	// command's error: print it, but do not analyse it (the multichecker
	// would add a "failed prerequisites" line per check below it).
	var missing []*packages.Package
	initial = slices.DeleteFunc(initial, func(p *packages.Package) bool {
		if len(p.GoFiles)+len(p.CompiledGoFiles)+len(p.OtherFiles) == 0 && len(p.Errors) > 0 && len(p.Imports) == 0 {
			missing = append(missing, p)
			return true
		}
		return false
	})
	for _, p := range missing {
		for _, err := range p.Errors {
			fmt.Fprintln(os.Stderr, err.Msg) // the position is "-"
			exitAtLeast(1)
		}
	}
	if len(initial) == 0 {
		return
	}
	var keep func(check, file string) bool
	if o.sel != nil {
		var dirs []string
		for _, p := range initial {
			if files := append(slices.Clone(p.GoFiles), p.OtherFiles...); len(files) > 0 {
				dirs = append(dirs, filepath.Dir(files[0]))
			}
		}
		if keep, err = o.sel(dirs); err != nil {
			log.Print(err)
			exitAtLeast(1)
			return
		}
	}

	workers := runtime.GOMAXPROCS(0)
	if o.dbg('p') {
		workers = 1
	}
	var factLog io.Writer // an interface nil unless -debug f: analyze bypasses the cache when it is not
	if o.dbg('f') {
		factLog = os.Stderr
	}
	cache, where := openCache(o.analyzers, o.settings)
	g := analyze(o.analyzers, initial, workers, factLog, prefilterModeFromEnv(), cache)
	if o.dbg('v') {
		log.Printf("analysed %d packages, skipped %d (%s=%s), %d of them as the cache kept them", len(g.analysed), len(g.skipped),
			PrefilterEnv, os.Getenv(PrefilterEnv), len(g.cached))
		if cache != nil {
			log.Print(cache)
		} else {
			log.Printf("no dependency cache: %s", where)
		}
	}
	if cache != nil {
		cache.trim()
	}
	for _, v := range g.violations {
		log.Printf("internal error: %s", v)
		exitAtLeast(1)
	}

	if keep != nil {
		g.forEach(func(act *action) {
			if act.isRoot {
				act.diags = slices.DeleteFunc(act.diags, func(d diagnostic) bool { return !keep(act.a.Name, d.posn.Filename) })
			}
		})
	}

	// The multichecker prints package errors (list, parse and type errors)
	// before it analyses; they are known here only now.
	pkgErrors := packageErrors(initial)
	for _, err := range pkgErrors {
		fmt.Fprintln(os.Stderr, err)
		exitAtLeast(1)
	}
	exitAtLeast(g.print(&output{
		format:       o.format,
		contextLines: o.context,
		analyzers:    o.analyzers,
		root:         moduleRoot(initial),
		version:      Version(),
		pkgErrors:    pkgErrors,
	}))
	return
}

// startWriting creates the file name and has start begin writing to it (a
// profile, a trace); a failure of either stops the run.
func startWriting(name string, start func(io.Writer) error) {
	f, err := os.Create(name)
	if err != nil {
		log.Fatal(err)
	}
	if err := start(f); err != nil {
		log.Fatal(err)
	}
}

// moduleRoot is the directory of the main module of the packages, or the
// working directory outside one.
func moduleRoot(initial []*packages.Package) string {
	for _, p := range initial {
		if p.Module != nil && p.Module.Main && p.Module.Dir != "" {
			return p.Module.Dir
		}
	}
	dir, _ := os.Getwd()
	return dir
}

// loadMode is what the driver asks of go/packages: the graph, the file
// lists and the compiler's export data, but no syntax and no types.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
	packages.NeedDeps | packages.NeedExportFile | packages.NeedTypesSizes | packages.NeedModule

func load(patterns []string, tests bool) ([]*packages.Package, error) {
	conf := &packages.Config{Mode: loadMode, Tests: tests}
	initial, err := packages.Load(conf, patterns...)
	if err == nil && len(initial) == 0 {
		err = goListError(patterns)
	}
	if err == nil {
		if msg, ok := outsideModule(initial); ok {
			err = fmt.Errorf("%s: go.mod file not found in current directory or any parent directory; run idemlint in a module (go mod init creates one), see 'go help modules'", msg)
		}
	}
	if err == nil {
		dropBuildErrors(initial)
	}
	return initial, err
}

// goListError is why the patterns load no package, in the go command's
// words ("go: go.mod file not found in current directory or any parent
// directory; see 'go help modules'", "go: warning: "./x/..." matched no
// packages"): go/packages reports neither.
func goListError(patterns []string) error {
	cmd := exec.Command("go", append([]string{"list", "-e", "-f", "{{.ImportPath}}", "--"}, patterns...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, _ := cmd.Output()
	if msg := strings.TrimSpace(stderr.String()); msg != "" {
		return errors.New(strings.TrimPrefix(msg, "go: "))
	}
	if len(bytes.TrimSpace(out)) > 0 {
		return fmt.Errorf("%s matched no packages that can be analysed: %s", strings.Join(patterns, " "), strings.Join(strings.Fields(string(out)), " "))
	}
	return fmt.Errorf("%s matched no packages", strings.Join(patterns, " "))
}

// outsideModule reports whether the packages failed to load because the
// working directory is in no module, and the go command's message: it then
// says only that a pattern "does not contain main module".
func outsideModule(initial []*packages.Package) (string, bool) {
	for _, p := range initial {
		for _, e := range p.Errors {
			if strings.Contains(e.Msg, "does not contain main module") {
				out, err := exec.Command("go", "env", "GOMOD").Output()
				gomod := strings.TrimSpace(string(out))
				return e.Msg, err == nil && (gomod == "" || gomod == os.DevNull)
			}
		}
	}
	return "", false
}

// dropBuildErrors removes the compiler's errors that go list -export adds
// to a package that does not compile ("# path\n..."): the multichecker, which
// does not ask for export data, never sees them, and the driver reports
// the same problems as it does, from its own type-checking.
func dropBuildErrors(initial []*packages.Package) {
	for p := range packages.Postorder(initial) {
		if p.ExportFile != "" {
			continue
		}
		p.Errors = slices.DeleteFunc(p.Errors, func(err packages.Error) bool {
			return err.Kind == packages.ListError && strings.HasPrefix(err.Msg, "# "+p.ID+"\n")
		})
	}
}
