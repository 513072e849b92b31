package idempotency

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"mime"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
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
	c := canonicalizers.Get().(*canonicalizer)
	defer c.release()
	kind, canon := "bytes", body
	if isJSON(contentType) {
		if out, err := c.canonical(body); err == nil {
			kind, canon = "json", out
		}
	}
	q := rawQuery
	if rawQuery != "" {
		if vals, err := url.ParseQuery(rawQuery); err == nil {
			q = vals.Encode() // sorted by key, values in order
		}
	}
	// The hashed bytes, in c's scratch buffer: one Sum256, no allocation
	// but the result's.
	b := append(c.tmp[:0], 'i', 'd', 'e', 'm', 'f', 'p', FingerprintVersion)
	for _, part := range [...]string{method, path, q, kind} {
		b = binary.BigEndian.AppendUint64(b, uint64(len(part)))
		b = append(b, part...)
	}
	b = binary.BigEndian.AppendUint64(b, uint64(len(canon)))
	b = append(b, canon...)
	c.tmp = b
	sum := sha256.Sum256(b)
	return sum[:]
}

// canonicalizers keeps canonicalizers (their buffers) between
// fingerprints.
var canonicalizers = sync.Pool{New: func() any { return new(canonicalizer) }}

// release puts c back in canonicalizers, unless its buffers grew past what
// is worth keeping.
func (c *canonicalizer) release() {
	if cap(c.out) > 64<<10 || cap(c.tmp) > 64<<10 {
		return
	}
	c.in = nil
	canonicalizers.Put(c)
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
	switch contentType {
	case "application/json", "application/json; charset=utf-8":
		return true
	case "":
		return false
	}
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	return mt == "application/json" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}

var errTrailing = errors.New("trailing data after JSON value")

// maxJSONDepth is encoding/json's nesting limit, kept so that the same
// bodies are JSON.
const maxJSONDepth = 10000

// canonicalJSON re-encodes one JSON value canonically (see CanonicalBody).
// It accepts what encoding/json's Decoder accepts (one value, then only
// whitespace) and writes what decoding into any and re-encoding with
// sorted keys wrote: a duplicate key keeps its last value, a lone UTF-16
// surrogate escape becomes U+FFFD.
func canonicalJSON(body []byte) ([]byte, error) {
	return new(canonicalizer).canonical(body)
}

// canonical returns body's canonical form, in c's buffer (valid until c's
// next use).
func (c *canonicalizer) canonical(body []byte) ([]byte, error) {
	if !utf8.Valid(body) {
		return nil, errors.New("invalid UTF-8")
	}
	c.in, c.i, c.out, c.members = body, 0, c.out[:0], c.members[:0]
	c.space()
	if err := c.value(0); err != nil {
		return nil, err
	}
	c.space()
	if c.i != len(c.in) {
		return nil, errTrailing
	}
	return c.out, nil
}

type canonicalizer struct {
	in  []byte
	i   int
	out []byte
	// members is scratch for objects' member spans, shared by all depths
	// (each object uses the part past its parent's).
	members []member
	tmp     []byte
}

// member is an object member written to out: its key, decoded, is
// out[key:val] minus the quotes' re-escaping; the member runs from start
// to end.
type member struct {
	start, keyEnd, end int
}

var errSyntax = errors.New("invalid JSON")

func (c *canonicalizer) space() {
	for c.i < len(c.in) {
		switch c.in[c.i] {
		case ' ', '\t', '\n', '\r':
			c.i++
		default:
			return
		}
	}
}

func (c *canonicalizer) value(depth int) error {
	if depth >= maxJSONDepth {
		return errors.New("exceeded max depth")
	}
	if c.i >= len(c.in) {
		return errSyntax
	}
	switch b := c.in[c.i]; {
	case b == '{':
		return c.object(depth)
	case b == '[':
		return c.array(depth)
	case b == '"':
		return c.str()
	case b == 't':
		return c.literal("true")
	case b == 'f':
		return c.literal("false")
	case b == 'n':
		return c.literal("null")
	case b == '-' || ('0' <= b && b <= '9'):
		return c.number()
	}
	return errSyntax
}

