package idempotency

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
)

func TestNewKey(t *testing.T) {
	seen := make(map[string]bool)
	re := regexp.MustCompile(`^[0-9a-f]{32}$`)
	for range 1000 {
		k := NewKey()
		if !re.MatchString(k) {
			t.Fatalf("NewKey() = %q, want 32 hex characters", k)
		}
		if seen[k] {
			t.Fatalf("NewKey() repeated %q", k)
		}
		seen[k] = true
		if got, err := ParseKey(k); err != nil || got != k {
			t.Fatalf("ParseKey(NewKey()) = %q, %v", got, err)
		}
	}
}

func TestDerive(t *testing.T) {
	k := "order-42"
	a, b := Derive(k, "charge"), Derive(k, "charge")
	if a != b {
		t.Fatalf("Derive is not stable: %s %s", a, b)
	}
	others := []string{Derive(k, "refund"), Derive("order-43", "charge"), Derive("order-4", "2charge"), Derive(k+"charge", "")}
	for _, o := range others {
		if o == a {
			t.Fatalf("Derive collides: %s", o)
		}
	}
	if len(a) != 64 {
		t.Fatalf("len(Derive) = %d, want 64", len(a))
	}
	if _, err := ParseKey(Derive(strings.Repeat("k", 255), strings.Repeat("s", 1000))); err != nil {
		t.Fatalf("derived key is not a valid key: %v", err)
	}
}

