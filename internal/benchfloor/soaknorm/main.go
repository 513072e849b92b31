// Command soaknorm is the part of `make soak` (internal/benchfloor/soak.sh)
// that reads what one driver printed and splits it into findings and
// errors. It prints the findings on stdout, normalized to one form for the
// three drivers and sorted:
//
//	path:line:col: message
//
// where path has the module cache or GOROOT/src prefix removed
// ("github.com/x/y@v1.2.3/f.go", "net/http/client.go"), and writes every
// line that is not a finding to stderr, exiting 1 if there is one.
//
//	soaknorm -format text     [-dir D] [-strip P]... FILE   # idemlint's text output (its stderr)
//	soaknorm -format vet      [-dir D] [-strip P]... FILE   # go vet -vettool's stderr
//	soaknorm -format golangci [-dir D] [-strip P]... FILE   # golangci-lint's --output.json.path file
//
// Relative paths are taken relative to -dir. golangci-lint's "check: "
// prefix of the message is removed, and so is the " (check)" suffix of
// idemlint's and go vet's text; related information (golangci-lint's
// "(related information)" issues, the other drivers' lines whose message
// starts with a tab) is dropped.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/idemlint/idemlint/internal/gclreport"
)

type stripList []string

func (s *stripList) String() string     { return strings.Join(*s, ",") }
func (s *stripList) Set(v string) error { *s = append(*s, v); return nil }

func main() {
	format := flag.String("format", "", "text, vet or golangci")
	dir := flag.String("dir", ".", "the directory relative paths are relative to")
	var strip stripList
	flag.Var(&strip, "strip", "a path prefix to remove (repeatable)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: soaknorm -format text|vet|golangci [-dir D] [-strip P]... FILE")
		os.Exit(2)
	}
	data, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "soaknorm:", err)
		os.Exit(2)
	}
	n := normalizer{dir: *dir, strip: strip}
	findings, errs, err := n.parse(*format, data)
	if err != nil {
		fmt.Fprintln(os.Stderr, "soaknorm:", err)
		os.Exit(2)
	}
	w := bufio.NewWriter(os.Stdout)
	for _, f := range findings {
		fmt.Fprintln(w, f)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "soaknorm:", err)
		os.Exit(2)
	}
	for _, e := range errs {
		fmt.Fprintln(os.Stderr, e)
	}
	if len(errs) > 0 {
		os.Exit(1)
	}
}

type normalizer struct {
	dir   string
	strip []string
}

// parse returns the normalized findings, sorted, and the lines that are
// not findings, in their order.
func (n normalizer) parse(format string, data []byte) (findings, errs []string, err error) {
	switch format {
	case "text", "vet":
		findings, errs = n.parseText(data, format == "vet")
	case "golangci":
		findings, errs, err = n.parseGolangci(data)
	default:
		return nil, nil, fmt.Errorf("unknown format %q (want text, vet or golangci)", format)
	}
	slices.Sort(findings)
	return findings, errs, err
}

// diagLine is a diagnostic as the go/analysis drivers print it in text:
// "file.go:line:col: message" (the column is left out when unknown).
var diagLine = regexp.MustCompile(`^(\S.*?\.go):(\d+)(?::(\d+))?: (.*)$`)

// checkSuffix is the " (check)" that idemlint's text output and go vet's
// put after each message.
var checkSuffix = regexp.MustCompile(` \([a-z0-9]+\)$`)

func (n normalizer) parseText(data []byte, vet bool) (findings, errs []string) {
	for line := range strings.Lines(string(data)) {
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			continue
		}
		if vet && strings.HasPrefix(line, "# ") {
			// go vet's header before each package's output.
			continue
		}
		m := diagLine.FindStringSubmatch(line)
		if m == nil {
			errs = append(errs, line)
			continue
		}
		if strings.HasPrefix(m[4], "\t") {
			continue // related information
		}
		col := m[3]
		if col == "" {
			col = "0"
		}
		msg := checkSuffix.ReplaceAllString(m[4], "")
		findings = append(findings, n.path(m[1])+":"+m[2]+":"+col+": "+msg)
	}
	return findings, errs
}

// checkPrefix is the "check: " or "check(related information): " that the
// golangci-lint plugin puts before each message.
var checkPrefix = regexp.MustCompile(`^[a-z0-9]+(\(related information\))?: `)

func (n normalizer) parseGolangci(data []byte) (findings, errs []string, err error) {
	var out gclreport.Report
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&out); err != nil {
		return nil, nil, fmt.Errorf("decoding golangci-lint JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, fmt.Errorf("golangci-lint JSON: more than one object")
	}
	for _, w := range out.Report.Warnings {
		errs = append(errs, "warning: "+w.Tag+": "+w.Text)
	}
	if out.Report.Error != "" {
		errs = append(errs, "error: "+out.Report.Error)
	}
	for _, is := range out.Issues {
		pos := fmt.Sprintf("%s:%d:%d", n.path(is.Pos.Filename), is.Pos.Line, is.Pos.Column)
		if is.FromLinter != "idemlint" {
			// typecheck and the like: golangci-lint drops every other
			// linter's issues when there is one.
			errs = append(errs, pos+": "+is.Text+" ("+is.FromLinter+")")
			continue
		}
		m := checkPrefix.FindStringSubmatch(is.Text)
		if m == nil {
			errs = append(errs, pos+": "+is.Text+" (idemlint issue without a check name)")
			continue
		}
		if m[1] != "" {
			continue
		}
		findings = append(findings, pos+": "+strings.TrimPrefix(is.Text, m[0]))
	}
	return findings, errs, nil
}

// path makes p absolute (relative to n.dir) and removes the first -strip
// prefix it has.
func (n normalizer) path(p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(n.dir, p)
	}
	p = filepath.ToSlash(filepath.Clean(p))
	for _, s := range n.strip {
		s = strings.TrimSuffix(filepath.ToSlash(filepath.Clean(s)), "/") + "/"
		if rest, ok := strings.CutPrefix(p, s); ok {
			return rest
		}
	}
	return p
}
