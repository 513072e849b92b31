package driver

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// printGitHub prints each finding as a GitHub Actions workflow command,
//
//	::warning file=payments/client.go,line=25,col=2,title=unboundedretry::message
//
// which the Actions log shows as an annotation on the line. Paths are
// relative to root, the module root (run the command from the checkout's
// root module for the annotations to land on the right files); related
// information follows the message. Analysis errors are ::error commands.
func (g *graph) printGitHub(w io.Writer, root string) error {
	buf := new(bytes.Buffer)
	g.findings(func(act *action) {
		fmt.Fprintf(buf, "::error title=%s::%s\n", ghProperty(act.a.Name), ghData(fmt.Sprintf("%s: %v", act.pkg.ID, act.err)))
	}, func(act *action, d diagnostic) {
		props := []string{"file=" + ghProperty(relPath(root, d.posn.Filename)), fmt.Sprintf("line=%d", d.posn.Line), fmt.Sprintf("col=%d", d.posn.Column)}
		if d.end.IsValid() && d.end.Line > 0 {
			props = append(props, fmt.Sprintf("endLine=%d", d.end.Line), fmt.Sprintf("endColumn=%d", d.end.Column))
		}
		props = append(props, "title="+ghProperty(act.a.Name))
		msg := d.message
		for _, r := range d.related {
			msg += fmt.Sprintf("\n%s:%d:%d: %s", relPath(root, r.posn.Filename), r.posn.Line, r.posn.Column, r.message)
		}
		fmt.Fprintf(buf, "::warning %s::%s\n", strings.Join(props, ","), ghData(msg))
	})
	_, err := w.Write(buf.Bytes())
	return err
}

// relPath is file relative to root when it lies under it, else file.
func relPath(root, file string) string {
	if root != "" {
		if rel, err := filepath.Rel(root, file); err == nil && filepath.IsLocal(rel) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(file)
}

// ghData escapes the message of a workflow command.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a property value of a workflow command.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
