// Package status is a test stub of google.golang.org/grpc@v1.85.0 (status): signatures only.
package status

import (
	"google.golang.org/grpc/codes"
)

// Status represents an RPC status code, message, and details.
type Status struct{}

// Code returns the status code contained in s.
func (s *Status) Code() codes.Code { panic("stub") }

// Message returns the message contained in s.
func (s *Status) Message() string { panic("stub") }

// Err returns an immutable error representing s; returns nil if s.Code() is OK.
func (s *Status) Err() error { panic("stub") }

// New returns a Status representing c and msg.
func New(c codes.Code, msg string) *Status { panic("stub") }

// Error returns an error representing c and msg.  If c is OK, returns nil.
func Error(c codes.Code, msg string) error { panic("stub") }

// Errorf returns Error(c, fmt.Sprintf(format, a...)).
func Errorf(c codes.Code, format string, a ...any) error { panic("stub") }

// FromError returns a Status representation of err.
func FromError(err error) (s *Status, ok bool) { panic("stub") }

// Convert is a convenience function which removes the need to handle the boolean return value from FromError.
func Convert(err error) *Status { panic("stub") }

// Code returns the Code of the error if it is a Status error or if it wraps a Status error.
func Code(err error) codes.Code { panic("stub") }
