package flow_test

import (
	"go/types"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/idemlint/idemlint/internal/driver"
	"github.com/idemlint/idemlint/passes/internal/flow"
)

// The engine's cost against a type-check of the same files, run by hand
// (go test -run '^$' -bench . -benchmem ./passes/internal/flow); the
// figures are in docs/performance.md.

var benchPackages = []string{"encoding/json", "net/http"}

func loadBench(b *testing.B, path string) *packages.Package {
	b.Helper()
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedSyntax | packages.NeedTypes |
		packages.NeedTypesInfo | packages.NeedImports | packages.NeedDeps}
	pkgs, err := packages.Load(cfg, path)
	if err != nil || len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		b.Fatalf("loading %s: %v %v", path, err, pkgs)
	}
	return pkgs[0]
}

// BenchmarkTypeCheck is the floor: a type-check of the package's files
// with the types.Info a pass gets, its imports already loaded.
func BenchmarkTypeCheck(b *testing.B) {
	for _, path := range benchPackages {
		p := loadBench(b, path)
		b.Run(path, func(b *testing.B) {
			for b.Loop() {
				conf := types.Config{Importer: importerOf(p), GoVersion: p.TypesInfo.FileVersions[p.Syntax[0]]}
				info := driver.NewInfo()
				if _, err := conf.Check(p.PkgPath, p.Fset, p.Syntax, info); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBuild is the engine's SSA build and index of the package.
func BenchmarkBuild(b *testing.B) {
	for _, path := range benchPackages {
		p := loadBench(b, path)
		b.Run(path, func(b *testing.B) {
			for b.Loop() {
				if flow.New(input(p)).Get() == nil {
					b.Fatal("no SSA")
				}
			}
		})
	}
}

// BenchmarkBuildLoops is the build, then the loops of every function.
func BenchmarkBuildLoops(b *testing.B) {
	for _, path := range benchPackages {
		p := loadBench(b, path)
		b.Run(path, func(b *testing.B) {
			loops := 0
			for b.Loop() {
				fp := flow.New(input(p)).Get()
				loops = 0
				for _, fn := range fp.Funcs {
					loops += len(fp.Loops(fn).Loops)
				}
			}
			b.ReportMetric(float64(loops), "loops")
		})
	}
}

func input(p *packages.Package) flow.Input {
	return flow.Input{Fset: p.Fset, Pkg: p.Types, Files: p.Syntax, Info: p.TypesInfo}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

func importerOf(p *packages.Package) types.Importer {
	return importerFunc(func(path string) (*types.Package, error) {
		if path == "unsafe" {
			return types.Unsafe, nil
		}
		return p.Imports[path].Types, nil
	})
}
