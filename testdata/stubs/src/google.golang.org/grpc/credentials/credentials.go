// Package credentials is a test stub of google.golang.org/grpc@v1.85.0 (credentials): signatures only.
package credentials

import "crypto/tls"

// TransportCredentials defines the common interface for all the live gRPC wire protocols.
type TransportCredentials interface {
	Clone() TransportCredentials
}

// NewTLS uses c to construct a TransportCredentials based on TLS.
func NewTLS(c *tls.Config) TransportCredentials { panic("stub") }
