// Package metadata is a test stub of google.golang.org/grpc@v1.85.0 (metadata): signatures only.
package metadata

import "context"

// MD is a mapping from metadata keys to values.
type MD map[string][]string

// New creates an MD from a given key-value map.
func New(m map[string]string) MD { panic("stub") }

// Pairs returns an MD formed by the mapping of key, value ...
func Pairs(kv ...string) MD { panic("stub") }

// Get obtains the values for a given key.
func (md MD) Get(k string) []string { panic("stub") }

// Set sets the value of a given key with a slice of values.
func (md MD) Set(k string, vals ...string) { panic("stub") }

// Append adds the values to key k, not overwriting what was already stored at that key.
func (md MD) Append(k string, vals ...string) { panic("stub") }

// NewOutgoingContext creates a new context with outgoing md attached.
func NewOutgoingContext(ctx context.Context, md MD) context.Context { panic("stub") }

// AppendToOutgoingContext returns a new context with the provided kv merged with any existing metadata in the context.
func AppendToOutgoingContext(ctx context.Context, kv ...string) context.Context { panic("stub") }

// FromOutgoingContext returns the outgoing metadata in ctx if it exists.
func FromOutgoingContext(ctx context.Context) (MD, bool) { panic("stub") }

// FromIncomingContext returns the incoming metadata in ctx if it exists.
func FromIncomingContext(ctx context.Context) (MD, bool) { panic("stub") }
