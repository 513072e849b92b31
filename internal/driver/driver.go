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
	"flag"
	"fmt"
	"log"
	"os"
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

// Run runs analyzers over the packages that args name, as the multichecker
// would with the same arguments (bind registers extra flags that the
// caller has already parsed). It returns the exit code and true, or false
// when the caller must hand the command line to the multichecker: fixes,
// -flags, -V, help, the vet-tool protocol, no package arguments, or a
// command line that does not parse (the multichecker prints the usage
// error).
func Run(args []string, analyzers []*analysis.Analyzer, bind func(*flag.FlagSet)) (int, bool) {
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
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	return run(o), true
}

func run(o *options) (exitcode int) {
	exitAtLeast := func(code int) { exitcode = max(code, exitcode) }

	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	if o.trace != "" {
		f, err := os.Create(o.trace)
		if err != nil {
			log.Fatal(err)
		}
		if err := trace.Start(f); err != nil {
			log.Fatal(err)
		}
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

	workers := runtime.GOMAXPROCS(0)
	if o.dbg('p') {
		workers = 1
	}
	var factLog *os.File
	if o.dbg('f') {
		factLog = os.Stderr
	}
	g := analyze(o.analyzers, initial, workers, factLog, prefilterModeFromEnv())
	if o.dbg('v') {
		log.Printf("analysed %d packages, skipped %d (%s=%s)", len(g.analysed), len(g.skipped), PrefilterEnv, os.Getenv(PrefilterEnv))
	}
	for _, v := range g.violations {
		log.Printf("internal error: %s", v)
		exitAtLeast(1)
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
		err = fmt.Errorf("%s matched no packages", strings.Join(patterns, " "))
	}
	if err == nil {
		dropBuildErrors(initial)
	}
	return initial, err
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
