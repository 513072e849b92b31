// Package uuid is a test stub of github.com/gofrs/uuid@v4.4.0+incompatible: signatures only.
package uuid

import (
	"database/sql/driver"
	"fmt"
	"io"
	"net"
	"time"
)

// ---- codec.go

// FromBytes returns a UUID generated from the raw byte slice input.
func FromBytes(input []byte) (UUID, error) { panic("stub") }

// FromBytesOrNil returns a UUID generated from the raw byte slice input.
func FromBytesOrNil(input []byte) UUID { panic("stub") }

// Parse parses the UUID stored in the string text.
func (u *UUID) Parse(s string) error { panic("stub") }

// FromString returns a UUID parsed from the input string.
func FromString(text string) (UUID, error) { panic("stub") }

// FromStringOrNil returns a UUID parsed from the input string.
func FromStringOrNil(input string) UUID { panic("stub") }

// MarshalText implements the encoding.TextMarshaler interface.
func (u UUID) MarshalText() ([]byte, error) { panic("stub") }

// UnmarshalText implements the encoding.TextUnmarshaler interface.
func (u *UUID) UnmarshalText(b []byte) error { panic("stub") }

// MarshalBinary implements the encoding.BinaryMarshaler interface.
func (u UUID) MarshalBinary() ([]byte, error) { panic("stub") }

// UnmarshalBinary implements the encoding.BinaryUnmarshaler interface.
func (u *UUID) UnmarshalBinary(data []byte) error { panic("stub") }

// ---- generator.go

// EpochFunc is the function type used to provide the current time.
type EpochFunc func() time.Time

// HWAddrFunc is the function type used to provide hardware (MAC) addresses.
type HWAddrFunc func() (net.HardwareAddr, error)

// DefaultGenerator is the default UUID Generator used by this package.
var DefaultGenerator Generator

// NewV1 returns a UUID based on the current timestamp and MAC address.
func NewV1() (UUID, error) { panic("stub") }

// NewV3 returns a UUID based on the MD5 hash of the namespace UUID and name.
func NewV3(ns UUID, name string) UUID { panic("stub") }

// NewV4 returns a randomly generated UUID.
func NewV4() (UUID, error) { panic("stub") }

// NewV5 returns a UUID based on SHA-1 hash of the namespace UUID and name.
func NewV5(ns UUID, name string) UUID { panic("stub") }

// NewV6 returns a k-sortable UUID based on a timestamp and 48 bits of pseudorandom data.
func NewV6() (UUID, error) { panic("stub") }

// NewV7 returns a k-sortable UUID based on the current millisecond precision UNIX epoch and 74 bits of pseudorandom data.
func NewV7() (UUID, error) { panic("stub") }

// Generator provides an interface for generating UUIDs.
type Generator interface {
	NewV1() (UUID, error)
	NewV3(ns UUID, name string) UUID
	NewV4() (UUID, error)
	NewV5(ns UUID, name string) UUID
	NewV6() (UUID, error)
	NewV7() (UUID, error)
}

// Gen is a reference UUID generator based on the specifications laid out in RFC-4122 and DCE 1.1: Authentication and Security Services.
type Gen struct {
}

// GenOption is a function type that can be used to configure a Gen generator.
type GenOption func(*Gen)

// NewGen returns a new instance of Gen with some default values set.
func NewGen() *Gen { panic("stub") }

// NewGenWithHWAF builds a new UUID generator with the HWAddrFunc provided.
func NewGenWithHWAF(hwaf HWAddrFunc) *Gen { panic("stub") }

// NewGenWithOptions returns a new instance of Gen with the options provided.
func NewGenWithOptions(opts ...GenOption) *Gen { panic("stub") }

// WithHWAddrFunc is a GenOption that allows you to provide your own HWAddrFunc function.
func WithHWAddrFunc(hwaf HWAddrFunc) GenOption { panic("stub") }

// WithEpochFunc is a GenOption that allows you to provide your own EpochFunc function.
func WithEpochFunc(epochf EpochFunc) GenOption { panic("stub") }

// WithRandomReader is a GenOption that allows you to provide your own random reader.
func WithRandomReader(reader io.Reader) GenOption { panic("stub") }

// NewV1 returns a UUID based on the current timestamp and MAC address.
func (g *Gen) NewV1() (UUID, error) { panic("stub") }

// NewV3 returns a UUID based on the MD5 hash of the namespace UUID and name.
func (g *Gen) NewV3(ns UUID, name string) UUID { panic("stub") }

// NewV4 returns a randomly generated UUID.
func (g *Gen) NewV4() (UUID, error) { panic("stub") }

