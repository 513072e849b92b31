package driver

import (
	"os"
	"path/filepath"
	"testing"
)

// crossPkg copies testdata/crosspkg, at the module root, into a temporary
// directory and returns it: a module whose findings need facts from its
// dependencies. Its package lib retries in an exported function and
// method; pay calls both inside a retry loop, via calls lib.Sync in none
// (a fact of its own), job retries via.Run and calls pay.Pay, plain
// retries nothing and calls nothing that does (see the packages' docs).
func crossPkg(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "testdata", "crosspkg"))); err != nil {
		t.Fatal(err)
	}
	return dir
}
