package jobretry

import "testing"

// TestClaims lists the INSERTs that claim a key (a conflict leaves the row
// out: 0 rows affected, no row returned) and those that do not.
func TestClaims(t *testing.T) {
	for q, want := range map[string]bool{
		`INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING`:                                              true,
		`insert into inbox (message_id) values ($1) on conflict (message_id) do nothing returning 1`:                     true,
		"INSERT INTO inbox (id)\n  SELECT $1 WHERE NOT EXISTS (SELECT 1 FROM inbox WHERE id = $1)":                       true,
		`INSERT IGNORE INTO inbox (message_id) VALUES (?)`:                                                               true,
		`INSERT OR IGNORE INTO inbox (message_id) VALUES (?)`:                                                            true,
		`-- claim` + "\n" + `INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT ON CONSTRAINT inbox_pkey DO NOTHING`: true,
		// an upsert affects a row on a conflict too
		`INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT (message_id) DO UPDATE SET seen = now()`: false,
		`INSERT INTO inbox (message_id) VALUES ($1)`:                                                     false,
		`INSERT INTO inbox (message_id) VALUES (?) ON DUPLICATE KEY UPDATE seen = NOW()`:                 false,
		`SELECT 1 FROM inbox WHERE message_id = $1`:                                                      false,
		`UPDATE inbox SET seen = now() WHERE message_id = $1 /* ON CONFLICT DO NOTHING */`:               false,
	} {
		if got := claims(q); got != want {
			t.Errorf("claims(%q) = %v, want %v", q, got, want)
		}
	}
}

// TestLookups lists the queries whose scanned value (EXISTS, count) or
// row (columns, no aggregate) says whether a key was stored.
func TestLookups(t *testing.T) {
	for q, want := range map[string]string{
		`SELECT EXISTS (SELECT 1 FROM processed_messages WHERE id = $1)`:  "EXISTS",
		`select exists(select 1 from processed where id = $1)`:            "EXISTS",
		`SELECT count(*) FROM processed_messages WHERE id = $1`:           "COUNT",
		`SELECT message_id FROM processed_messages WHERE message_id = $1`: "row",
		`SELECT 1 FROM processed WHERE id = $1`:                           "row",
		`SELECT max(seq) FROM processed WHERE id = $1`:                    "",
		`SELECT coalesce(seen, false) FROM processed WHERE id = $1`:       "",
	} {
		norm, got := normSQL(q), ""
		if m := lookupStmt().FindStringSubmatch(norm); m != nil {
			got = m[1]
		} else if rowLookup().MatchString(norm) {
			got = "row"
		}
		if got != want {
			t.Errorf("%q reads as %q, want %q", q, got, want)
		}
	}
}
