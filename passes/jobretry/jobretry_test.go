package jobretry_test

import (
	"testing"

	"github.com/idemlint/idemlint/internal/testgopath"
	"github.com/idemlint/idemlint/passes/jobretry"
)

func TestAsynq(t *testing.T) {
	testgopath.Check(t, jobretry.Analyzer, "asynqjobs", "asynqoff", "pgxjobs")
}

func TestRiver(t *testing.T) {
	testgopath.Check(t, jobretry.Analyzer, "riverjobs", "riveroff")
}

func TestTemporal(t *testing.T) {
	testgopath.Check(t, jobretry.Analyzer, "temporaljobs", "temporaloff")
}

func TestConsumers(t *testing.T) {
	testgopath.Check(t, jobretry.Analyzer, "consumerjobs", "helperjobs")
}

// TestStorage runs the check over a storage layer shaped like dendrite's:
// a storage interface built by a constructor from a postgres and a sqlite3
// package, a shared database writing through table interfaces in a
// Writer's closures, and tables running prepared statements.
func TestStorage(t *testing.T) {
	testgopath.Check(t, jobretry.Analyzer, "chat/sqlutil", "chat/storage/tables", "chat/storage/shared",
		"chat/storage/postgres", "chat/storage/sqlite3", "chat/storage", "chat/consumers")
}

// TestFederation runs the check over a federation sender shaped like
// dendrite's: units queued for delivery (rows deleted once sent) that the
// remote applies once (room events, typing, presence, device list
// updates) draw no finding; a to-device EDU, an EDU of unknown type and an
// event kept in a table that lasts do.
func TestFederation(t *testing.T) {
	testgopath.Check(t, jobretry.Analyzer, "chat/federation/store", "chat/federation/queue", "chat/federation/consumers")
}

// TestDedupe runs the check over consumers and handlers that dedupe by
// hand: a claim of the message's id whose outcome gates the effect, a
// lookup of the processed ids that returns early, a unique-keyed insert of
// the effect itself; and over the look-alikes that do not gate.
func TestDedupe(t *testing.T) {
	testgopath.Check(t, jobretry.Analyzer, "dedupejobs")
}
