// Package insecure is a test stub of google.golang.org/grpc@v1.85.0 (credentials/insecure): signatures only.
package insecure

import "google.golang.org/grpc/credentials"

// NewCredentials returns a credentials which disables transport security.
func NewCredentials() credentials.TransportCredentials { panic("stub") }