// NewV5 returns a UUID based on SHA-1 hash of the namespace UUID and name.
func (g *Gen) NewV5(ns UUID, name string) UUID { panic("stub") }

// NewV6 returns a k-sortable UUID based on a timestamp and 48 bits of pseudorandom data.
func (g *Gen) NewV6() (UUID, error) { panic("stub") }

// NewV7 returns a k-sortable UUID based on the current millisecond precision UNIX epoch and 74 bits of pseudorandom data.
func (g *Gen) NewV7() (UUID, error) { panic("stub") }

// ---- sql.go

// Value implements the driver.Valuer interface.
func (u UUID) Value() (driver.Value, error) { panic("stub") }

// Scan implements the sql.Scanner interface.
func (u *UUID) Scan(src interface{}) error { panic("stub") }

// NullUUID can be used with the standard sql package to represent a UUID value that can be NULL in the database.
type NullUUID struct {
	UUID  UUID
	Valid bool
}

// Value implements the driver.Valuer interface.
func (u NullUUID) Value() (driver.Value, error) { panic("stub") }

// Scan implements the sql.Scanner interface.
func (u *NullUUID) Scan(src interface{}) error { panic("stub") }

// MarshalJSON marshals the NullUUID as null or the nested UUID
func (u NullUUID) MarshalJSON() ([]byte, error) { panic("stub") }

// UnmarshalJSON unmarshals a NullUUID
func (u *NullUUID) UnmarshalJSON(b []byte) error { panic("stub") }

// ---- uuid.go

// Size of a UUID in bytes.
const Size = 16

// UUID is an array type to represent the value of a UUID, as defined in RFC-4122.
type UUID [Size]byte

const (
	_  byte = iota
	V1      // Version 1 (date-time and MAC address)
	_       // Version 2 (date-time and MAC address, DCE security version) [removed]
	V3      // Version 3 (namespace name-based)
	V4      // Version 4 (random)
	V5      // Version 5 (namespace name-based)
	V6      // Version 6 (k-sortable timestamp and random data, field-compatible with v1) [peabody draft]
	V7      // Version 7 (k-sortable timestamp and random data) [peabody draft]
	_
) // Version 8 (k-sortable timestamp, meant for custom implementations) [peabody draft] [not implemented]

const (
	VariantNCS byte = iota
	VariantRFC4122
	VariantMicrosoft
	VariantFuture
)

const (
	DomainPerson = iota
	DomainGroup
	DomainOrg
)

// Timestamp is the count of 100-nanosecond intervals since 00:00:00.00, 15 October 1582 within a V1 UUID.
type Timestamp uint64

// Time returns the UTC time.Time representation of a Timestamp
func (t Timestamp) Time() (time.Time, error) { panic("stub") }

// TimestampFromV1 returns the Timestamp embedded within a V1 UUID.
func TimestampFromV1(u UUID) (Timestamp, error) { panic("stub") }

// TimestampFromV6 returns the Timestamp embedded within a V6 UUID.
func TimestampFromV6(u UUID) (Timestamp, error) { panic("stub") }

// Nil is the nil UUID, as specified in RFC-4122, that has all 128 bits set to zero.
var Nil = UUID{}

var (
	NamespaceDNS  UUID // 6ba7b810-9dad-11d1-80b4-00c04fd430c8
	NamespaceURL  UUID // 6ba7b811-9dad-11d1-80b4-00c04fd430c8
	NamespaceOID  UUID // 6ba7b812-9dad-11d1-80b4-00c04fd430c8
	NamespaceX500 UUID // 6ba7b814-9dad-11d1-80b4-00c04fd430c8
)

// IsNil returns if the UUID is equal to the nil UUID
func (u UUID) IsNil() bool { panic("stub") }

// Version returns the algorithm version used to generate the UUID.
func (u UUID) Version() byte { panic("stub") }

// Variant returns the UUID layout variant.
func (u UUID) Variant() byte { panic("stub") }

// Bytes returns a byte slice representation of the UUID.
func (u UUID) Bytes() []byte { panic("stub") }

// String returns a canonical RFC-4122 string representation of the UUID: xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.
func (u UUID) String() string { panic("stub") }

// Format implements fmt.Formatter for UUID values.
func (u UUID) Format(f fmt.State, c rune) {}

// SetVersion sets the version bits.
func (u *UUID) SetVersion(v byte) {}

// SetVariant sets the variant bits.
func (u *UUID) SetVariant(v byte) {}

// Must is a helper that wraps a call to a function returning (UUID, error) and panics if the error is non-nil.
func Must(u UUID, err error) UUID { panic("stub") }
