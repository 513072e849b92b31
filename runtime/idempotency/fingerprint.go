package idempotency

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"
)

// FingerprintVersion is the version of the encoding hashed by Fingerprint.
// It is part of the hashed bytes, so a future encoding never collides with
// this one.
const FingerprintVersion = 1

// Fingerprint returns the SHA-256 of a versioned, length-prefixed encoding
// of the request's method, path, query (parameters sorted) and canonical
// body (see CanonicalBody).
func Fingerprint(method, path, rawQuery, contentType string, body []byte) []byte {
	kind, canon := CanonicalBody(contentType, body)
	q := rawQuery
	if vals, err := url.ParseQuery(rawQuery); err == nil {
		q = vals.Encode() // sorted by key, values in order
	}
	h := sha256.New()
	h.Write([]byte{'i', 'd', 'e', 'm', 'f', 'p', FingerprintVersion})
	var n [8]byte
	for _, part := range [...]string{method, path, q, kind} {
		binary.BigEndian.PutUint64(n[:], uint64(len(part)))
		h.Write(n[:])
		h.Write([]byte(part))
	}
	binary.BigEndian.PutUint64(n[:], uint64(len(canon)))
	h.Write(n[:])
	h.Write(canon)
	return h.Sum(nil)
}

// CanonicalBody returns the canonical form of a request body and its kind.
// A body whose content type is JSON (application/json or any +json type)
// and that holds exactly one valid UTF-8 JSON value is re-encoded with
// object keys sorted and no insignificant whitespace; numbers keep their
// literal text and strings are re-escaped uniformly. Its kind is "json".
// Any other body is returned unchanged with kind "bytes".
func CanonicalBody(contentType string, body []byte) (kind string, canon []byte) {
	if isJSON(contentType) {
		if c, err := canonicalJSON(body); err == nil {
			return "json", c
		}
	}
	return "bytes", body
}

func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	return mt == "application/json" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}

var errTrailing = errors.New("trailing data after JSON value")

// canonicalJSON re-encodes one JSON value canonically.
func canonicalJSON(body []byte) ([]byte, error) {
	if !utf8.Valid(body) {
		return nil, errors.New("invalid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errTrailing
	}
	var b bytes.Buffer
	if err := writeCanonical(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func writeCanonical(b *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if v {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case json.Number:
		b.WriteString(string(v))
	case string:
		writeString(b, v)
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeCanonical(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			if err := writeCanonical(b, v[k]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		return fmt.Errorf("unexpected JSON value %T", v)
	}
	return nil
}

// writeString writes s as a JSON string: only ", \ and control characters
// are escaped, everything else is written as UTF-8.
func writeString(b *bytes.Buffer, s string) {
	const hexd = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hexd[c>>4])
			b.WriteByte(hexd[c&0xf])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}
