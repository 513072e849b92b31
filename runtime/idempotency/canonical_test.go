package idempotency

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// canonicalJSONStd is the canonical encoding as encoding/json defines it
// (decode into any with UseNumber, re-encode with sorted keys): the
// oracle canonicalJSON must match byte for byte, since both are
// FingerprintVersion 1.
func canonicalJSONStd(body []byte) ([]byte, error) {
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
	writeCanonicalStd(&b, v)
	return b.Bytes(), nil
}

func writeCanonicalStd(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		fmt.Fprint(b, v)
	case json.Number:
		b.WriteString(string(v))
	case string:
		writeStringStd(b, v)
	case []any:
		writeListStd(b, '[', ']', len(v), func(i int) { writeCanonicalStd(b, v[i]) })
	case map[string]any:
		keys := slices.Sorted(maps.Keys(v))
		writeListStd(b, '{', '}', len(keys), func(i int) {
			writeStringStd(b, keys[i])
			b.WriteByte(':')
			writeCanonicalStd(b, v[keys[i]])
		})
	}
}

// writeListStd writes n elements (elem(i) writes the i-th) between open
// and end, separated by commas.
func writeListStd(b *bytes.Buffer, open, end byte, n int, elem func(i int)) {
	b.WriteByte(open)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		elem(i)
	}
	b.WriteByte(end)
}

func writeStringStd(b *bytes.Buffer, s string) {
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

var canonicalCases = []string{
	``, ` `, `1`, `-0`, `-0.5e+10`, `01`, `1.`, `.5`, `1e`, `-`, `+1`, `1 2`, `true`, `tru`, `nul`, `null `, ` null`,
	`"a"`, `"\u00e9\n\t\"\\\/\b\f\r"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ud83dx"`, `"\ud83d\u0041"`, `"\ude00\ud83d"`,
	`"\u0000\u001f"`, "\"\x01\"", `"\x"`, `"\u12"`, `"\u12G4"`, `"abc`, `"é☃"`,
	`{}`, `[]`, `{ }`, `[ ]`, `[1,]`, `{"a":1,}`, `{"a"}`, `{"a":}`, `{1:2}`, `[1 2]`, `{"a":1 "b":2}`,
	`{"b":1,"a":2}`, `{"a":1,"a":2}`, `{"b":[{"d":1,"c":2}],"a":{"z":null,"y":[true,false]}}`,
	`{"a":1,"b":2,"a":3}`, `{"\"":1,"A":2}`, `{"A":1,"\"":2}`, `{"\u0001":1,"A":2}`, `{"\\":1,"]":2,"\u005c":3}`,
	`{"é":1,"e":2,"\u00e9":3}`, `{"a":{"b":1,"b":2},"a":{"c":3}}`, "{\"k\"\n:\r[ 1 ,\t2 ] }", `[[[[[[]]]]]]`,
	`{"amount":1,"currency":"EUR"}`, `{"currency":"EUR","amount":1}`, "\xff", `"\xff"`, `[1] x`, `{} {}`,
}

// canonicalJSON matches the encoding/json definition on valid and invalid
// bodies alike.
func TestCanonicalJSONMatchesEncodingJSON(t *testing.T) {
	deep := strings.Repeat("[", maxJSONDepth+1) + strings.Repeat("]", maxJSONDepth+1)
	for _, in := range append(canonicalCases, deep, deep[1:len(deep)-1]) {
		checkCanonical(t, []byte(in))
	}
}

func checkCanonical(t *testing.T, in []byte) {
	t.Helper()
	want, werr := canonicalJSONStd(in)
	got, gerr := canonicalJSON(in)
	if (werr == nil) != (gerr == nil) || !bytes.Equal(got, want) {
		t.Fatalf("canonicalJSON(%.80q) = %.80q, %v; encoding/json: %.80q, %v", in, got, gerr, want, werr)
	}
}

func FuzzCanonicalJSON(f *testing.F) {
	for _, in := range canonicalCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, in []byte) { checkCanonical(t, in) })
}
