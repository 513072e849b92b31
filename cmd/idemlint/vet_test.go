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
)

var appFinding = regexp.MustCompile(`^(?:.*/)?(app/app\.go:\d+:\d+: .*)$`)

// TestVetPrefilter runs go vet -vettool over the app package of
// testdata/crosspkg (at the module root), with its imports as dependencies
// that go vet runs the tool on only for their facts: lib has a retrying
// method (a fact), wrap hands out lib's client and retries nothing (ruled
// out: its facts file must pass lib's method fact on, as app does not
// import lib), pure retries nothing either. It vets app without the
// prefilter, with it and in check mode (each with a build cache of its
// own, so that no result is cached): the same findings, the dependencies
// that cannot have facts skipped (and in check mode analysed, their facts
// files the same byte for byte as those written without analysis).
func TestVetPrefilter(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the command and go vet")
	}
	bin := binary(t)
	dir := crossPkg(t)
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
	for _, want := range []string{"example.com/crosspkg/wrap", "example.com/crosspkg/pure", "fmt", "strings", "time"} {
		if !slices.Contains(onSkipped, want) {
			t.Errorf("%s was not skipped: %v", want, onSkipped)
		}
	}
	for _, dont := range []string{"example.com/crosspkg/lib", "example.com/crosspkg/app"} {
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