func (c *canonicalizer) literal(lit string) error {
	if len(c.in)-c.i < len(lit) || string(c.in[c.i:c.i+len(lit)]) != lit {
		return errSyntax
	}
	c.i += len(lit)
	c.out = append(c.out, lit...)
	return nil
}

// number copies a number literal after checking its grammar.
func (c *canonicalizer) number() error {
	start := c.i
	in := c.in
	i := c.i
	if in[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(in) && '0' <= in[i] && in[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(in) && in[i] == '0':
		i++
	case digits() == 0:
		return errSyntax
	}
	if i < len(in) && in[i] == '.' {
		i++
		if digits() == 0 {
			return errSyntax
		}
	}
	if i < len(in) && (in[i] == 'e' || in[i] == 'E') {
		i++
		if i < len(in) && (in[i] == '+' || in[i] == '-') {
			i++
		}
		if digits() == 0 {
			return errSyntax
		}
	}
	c.i = i
	c.out = append(c.out, in[start:i]...)
	return nil
}

// str decodes a string and writes it re-escaped (see appendRune).
func (c *canonicalizer) str() error {
	c.i++ // the opening quote
	c.out = append(c.out, '"')
	for {
		if c.i >= len(c.in) {
			return errSyntax
		}
		b := c.in[c.i]
		switch {
		case b == '"':
			c.i++
			c.out = append(c.out, '"')
			return nil
		case b < 0x20:
			return errSyntax
		case b != '\\':
			// A run of plain bytes (valid UTF-8: checked up front).
			j := c.i + 1
			for j < len(c.in) && c.in[j] != '"' && c.in[j] != '\\' && c.in[j] >= 0x20 {
				j++
			}
			c.out = append(c.out, c.in[c.i:j]...)
			c.i = j
			continue
		}
		if c.i+1 >= len(c.in) {
			return errSyntax
		}
		e := c.in[c.i+1]
		c.i += 2
		switch e {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			c.appendRune(rune(unescape[e]))
		case 'u':
			r, ok := c.hex4()
			if !ok {
				return errSyntax
			}
			if utf16.IsSurrogate(r) {
				// A pair when a low surrogate escape follows, else U+FFFD.
				r2 := rune(-1)
				if c.i+1 < len(c.in) && c.in[c.i] == '\\' && c.in[c.i+1] == 'u' {
					save := c.i
					c.i += 2
					var ok2 bool
					if r2, ok2 = c.hex4(); !ok2 {
						return errSyntax
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						r = dec
					} else {
						c.i = save // not a pair: the second escape stands alone
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			}
			c.appendRune(r)
		default:
			return errSyntax
		}
	}
}

// unescape maps a one-letter escape to its byte.
var unescape = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

func (c *canonicalizer) hex4() (rune, bool) {
	if len(c.in)-c.i < 4 {
		return 0, false
	}
	var r rune
	for _, h := range c.in[c.i : c.i+4] {
		switch {
		case '0' <= h && h <= '9':
			h -= '0'
		case 'a' <= h && h <= 'f':
			h -= 'a' - 10
		case 'A' <= h && h <= 'F':
			h -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(h)
	}
	c.i += 4
	return r, true
}

// appendRune writes r canonically: ", \ and control characters escaped,
// everything else as UTF-8.
func (c *canonicalizer) appendRune(r rune) {
	const hexd = "0123456789abcdef"
	switch {
	case r == '"' || r == '\\':
		c.out = append(c.out, '\\', byte(r))
	case r < 0x20:
		c.out = append(c.out, '\\', 'u', '0', '0', hexd[r>>4], hexd[r&0xf])
	default:
		c.out = utf8.AppendRune(c.out, r)
	}
}

// opens consumes and writes the opening bracket at c.i; when the array or object is empty, it consumes
// and writes its closing bracket too and reports true.
func (c *canonicalizer) opens(open, end byte) (empty bool) {
	c.i++
	c.out = append(c.out, open)
	c.space()
	if c.i < len(c.in) && c.in[c.i] == end {
		c.i++
		c.out = append(c.out, end)
		return true
	}
	return false
}

func (c *canonicalizer) array(depth int) error {
	if c.opens('[', ']') {
		return nil
	}
	for {
		c.space()
		if err := c.value(depth + 1); err != nil {
			return err
		}
		c.space()
		if c.i >= len(c.in) {
			return errSyntax
		}
		switch c.in[c.i] {
		case ',':
			c.i++
			c.out = append(c.out, ',')
		case ']':
			c.i++
			c.out = append(c.out, ']')
			return nil
		default:
			return errSyntax
		}
	}
}

// object writes the members as they come, then sorts them by key when
// they are not in order, and drops all but the last of a duplicate key.
func (c *canonicalizer) object(depth int) error {
	open := len(c.out)
	if c.opens('{', '}') {
		return nil
	}
	base := len(c.members)
	defer func() { c.members = c.members[:base] }()
	for {
		c.space()
		if c.i >= len(c.in) || c.in[c.i] != '"' {
			return errSyntax
		}
		m := member{start: len(c.out)}
		if err := c.str(); err != nil {
			return err
		}
		m.keyEnd = len(c.out)
		c.space()
		if c.i >= len(c.in) || c.in[c.i] != ':' {
			return errSyntax
		}
		c.i++
		c.out = append(c.out, ':')
		c.space()
		if err := c.value(depth + 1); err != nil {
			return err
		}
		m.end = len(c.out)
		c.members = append(c.members, m)
		c.space()
		if c.i >= len(c.in) {
			return errSyntax
		}
		if c.in[c.i] == ',' {
			c.i++
			c.out = append(c.out, ',')
			continue
		}
		if c.in[c.i] != '}' {
			return errSyntax
		}
		c.i++
		break
	}
	ms := c.members[base:]
	ordered := true
	for k := 1; k < len(ms); k++ {
		if compareKeys(c.out, ms[k-1], c.out, ms[k]) >= 0 {
			ordered = false
			break
		}
	}
	if !ordered {
		slices.SortStableFunc(ms, func(a, b member) int { return compareKeys(c.out, a, c.out, b) })
		c.tmp = append(c.tmp[:0], c.out[open+1:]...)
		c.out = c.out[:open+1]
		shift := open + 1
		for k, m := range ms {
			if k+1 < len(ms) && compareKeys(c.tmp, shifted(m, shift), c.tmp, shifted(ms[k+1], shift)) == 0 {
				continue // a later duplicate wins
			}
			if len(c.out) > open+1 {
				c.out = append(c.out, ',')
			}
			c.out = append(c.out, c.tmp[m.start-shift:m.end-shift]...)
		}
	}
	c.out = append(c.out, '}')
	return nil
}

// compareKeys compares the keys of members a (in abuf) and b (in bbuf) as
// decoded strings, the order of encoding/json's sorted map keys.
func compareKeys(abuf []byte, a member, bbuf []byte, b member) int {
	ka, kb := abuf[a.start+1:a.keyEnd-1], bbuf[b.start+1:b.keyEnd-1]
	if bytes.IndexByte(ka, '\\') < 0 && bytes.IndexByte(kb, '\\') < 0 {
		return bytes.Compare(ka, kb)
	}
	return strings.Compare(decodedKey(ka), decodedKey(kb))
}

func shifted(m member, by int) member {
	return member{start: m.start - by, keyEnd: m.keyEnd - by, end: m.end - by}
}

// decodedKey returns a canonical key with its escapes undone (only \",
// \\ and \u00XX appear in it).
func decodedKey(k []byte) string {
	var b strings.Builder
	for i := 0; i < len(k); i++ {
		if k[i] != '\\' {
			b.WriteByte(k[i])
			continue
		}
		i++
		if k[i] == 'u' {
			v, _ := strconv.ParseUint(string(k[i+1:i+5]), 16, 8)
			b.WriteByte(byte(v))
			i += 4
			continue
		}
		b.WriteByte(k[i])
	}
	return b.String()
}
