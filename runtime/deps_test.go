// Package deps_test holds the core module's own promise: it requires nothing
// (docs/runtime-modules.md). A store or adapter that links a client belongs
// in a module of its own.
package deps_test

import (
	"os/exec"
	"strings"
	"testing"
)

func TestCoreRequiresNothing(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "all").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -m all: %v\n%s", err, out)
	}
	if mods := strings.Fields(string(out)); len(mods) != 1 || mods[0] != "github.com/idemlint/idemlint/runtime" {
		t.Errorf("the core module's graph is %q; want the module alone (a module that links a client goes in a "+
			"module of its own, see docs/runtime-modules.md)", mods)
	}
}
