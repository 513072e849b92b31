// Package store keeps, as dendrite's federationapi and syncapi storage do,
// the queue of JSON blobs the federation sender delivers (rows deleted once
// sent) and the invites of the sync stream (rows that last).
package store

import (
	"context"
	"database/sql"

	"github.com/matrix-org/gomatrixserverlib"
)

const schema = `
CREATE TABLE IF NOT EXISTS federationsender_queue_json (
	-- The JSON NID, so that the queue tables can refer to the blob.
	json_nid BIGSERIAL PRIMARY KEY,
	json_body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS federationsender_queue_edus (
	edu_type TEXT NOT NULL,
	server_name TEXT NOT NULL,
	json_nid BIGINT NOT NULL,
	expires_at BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS syncapi_invite_events (
	id BIGSERIAL PRIMARY KEY,
	event_id TEXT NOT NULL,
	room_id TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS syncapi_invites_event_id_idx ON syncapi_invite_events (event_id);
`

const insertJSONSQL = "INSERT INTO federationsender_queue_json (json_body) VALUES ($1) RETURNING json_nid"

// Once sent, the blobs are deleted by their ids.
const deleteJSONSQL = "" +
	"DELETE FROM federationsender_queue_json" +
	" WHERE json_nid IN ($1)"

const insertQueueEDUSQL = "INSERT INTO federationsender_queue_edus (edu_type, server_name, json_nid, expires_at) VALUES ($1, $2, $3, $4)"

// The queue's rows are deleted once sent.
const deleteQueueEDUSQL = "DELETE FROM federationsender_queue_edus WHERE server_name = $1 AND json_nid = ANY($2)"

const insertInviteSQL = "INSERT INTO syncapi_invite_events (event_id, room_id) VALUES ($1, $2) RETURNING id"

// A purge of a room's invites by a key is no delivery: the table lasts.
const purgeInvitesSQL = "DELETE FROM syncapi_invite_events WHERE room_id = $1"

type Database struct {
	db *sql.DB
}

func Open(db *sql.DB) (*Database, error) { // want Open:`builds\(AddInviteEvent: syncapi_invite_events; QueueEDU: federationsender_queue_edus; StoreJSON: federationsender_queue_json\)`
	_, err := db.Exec(schema)
	return &Database{db: db}, err
}

// A new blob per call, deleted once delivered.
func (d *Database) StoreJSON(ctx context.Context, body string) (nid int64, err error) { // want StoreJSON:`inserts\(federationsender_queue_json\)`
	err = d.db.QueryRowContext(ctx, insertJSONSQL, body).Scan(&nid)
	return
}

func (d *Database) QueueEDU(ctx context.Context, eduType, server string, nid int64) error { // want QueueEDU:`inserts\(federationsender_queue_edus\)`
	_, err := d.db.ExecContext(ctx, insertQueueEDUSQL, eduType, server, nid, 0)
	return err
}

func (d *Database) CleanJSON(ctx context.Context, nids []int64) error {
	_, err := d.db.ExecContext(ctx, deleteJSONSQL, nids)
	return err
}

func (d *Database) CleanEDUs(ctx context.Context, server string, nids []int64) error {
	_, err := d.db.ExecContext(ctx, deleteQueueEDUSQL, server, nids)
	return err
}

// A row per call whatever the event: a second call for the same event adds
// a second invite to the stream.
func (d *Database) AddInviteEvent(ctx context.Context, ev gomatrixserverlib.PDU) (id int64, err error) { // want AddInviteEvent:`inserts\(syncapi_invite_events\)`
	err = d.db.QueryRowContext(ctx, insertInviteSQL, ev.EventID(), ev.RoomID()).Scan(&id)
	return
}

func (d *Database) PurgeInvites(ctx context.Context, roomID string) error {
	_, err := d.db.ExecContext(ctx, purgeInvitesSQL, roomID)
	return err
}
