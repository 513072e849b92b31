// Package childtest runs the test binary again as a child process that a
// test kills mid-work (a relay, a server, a consumer), and reads what the
// child prints on stdout.
package childtest

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Child is the test binary re-run as a child process.
type Child struct {
	t     testing.TB
	cmd   *exec.Cmd
	lines chan string
}

// Start runs the test named test of the binary in a child process with env
// added to its environment.
func Start(t testing.TB, test string, env ...string) *Child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &Child{t: t, cmd: cmd, lines: make(chan string)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	t.Cleanup(func() { cmd.Process.Kill() })
	return c
}

// Await waits for a line of the child's output that starts with prefix,
// and returns the rest of the line.
func (c *Child) Await(prefix string, timeout time.Duration) string {
	c.t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				c.cmd.Wait()
				c.t.Fatalf("the child ended before printing %q", prefix)
			}
			if rest, ok := strings.CutPrefix(l, prefix); ok {
				return rest
			}
		case <-deadline:
			c.t.Fatalf("the child printed no %q within %s", prefix, timeout)
		}
	}
}

// Kill kills the child with SIGKILL and waits for it.
func (c *Child) Kill() {
	c.t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		c.t.Fatal(err)
	}
	if err := c.cmd.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		c.t.Fatalf("child exit: %v, want killed", err)
	}
	go func() {
		for range c.lines {
		}
	}()
}
