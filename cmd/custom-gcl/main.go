// Command custom-gcl is golangci-lint v2.15.0 with the idemlint suite linked
// in as the module plugin "idemlint". It is what `golangci-lint custom` would
// build from .custom-gcl.yml, built instead with plain `go build` from the
// module cache, so it needs no network and no git:
//
//	cd cmd/custom-gcl && go build -o ../../bin/custom-gcl .
//
// Enable the plugin in .golangci.yml (see .golangci.example.yml and
// docs/golangci.md), then run it as golangci-lint: `custom-gcl run ./...`.
package main

import (
	"cmp"
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"

	_ "github.com/idemlint/idemlint/analyzers/gclplugin" // registers the "idemlint" plugin
)

// Set with -ldflags "-X main.version=... -X main.date=..." for a release
// build. Left empty, golangci-lint keys its cache on a hash of this binary,
// so a rebuilt plugin never reuses stale results.
var (
	version = ""
	date    = ""
)

const (
	golangciModule = "github.com/golangci/golangci-lint/v2"
	idemlintModule = "github.com/idemlint/idemlint"
)

func main() {
	if err := commands.Execute(buildInfo()); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}

// buildInfo describes this binary for `custom-gcl version`: which
// golangci-lint and which idemlint it links.
func buildInfo() commands.BuildInfo {
	info := commands.BuildInfo{
		Version:   cmp.Or(version, "(devel)"),
		GoVersion: "unknown",
		Date:      cmp.Or(date, "(unknown)"),
		Commit:    "unknown",
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return info
	}
	info.GoVersion = bi.GoVersion
	mods := map[string]string{}
	for _, m := range bi.Deps {
		v := m.Version
		if m.Replace != nil {
			v = cmp.Or(m.Replace.Version, m.Replace.Path)
		}
		mods[m.Path] = v
	}
	var vcs []string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision", "vcs.modified":
			vcs = append(vcs, s.Key+"="+s.Value)
		case "vcs.time":
			if date == "" {
				info.Date = s.Value
			}
		}
	}
	info.Commit = fmt.Sprintf("(golangci-lint %s, idemlint %s",
		cmp.Or(mods[golangciModule], "unknown"), cmp.Or(mods[idemlintModule], "unknown"))
	if len(vcs) > 0 {
		info.Commit += ", " + strings.Join(vcs, ", ")
	}
	info.Commit += ")"
	return info
}
