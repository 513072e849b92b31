// Package ulid is a test stub of github.com/oklog/ulid/v2@v2.1.2: signatures only.
package ulid

import (
	"database/sql/driver"
	"errors"
	"io"
	"time"
)

// ---- ulid.go

// A ULID is a 16 byte Universally Unique Lexicographically Sortable Identifier
type ULID [16]byte

var (
	ErrDataSize = errors.New("ulid: bad data size when unmarshaling")

	ErrInvalidCharacters = errors.New("ulid: bad data characters when unmarshaling")

	ErrBufferSize = errors.New("ulid: bad buffer size when marshaling")

	ErrBigTime = errors.New("ulid: time too big")

	ErrOverflow = errors.New("ulid: overflow when unmarshaling")

	ErrMonotonicOverflow = errors.New("ulid: monotonic entropy overflow")

	ErrScanValue = errors.New("ulid: source value must be a string or byte slice")

	Zero ULID
)

// MonotonicReader is an interface that should yield monotonically increasing entropy into the provided slice for all calls with the same ms parameter.
type MonotonicReader interface {
	io.Reader
	MonotonicRead(ms uint64, p []byte) error
}

// New returns a ULID with the given Unix milliseconds timestamp and an optional entropy source.
func New(ms uint64, entropy io.Reader) (id ULID, err error) { panic("stub") }

// MustNew is a convenience function equivalent to New that panics on failure instead of returning an error.
func MustNew(ms uint64, entropy io.Reader) ULID { panic("stub") }

// MustNewDefault is a convenience function equivalent to MustNew with DefaultEntropy as the entropy.
func MustNewDefault(t time.Time) ULID { panic("stub") }

// DefaultEntropy returns a thread-safe per process monotonically increasing entropy source.
func DefaultEntropy() io.Reader { panic("stub") }

// Make returns a ULID with the current time in Unix milliseconds and monotonically increasing entropy for the same millisecond.
func Make() (id ULID) { panic("stub") }

// Parse parses an encoded ULID, returning an error in case of failure.
func Parse(ulid string) (id ULID, err error) { panic("stub") }

// ParseStrict parses an encoded ULID, returning an error in case of failure.
func ParseStrict(ulid string) (id ULID, err error) { panic("stub") }

// MustParse is a convenience function equivalent to Parse that panics on failure instead of returning an error.
func MustParse(ulid string) ULID { panic("stub") }

// MustParseStrict is a convenience function equivalent to ParseStrict that panics on failure instead of returning an error.
func MustParseStrict(ulid string) ULID { panic("stub") }

// Bytes returns bytes slice representation of ULID.
func (id ULID) Bytes() []byte { panic("stub") }

// String returns a lexicographically sortable string encoded ULID (26 characters, non-standard base 32) e.g.
func (id ULID) String() string { panic("stub") }

// MarshalBinary implements the encoding.BinaryMarshaler interface by returning the ULID as a byte slice.
func (id ULID) MarshalBinary() ([]byte, error) { panic("stub") }

// MarshalBinaryTo writes the binary encoding of the ULID to the given buffer.
func (id ULID) MarshalBinaryTo(dst []byte) error { panic("stub") }

// UnmarshalBinary implements the encoding.BinaryUnmarshaler interface by copying the passed data and converting it to a ULID.
func (id *ULID) UnmarshalBinary(data []byte) error { panic("stub") }

// Encoding is the base 32 encoding alphabet used in ULID strings.
const Encoding = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// MarshalText implements the encoding.TextMarshaler interface by returning the string encoded ULID.
func (id ULID) MarshalText() ([]byte, error) { panic("stub") }

// MarshalTextTo writes the ULID as a string to the given buffer.
func (id ULID) MarshalTextTo(dst []byte) error { panic("stub") }

// EncodedSize is the length of a text encoded ULID.
const EncodedSize = 26

// UnmarshalText implements the encoding.TextUnmarshaler interface by parsing the data as string encoded ULID.
func (id *ULID) UnmarshalText(v []byte) error { panic("stub") }

// Time returns the Unix time in milliseconds encoded in the ULID.
func (id ULID) Time() uint64 { panic("stub") }

// Timestamp returns the time encoded in the ULID as a time.Time.
func (id ULID) Timestamp() time.Time { panic("stub") }

// IsZero returns true if the ULID is a zero-value ULID, i.e.
func (id ULID) IsZero() bool { panic("stub") }

// MaxTime returns the maximum Unix time in milliseconds that can be encoded in a ULID.
func MaxTime() uint64 { panic("stub") }

// Now is a convenience function that returns the current UTC time in Unix milliseconds.
func Now() uint64 { panic("stub") }

// Timestamp converts a time.Time to Unix milliseconds.
func Timestamp(t time.Time) uint64 { panic("stub") }

// Time converts Unix milliseconds in the format returned by the Timestamp function to a time.Time.
func Time(ms uint64) time.Time { panic("stub") }

// SetTime sets the time component of the ULID to the given Unix time in milliseconds.
func (id *ULID) SetTime(ms uint64) error { panic("stub") }

// Entropy returns the entropy from the ULID.
func (id ULID) Entropy() []byte { panic("stub") }

// SetEntropy sets the ULID entropy to the passed byte slice.
func (id *ULID) SetEntropy(e []byte) error { panic("stub") }

// Compare returns an integer comparing id and other lexicographically.
func (id ULID) Compare(other ULID) int { panic("stub") }

// Scan implements the sql.Scanner interface.
func (id *ULID) Scan(src interface{}) error { panic("stub") }

// Value implements the sql/driver.Valuer interface, returning the ULID as a slice of bytes, by invoking MarshalBinary.
func (id ULID) Value() (driver.Value, error) { panic("stub") }

// Monotonic returns a source of entropy that yields strictly increasing entropy bytes, to a limit governeed by the `inc` parameter.
func Monotonic(entropy io.Reader, inc uint64) *MonotonicEntropy { panic("stub") }

// LockedMonotonicReader wraps a MonotonicReader with a sync.Mutex for safe concurrent use.
type LockedMonotonicReader struct {
	MonotonicReader
}

// MonotonicRead synchronizes calls to the wrapped MonotonicReader.
func (r *LockedMonotonicReader) MonotonicRead(ms uint64, p []byte) (err error) { panic("stub") }

// MonotonicEntropy is an opaque type that provides monotonic entropy.
type MonotonicEntropy struct {
	io.Reader
}

// MonotonicRead implements the MonotonicReader interface.
func (m *MonotonicEntropy) MonotonicRead(ms uint64, entropy []byte) (err error) { panic("stub") }
