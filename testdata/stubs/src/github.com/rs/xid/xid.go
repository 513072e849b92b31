// Package xid is a test stub of github.com/rs/xid@v1.6.0: signatures only.
package xid

import (
	"database/sql/driver"
	"time"
)

// ---- error.go

const ErrInvalidID strErr = "xid: invalid ID"

type strErr string

func (err strErr) Error() string { return string(err) }

// ---- id.go

// ID represents a unique request id
type ID [12]byte // rawLen = 12

// New generates a globally unique ID
func New() ID { panic("stub") }

// NewWithTime generates a globally unique ID with the passed in time
func NewWithTime(t time.Time) ID { panic("stub") }

// FromString reads an ID from its string representation
func FromString(id string) (ID, error) { panic("stub") }

// String returns a base32 hex lowercased with no padding representation of the id (char set is 0-9, a-v).
func (id ID) String() string { panic("stub") }

// Encode encodes the id using base32 encoding, writing 20 bytes to dst and return it.
func (id ID) Encode(dst []byte) []byte { panic("stub") }

// MarshalText implements encoding/text TextMarshaler interface
func (id ID) MarshalText() ([]byte, error) { panic("stub") }

// MarshalJSON implements encoding/json Marshaler interface
func (id ID) MarshalJSON() ([]byte, error) { panic("stub") }

// UnmarshalText implements encoding/text TextUnmarshaler interface
func (id *ID) UnmarshalText(text []byte) error { panic("stub") }

// UnmarshalJSON implements encoding/json Unmarshaler interface
func (id *ID) UnmarshalJSON(b []byte) error { panic("stub") }

// Time returns the timestamp part of the id.
func (id ID) Time() time.Time { panic("stub") }

// Machine returns the 3-byte machine id part of the id.
func (id ID) Machine() []byte { panic("stub") }

// Pid returns the process id part of the id.
func (id ID) Pid() uint16 { panic("stub") }

// Counter returns the incrementing value part of the id.
func (id ID) Counter() int32 { panic("stub") }

// Value implements the driver.Valuer interface.
func (id ID) Value() (driver.Value, error) { panic("stub") }

// Scan implements the sql.Scanner interface.
func (id *ID) Scan(value interface{}) (err error) { panic("stub") }

// IsNil Returns true if this is a "nil" ID
func (id ID) IsNil() bool { panic("stub") }

// Alias of IsNil
func (id ID) IsZero() bool { panic("stub") }

// NilID returns a zero value for `xid.ID`.
func NilID() ID { panic("stub") }

// Bytes returns the byte array representation of `ID`
func (id ID) Bytes() []byte { panic("stub") }

// FromBytes convert the byte array representation of `ID` back to `ID`
func FromBytes(b []byte) (ID, error) { panic("stub") }

// Compare returns an integer comparing two IDs.
func (id ID) Compare(other ID) int { panic("stub") }

// Sort sorts an array of IDs inplace.
func Sort(ids []ID) {}