func TestParseKey(t *testing.T) {
	good := map[string]string{
		"abc":                                "abc",
		"  abc\t":                            "abc",
		`"abc"`:                              "abc",
		`"a\"b\\c"`:                          `a"b\c`,
		`"has space"`:                        "has space",
		"a b":                                "a b",
		strings.Repeat("x", 255):             strings.Repeat("x", 255),
		`"` + strings.Repeat("x", 255) + `"`: strings.Repeat("x", 255),
		"~!@#$%^&*()_+{}|:<>?":               "~!@#$%^&*()_+{}|:<>?",
		`"a, b"`:                             "a, b",
	}
	for in, want := range good {
		got, err := ParseKey(in)
		if err != nil || got != want {
			t.Errorf("ParseKey(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	bad := []string{"", "   ", `""`, `"abc`, `"a\b"`, `"abc";x=1`, `"abc" x`, `"a` + "\x7f" + `"`,
		strings.Repeat("x", 256), `"` + strings.Repeat("x", 256) + `"`, "\u00e9t\u00e9", "a\nb", "a\x00",
		"a, b", "a,b", `"a", "b"`}
	for _, in := range bad {
		if got, err := ParseKey(in); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("ParseKey(%q) = %q, %v; want ErrInvalidKey", in, got, err)
		}
	}
}

// CheckScope refuses what a store cannot hold, before the store sees it.
func TestCheckScope(t *testing.T) {
	for _, ok := range []string{"", "acct_1", "\u00e9t\u00e9", strings.Repeat("x", MaxScopeLen)} {
		if err := CheckScope(ok); err != nil {
			t.Errorf("CheckScope(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"\xff", "a\x00b", strings.Repeat("x", MaxScopeLen+1)} {
		if err := CheckScope(bad); !errors.Is(err, ErrInvalidScope) {
			t.Errorf("CheckScope(%.20q) = %v, want ErrInvalidScope", bad, err)
		}
	}
}

func FuzzParseKey(f *testing.F) {
	for _, s := range []string{"abc", `"abc"`, `"a\"b"`, `"a\\"`, "", `"`, `""`, "\xff", strings.Repeat("k", 256), ` "x" `, `"x";a`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		k, err := ParseKey(in)
		if err != nil {
			if !errors.Is(err, ErrInvalidKey) {
				t.Fatalf("error %v does not wrap ErrInvalidKey", err)
			}
			return
		}
		if len(k) < 1 || len(k) > MaxKeyLen {
			t.Fatalf("accepted key of length %d", len(k))
		}
		for i := 0; i < len(k); i++ {
			if k[i] < 0x20 || k[i] > 0x7e {
				t.Fatalf("accepted non-printable byte %#x", k[i])
			}
		}
		// The sf-string form parses back to the same key.
		if k2, err := ParseKey(FormatKey(k)); err != nil || k2 != k {
			t.Fatalf("ParseKey(FormatKey(%q)) = %q, %v", k, k2, err)
		}
	})
}

func TestCanonicalBody(t *testing.T) {
	cases := []struct{ ct, in, kind, want string }{
		{"application/json", `{ "b": 1, "a": [true, null, "x"] }`, "json", `{"a":[true,null,"x"],"b":1}`},
		{"application/json; charset=utf-8", `{"z":{"y":1,"x":2}}`, "json", `{"z":{"x":2,"y":1}}`},
		{"application/merge-patch+json", ` 1.50 `, "json", `1.50`},
		{"application/json", `{"s":"<\u00e9>\n\"\\"}`, "json", `{"s":"<é>\u000a\"\\"}`},
		{"application/json", `{"a":1} trailing`, "bytes", `{"a":1} trailing`},
		{"application/json", `{"a":`, "bytes", `{"a":`},
		{"text/plain", `{"b":1,"a":2}`, "bytes", `{"b":1,"a":2}`},
		{"", `x`, "bytes", `x`},
	}
	for _, c := range cases {
		kind, got := CanonicalBody(c.ct, []byte(c.in))
		if kind != c.kind || string(got) != c.want {
			t.Errorf("CanonicalBody(%q, %q) = %s %q; want %s %q", c.ct, c.in, kind, got, c.kind, c.want)
		}
	}
}

func TestFingerprint(t *testing.T) {
	const ct = "application/json"
	base := Fingerprint("POST", "/payments", "", ct, []byte(`{"a":1,"b":2}`))
	if len(base) != 32 {
		t.Fatalf("len = %d, want 32", len(base))
	}
	same := [][]byte{
		Fingerprint("POST", "/payments", "", ct, []byte(`{ "b":2, "a":1 }`)),
		Fingerprint("POST", "/payments", "", ct+"; charset=utf-8", []byte("{\"a\":1,\n\"b\":2}")),
	}
	for i, fp := range same {
		if !bytes.Equal(fp, base) {
			t.Errorf("same request %d has another fingerprint", i)
		}
	}
	if !bytes.Equal(Fingerprint("POST", "/p", "b=2&a=1", "", nil), Fingerprint("POST", "/p", "a=1&b=2", "", nil)) {
		t.Errorf("query order changes the fingerprint")
	}
	differ := [][]byte{
		Fingerprint("PATCH", "/payments", "", ct, []byte(`{"a":1,"b":2}`)),
		Fingerprint("POST", "/payments/x", "", ct, []byte(`{"a":1,"b":2}`)),
		Fingerprint("POST", "/payments", "a=1", ct, []byte(`{"a":1,"b":2}`)),
		Fingerprint("POST", "/payments", "", ct, []byte(`{"a":1,"b":3}`)),
		Fingerprint("POST", "/payments", "", "text/plain", []byte(`{"a":1,"b":2}`)), // bytes vs json kind
		Fingerprint("POST", "/payment", "s", ct, []byte(`{"a":1,"b":2}`)),           // length prefixes
	}
	for i, fp := range differ {
		if bytes.Equal(fp, base) {
			t.Errorf("different request %d has the same fingerprint", i)
		}
	}
}

func FuzzCanonicalBody(f *testing.F) {
	for _, s := range []string{`{"b":1,"a":2}`, `[1, 2.50, -0, 1e3]`, `"\u00e9\ud83d\ude00"`, `{"a":{"c":[],"b":{}}}`,
		`null`, ` true `, `{"a":1,"a":2}`, `"\ud800"`, "\"\xff\"", `{"<":"&"}`, `1 2`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		kind, canon := CanonicalBody("application/json", body)
		if kind == "bytes" {
			if !bytes.Equal(canon, body) {
				t.Fatalf("non-JSON body changed")
			}
			return
		}
		if !json.Valid(canon) {
			t.Fatalf("canonical form %q is not valid JSON", canon)
		}
		// Canonicalisation is idempotent.
		kind2, canon2 := CanonicalBody("application/json", canon)
		if kind2 != "json" || !bytes.Equal(canon, canon2) {
			t.Fatalf("not idempotent: %q -> %q", canon, canon2)
		}
		// And preserves the value.
		var v1, v2 any
		if json.Unmarshal(body, &v1) != nil || json.Unmarshal(canon, &v2) != nil {
			t.Fatalf("unmarshal failed")
		}
		b1, _ := json.Marshal(v1)
		b2, _ := json.Marshal(v2)
		if !bytes.Equal(b1, b2) {
			t.Fatalf("value changed: %s -> %s", b1, b2)
		}
	})
}
