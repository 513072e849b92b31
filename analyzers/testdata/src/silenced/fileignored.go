//idemlint:file-ignore nojitter a test fake of a server that never fails

package silenced

import "time"

// Both waits are silenced by the file directive; another file's are not.
func fileIgnored() {
	for i := 0; i < 5; i++ {
		if op() == nil {
			return
		}
		time.Sleep(time.Second)
	}
	for i := 0; i < 5; i++ {
		if op() == nil {
			return
		}
		time.Sleep(2 * time.Second)
	}
}
