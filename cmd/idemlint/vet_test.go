package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/idemlint/idemlint/internal/driver"
	"github.com/idemlint/idemlint/internal/testgopath"
)

// vetModule is a module whose package app is vetted with its imports as
// dependencies that go vet runs the tool on only for their facts: lib has
// a retrying method (a fact), wrap hands out lib's client and retries
// nothing (ruled out: its facts file must pass lib's method fact on, as
// app does not import lib), pure retries nothing either.
var vetModule = map[string]string{
	"go.mod": "module example.com/vpf\n\ngo 1.26\n",
	"lib/lib.go": `// Package lib retries in an exported method.
package lib

import (
	"errors"
	"time"
)

func send() error { return errors.New("x") }

func syncOnce() error {
	var err error
	for i := 0; i < 4; i++ {
		if err = send(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Client has a retrying method.
type Client struct{ Name string }

// Post retries by itself.
func (c *Client) Post() error { return syncOnce() }
`,
	"wrap/wrap.go": `// Package wrap hands out lib's clients and retries nothing.
package wrap

import (
	"strings"

	"example.com/vpf/lib"
)

// New returns a client.
func New(name string) *lib.Client { return &lib.Client{Name: strings.ToUpper(name)} }
`,
	"pure/pure.go": `// Package pure computes.
package pure

import "fmt"

// Add adds.
func Add(a, b int) int { return a + b }

// Show formats.
func Show(a int) string { return fmt.Sprint(a) }
`,
	"app/app.go": `// Package app retries calls that retry.
package app

import (
	"time"

	"example.com/vpf/pure"
	"example.com/vpf/wrap"
)

// Pay retries a retrying method.
func Pay() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = wrap.New("a").Post(); err == nil {
			return nil
		}
		time.Sleep(time.Duration(pure.Add(i, 1)) * time.Second)
	}
	return err
}
`,
}

var appFinding = regexp.MustCompile(`^(?:.*/)?(app/app\.go:\d+:\d+: .*)$`)

// TestVetPrefilter runs go vet -vettool over vetModule's app without the
// prefilter, with it and in check mode (each with a build cache of its
// own, so that no result is cached): the same findings, the dependencies
// that cannot have facts skipped (and in check mode analysed, their facts
// files the same byte for byte as those written without analysis).
func TestVetPrefilter(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the command and go vet")
	}
	bin := binary(t)
	dir := testgopath.WriteTree(t, vetModule)
	vet := func(mode string) (findings, skipped []string) {
		t.Helper()
		log := filepath.Join(t.TempDir(), "skipped")
		cmd := exec.Command("go", "vet", "-vettool="+bin, "./app")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOCACHE="+t.TempDir(), "GOFLAGS=", driver.PrefilterEnv+"="+mode, driver.VetSkipLogEnv+"="+log)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("%s=%s go vet: %v, want exit 1 (findings)\n%s", driver.PrefilterEnv, mode, err, out.String())
		}
		if strings.Contains(out.String(), driver.PrefilterEnv) {
			t.Errorf("%s=%s go vet:\n%s", driver.PrefilterEnv, mode, out.String())
		}
		for _, line := range strings.Split(out.String(), "\n") {
			if m := appFinding.FindStringSubmatch(line); m != nil {
				findings = append(findings, m[1])
			}
		}
		data, err := os.ReadFile(log)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		skipped = strings.Fields(string(data))
		slices.Sort(skipped)
		return findings, skipped
	}
	off, offSkipped := vet("off")
	if !slices.ContainsFunc(off, func(f string) bool {
		return strings.Contains(f, "(*lib.Client).Post reaches retry loop (4 attempts)")
	}) {
		t.Fatalf("no nestedretry finding through lib's method fact:\n%s", strings.Join(off, "\n"))
	}
	if len(offSkipped) > 0 {
		t.Errorf("%s=off skipped %v", driver.PrefilterEnv, offSkipped)
	}
	on, onSkipped := vet("on")
	if !slices.Equal(on, off) {
		t.Errorf("findings with the prefilter:\n%s\nwithout:\n%s", strings.Join(on, "\n"), strings.Join(off, "\n"))
	}
	for _, want := range []string{"example.com/vpf/wrap", "example.com/vpf/pure", "fmt", "strings", "time"} {
		if !slices.Contains(onSkipped, want) {
			t.Errorf("%s was not skipped: %v", want, onSkipped)
		}
	}
	for _, dont := range []string{"example.com/vpf/lib", "example.com/vpf/app"} {
		if slices.Contains(onSkipped, dont) {
			t.Errorf("%s was skipped", dont)
		}
	}
	check, checkSkipped := vet("check")
	if !slices.Equal(check, off) {
		t.Errorf("findings in check mode:\n%s\nwithout the prefilter:\n%s", strings.Join(check, "\n"), strings.Join(off, "\n"))
	}
	if !slices.Equal(checkSkipped, onSkipped) {
		t.Errorf("check mode ruled out %v, the prefilter skipped %v", checkSkipped, onSkipped)
	}
}
