package driver

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
)

// Version is the version of the running command's main module, from its
// build information: a release (v1.2.3) when installed with go install
// module@version, a pseudo-version when built in a checkout with VCS
// stamping, "(devel)" when built without.
func Version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}

// PrintVersion prints the version as "idemlint -V" does: "name version
// v1.2.3", and with full (-V=full, which go vet asks of a vet tool to key
// its cache) the Go version and a build ID, the hash of the executable and
// of inputs (the configuration files), so that go vet reruns the tool after
// every rebuild or change of them:
//
//	name version v1.2.3 go1.26.0 buildID=1f2e…
func PrintVersion(w io.Writer, name string, full bool, inputs ...[]byte) error {
	if !full {
		_, err := fmt.Fprintf(w, "%s version %s\n", name, Version())
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	f, err := os.Open(exe)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return err
	}
	for _, in := range inputs {
		fmt.Fprintf(h, "%d\n", len(in))
		h.Write(in)
	}
	_, err = fmt.Fprintf(w, "%s version %s %s buildID=%x\n", name, Version(), runtime.Version(), h.Sum(nil))
	return err
}
