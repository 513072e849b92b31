package driver

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// options are the command-line settings of a standalone run. They mirror
// the flags that go/analysis/multichecker registers, so that every command
// line the multichecker accepts parses the same way here.
type options struct {
	debug      string
	cpuProfile string
	memProfile string
	trace      string
	tests      bool
	json       bool   // -json: an alias of -format json
	format     string // -format: one of formats
	context    int
	fix        bool
	diff       bool
	printFlags bool
	version    bool
	vetV       bool
	analyzers  []*analysis.Analyzer // enabled by the -NAME flags
	settings   []string             // the flags that may change what an analysis finds (flagSettings)
	args       []string
	sel        Select
}

func (o *options) dbg(b byte) bool { return strings.IndexByte(o.debug, b) >= 0 }

// triState is an analyzer's -NAME flag: unset, true or false.
type triState int

const (
	unset triState = iota
	setTrue
	setFalse
)

func (ts *triState) Get() any { return *ts == setTrue }

func (ts *triState) IsBoolFlag() bool { return true }

func (ts *triState) Set(value string) error {
	b, err := strconv.ParseBool(value)
	if err != nil {
		return fmt.Errorf("want true or false")
	}
	if b {
		*ts = setTrue
	} else {
		*ts = setFalse
	}
	return nil
}

func (ts *triState) String() string {
	if *ts == setFalse {
		return "false"
	}
	return "true"
}

// seenFlag records that a flag was given, whatever its value: -V, whose
// multichecker value prints the version and exits.
type seenFlag struct{ set *bool }

func (s seenFlag) String() string { return "" }

func (s seenFlag) Set(string) error { *s.set = true; return nil }

func (s seenFlag) IsBoolFlag() bool { return true }

// formatFlag is -format: a name in formats.
type formatFlag string

func (f *formatFlag) String() string { return string(*f) }

func (f *formatFlag) Set(s string) error {
	if !slices.Contains(formats, s) {
		return fmt.Errorf("unknown format %q (want %s)", s, strings.Join(formats, ", "))
	}
	*f = formatFlag(s)
	return nil
}

// parseFlags parses args as the multichecker would, on a private flag set.
// bind registers the suite-level flags. It returns false when args do not
// parse (the caller then lets the multichecker print its usage error).
func parseFlags(args []string, analyzers []*analysis.Analyzer, bind func(*flag.FlagSet)) (*options, bool) {
	o := &options{tests: true, context: -1}
	fs := flag.NewFlagSet("idemlint", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if bind != nil {
		bind(fs)
	}
	fs.StringVar(&o.debug, "debug", "", `debug flags, any subset of "fpstv"`)
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write CPU profile to this file")
	fs.StringVar(&o.memProfile, "memprofile", "", "write memory profile to this file")
	fs.StringVar(&o.trace, "trace", "", "write trace log to this file")
	fs.BoolVar(&o.tests, "test", true, "indicates whether test files should be analyzed, too")

	enabled := make(map[*analysis.Analyzer]*triState)
	for _, a := range analyzers {
		ts := new(triState)
		fs.Var(ts, a.Name, fmt.Sprintf("enable %q analysis", a.Name))
		enabled[a] = ts
		a.Flags.VisitAll(func(f *flag.Flag) {
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	fs.BoolVar(&o.printFlags, "flags", false, "print analyzer flags in JSON")
	fs.Var(seenFlag{&o.version}, "V", "print version and exit")
	fs.BoolVar(&o.json, "json", false, "emit JSON output (the same as -format json)")
	fs.Var((*formatFlag)(&o.format), "format", "output format: "+strings.Join(formats, ", "))
	fs.IntVar(&o.context, "c", -1, "display offending line with this many lines of context")
	fs.BoolVar(&o.fix, "fix", false, "apply all suggested fixes")
	fs.BoolVar(&o.diff, "diff", false, "with -fix, don't update the files, but print a unified diff")
	fs.Bool("source", false, "no effect (deprecated)")
	fs.BoolVar(&o.vetV, "v", false, "no effect (deprecated)")
	fs.Bool("all", false, "no effect (deprecated)")
	fs.String("tags", "", "no effect (deprecated)")
	if err := fs.Parse(args); err != nil {
		return nil, false
	}
	o.args = fs.Args()
	o.settings = flagSettings(fs)
	switch {
	case o.json && o.format != "" && o.format != formatJSON:
		return nil, false
	case o.json:
		o.format = formatJSON
	case o.format == "":
		o.format = formatText
	}

	var hasTrue, hasFalse bool
	for _, ts := range enabled {
		switch *ts {
		case setTrue:
			hasTrue = true
		case setFalse:
			hasFalse = true
		}
	}
	for _, a := range analyzers {
		switch {
		case hasTrue && *enabled[a] != setTrue:
		case !hasTrue && hasFalse && *enabled[a] == setFalse:
		default:
			o.analyzers = append(o.analyzers, a)
		}
	}
	if o.vetV && !o.dbg('v') {
		o.debug += "v"
	}
	return o, true
}
