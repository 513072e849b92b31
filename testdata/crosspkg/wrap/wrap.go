// Package wrap hands out lib's clients and retries nothing.
package wrap

import (
	"strings"

	"example.com/crosspkg/lib"
)

// New returns a client.
func New(name string) *lib.Client { return &lib.Client{Name: strings.ToUpper(name)} }
