package idempotency

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxKeyLen is the longest accepted key, in bytes (Stripe's limit).
const MaxKeyLen = 255

// MaxScopeLen is the longest accepted scope (tenant), in bytes: with a key
// of MaxKeyLen it fits the primary-key index of the PostgreSQL store's table.
const MaxScopeLen = 1024

// ErrInvalidKey is wrapped by ParseKey's and CheckKey's errors.
var ErrInvalidKey = errors.New("idempotency: invalid key")

// ErrInvalidScope is wrapped by CheckScope's errors.
var ErrInvalidScope = errors.New("idempotency: invalid scope")

// CheckScope reports whether every store can hold tenant as a key's scope:
// valid UTF-8, no NUL byte, at most MaxScopeLen bytes. Middleware checks the
// scope before it reaches the store (an invalid one answers 400), and the
// stores check it again in Claim. Errors wrap ErrInvalidScope.
func CheckScope(tenant string) error {
	switch {
	case len(tenant) > MaxScopeLen:
		return fmt.Errorf("%w: %d bytes, more than %d", ErrInvalidScope, len(tenant), MaxScopeLen)
	case !utf8.ValidString(tenant):
		return fmt.Errorf("%w: not valid UTF-8", ErrInvalidScope)
	case strings.IndexByte(tenant, 0) >= 0:
		return fmt.Errorf("%w: contains a NUL byte", ErrInvalidScope)
	}
	return nil
}

// CheckKey reports whether key is a key ParseKey could return: 1 to
// MaxKeyLen printable ASCII bytes. The stores check it in Claim. Errors wrap
// ErrInvalidKey.
func CheckKey(key string) error {
	if key == "" {
		return fmt.Errorf("%w: empty", ErrInvalidKey)
	}
	if len(key) > MaxKeyLen {
		return fmt.Errorf("%w: %d characters, more than %d", ErrInvalidKey, len(key), MaxKeyLen)
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; c < 0x20 || c > 0x7e {
			return fmt.Errorf("%w: character %#x is not printable ASCII", ErrInvalidKey, c)
		}
	}
	return nil
}

// Check validates the claim's scope and key, as a Store does before it
// claims: errors wrap ErrStoreRejected and ErrInvalidScope or ErrInvalidKey.
func (req ClaimRequest) Check() error {
	if err := CheckScope(req.Tenant); err != nil {
		return fmt.Errorf("%w: %w", ErrStoreRejected, err)
	}
	if err := CheckKey(req.Key); err != nil {
		return fmt.Errorf("%w: %w", ErrStoreRejected, err)
	}
	return nil
}

// NewKey returns a fresh key: 128 random bits from crypto/rand, as 32
// lowercase hexadecimal characters. Create it once per logical operation
// and reuse it for every retry of that operation.
func NewKey() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand panics on an unusable source)
	return hex.EncodeToString(b[:])
}

// Derive returns the key to send on a downstream call made by one step of
// the operation identified by key. It is stable (the same inputs always give
// the same result, so a retried step sends the same downstream key) and
// distinct per step. The result is 64 hexadecimal characters, whatever the
// length of the inputs, so it fits every downstream limit.
func Derive(key, step string) string {
	return hex.EncodeToString(hashParts("idemlint-derive-v1", key, step))
}

// hashParts is the SHA-256 of domain and then each part, prefixed by its
// length (8 bytes, big-endian), so that no two lists of parts hash alike.
func hashParts(domain string, parts ...string) []byte {
	h := sha256.New()
	var n [8]byte
	h.Write([]byte(domain))
	for _, s := range parts {
		binary.BigEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	return h.Sum(nil)
}

// ParseKey parses an Idempotency-Key header value. It accepts an RFC 9651
// sf-string ("..." with \" and \\ escapes, no parameters), as the IETF draft
// requires, and, leniently, a bare opaque token as Stripe clients send.
// Surrounding spaces and tabs are ignored. The key must be 1 to MaxKeyLen
// printable ASCII characters (0x20 to 0x7E). A bare token must not contain
// a comma: "a, b" is the list two header lines are combined into (RFC 9110
// section 5.3), not one key; quote a key that contains one. Errors wrap
// ErrInvalidKey.
func ParseKey(v string) (string, error) {
	v = strings.Trim(v, " \t")
	if v == "" {
		return "", fmt.Errorf("%w: empty", ErrInvalidKey)
	}
	key := v
	if v[0] == '"' {
		var b strings.Builder
		i := 1
		closed := false
		for i < len(v) {
			c := v[i]
			i++
			if c == '"' {
				closed = true
				break
			}
			if c == '\\' {
				if i >= len(v) || (v[i] != '"' && v[i] != '\\') {
					return "", fmt.Errorf("%w: bad escape in sf-string", ErrInvalidKey)
				}
				c = v[i]
				i++
			}
			if c < 0x20 || c > 0x7e {
				return "", fmt.Errorf("%w: character %#x is not printable ASCII", ErrInvalidKey, c)
			}
			b.WriteByte(c)
		}
		if !closed {
			return "", fmt.Errorf("%w: unterminated sf-string", ErrInvalidKey)
		}
		if i != len(v) {
			return "", fmt.Errorf("%w: parameters or trailing data after sf-string", ErrInvalidKey)
		}
		key = b.String()
		if key == "" {
			return "", fmt.Errorf("%w: empty", ErrInvalidKey)
		}
	} else {
		for i := 0; i < len(v); i++ {
			if c := v[i]; c < 0x20 || c > 0x7e {
				return "", fmt.Errorf("%w: character %#x is not printable ASCII", ErrInvalidKey, c)
			}
		}
		if strings.IndexByte(v, ',') >= 0 {
			return "", fmt.Errorf("%w: a list of values (send one key, or quote a key that contains a comma)", ErrInvalidKey)
		}
	}
	if len(key) > MaxKeyLen {
		return "", fmt.Errorf("%w: %d characters, more than %d", ErrInvalidKey, len(key), MaxKeyLen)
	}
	return key, nil
}

// FormatKey returns key as an RFC 9651 sf-string, the form the IETF draft
// asks clients to send.
func FormatKey(key string) string {
	var b strings.Builder
	b.Grow(len(key) + 2)
	b.WriteByte('"')
	for i := 0; i < len(key); i++ {
		if key[i] == '"' || key[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(key[i])
	}
	b.WriteByte('"')
	return b.String()
}
