// Package postgres implements the tables with statements prepared through
// sqlutil.StatementList, as dendrite's syncapi/storage/postgres does.
package postgres

import (
	"context"
	"database/sql"

	"chat/sqlutil"
	"chat/storage/tables"
)

const schema = `
CREATE SEQUENCE IF NOT EXISTS syncapi_send_to_device_id;
CREATE TABLE IF NOT EXISTS syncapi_send_to_device (
	-- The ID that uniquely identifies this message: a comment, no constraint.
	id BIGINT PRIMARY KEY DEFAULT nextval('syncapi_send_to_device_id'),
	user_id TEXT NOT NULL,
	device_id TEXT NOT NULL,
	content TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS syncapi_receipts (
	id BIGINT PRIMARY KEY DEFAULT nextval('syncapi_receipts_id'),
	room_id TEXT NOT NULL,
	user_id TEXT NOT NULL,
	event_id TEXT NOT NULL,
	CONSTRAINT syncapi_receipts_unique UNIQUE (room_id, user_id)
);
CREATE TABLE IF NOT EXISTS userapi_notifications (
	id BIGSERIAL PRIMARY KEY,
	localpart TEXT NOT NULL,
	room_id TEXT NOT NULL,
	event_id TEXT NOT NULL,
	stream_pos BIGINT NOT NULL DEFAULT 0,
	read BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE TABLE IF NOT EXISTS syncapi_presence (
	id BIGSERIAL PRIMARY KEY,
	user_id TEXT NOT NULL UNIQUE,
	presence TEXT NOT NULL
);
`

const insertSendToDeviceMessageSQL = `
	INSERT INTO syncapi_send_to_device (user_id, device_id, content)
	  VALUES ($1, $2, $3)
	  RETURNING id
`

const selectSendToDeviceMessagesSQL = `SELECT id, content FROM syncapi_send_to_device WHERE user_id = $1 AND device_id = $2`

type sendToDeviceStatements struct {
	insertSendToDeviceMessageStmt  *sql.Stmt // want insertSendToDeviceMessageStmt:`prepared\(syncapi_send_to_device\)`
	selectSendToDeviceMessagesStmt *sql.Stmt
}

func NewPostgresSendToDeviceTable(db *sql.DB) (tables.SendToDevice, error) { // want NewPostgresSendToDeviceTable:`builds\(InsertSendToDeviceMessage: syncapi_send_to_device\)`
	s := &sendToDeviceStatements{}
	if _, err := db.Exec(schema); err != nil {
		return nil, err
	}
	return s, sqlutil.StatementList{
		{&s.insertSendToDeviceMessageStmt, insertSendToDeviceMessageSQL},
		{&s.selectSendToDeviceMessagesStmt, selectSendToDeviceMessagesSQL},
	}.Prepare(db)
}

// A row per call, its id from a sequence: a second call adds a second row.
func (s *sendToDeviceStatements) InsertSendToDeviceMessage(ctx context.Context, txn *sql.Tx, userID, deviceID, content string) (pos int64, err error) { // want InsertSendToDeviceMessage:`inserts\(syncapi_send_to_device\)`
	err = sqlutil.TxStmt(txn, s.insertSendToDeviceMessageStmt).QueryRowContext(ctx, userID, deviceID, content).Scan(&pos)
	return
}

// An upsert: a second call rewrites the row.
const upsertReceiptSQL = `INSERT INTO syncapi_receipts (room_id, user_id, event_id) VALUES ($1, $2, $3)
	ON CONFLICT (room_id, user_id) DO UPDATE SET event_id = $3 RETURNING id`

type receiptStatements struct {
	upsertReceipt *sql.Stmt
}

func NewPostgresReceiptsTable(db *sql.DB) (tables.Receipts, error) {
	r := &receiptStatements{}
	return r, sqlutil.StatementList{
		{Statement: &r.upsertReceipt, SQL: upsertReceiptSQL},
	}.Prepare(db)
}

func (r *receiptStatements) UpsertReceipt(ctx context.Context, txn *sql.Tx, roomID, userID, eventID string) (pos int64, err error) {
	err = sqlutil.TxStmt(txn, r.upsertReceipt).QueryRowContext(ctx, roomID, userID, eventID).Scan(&pos)
	return
}

const insertNotificationSQL = "INSERT INTO userapi_notifications (localpart, room_id, event_id) VALUES ($1, $2, $3)"

// A guarded UPDATE: a second call changes nothing.
const updateNotificationReadSQL = "UPDATE userapi_notifications SET read = TRUE WHERE localpart = $1 AND room_id = $2 AND stream_pos <= $3 AND NOT read"

type notificationsStatements struct {
	insertStmt     *sql.Stmt // want insertStmt:`prepared\(userapi_notifications\)`
	updateReadStmt *sql.Stmt
}

func NewPostgresNotificationTable(db *sql.DB) (tables.Notifications, error) { // want NewPostgresNotificationTable:`builds\(Insert: userapi_notifications\)`
	s := &notificationsStatements{}
	return s, sqlutil.StatementList{
		{&s.insertStmt, insertNotificationSQL},
		{&s.updateReadStmt, updateNotificationReadSQL},
	}.Prepare(db)
}

func (s *notificationsStatements) Insert(ctx context.Context, txn *sql.Tx, localpart, roomID, eventID string) error { // want Insert:`inserts\(userapi_notifications\)`
	_, err := sqlutil.TxStmt(txn, s.insertStmt).ExecContext(ctx, localpart, roomID, eventID)
	return err
}

func (s *notificationsStatements) UpdateRead(ctx context.Context, txn *sql.Tx, localpart, roomID string, pos int64) (bool, error) {
	res, err := sqlutil.TxStmt(txn, s.updateReadStmt).ExecContext(ctx, localpart, roomID, pos)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// A natural key (user_id UNIQUE): a second INSERT fails on it.
const insertPresenceSQL = "INSERT INTO syncapi_presence (user_id, presence) VALUES ($1, $2)"

type presenceStatements struct {
	insertPresenceStmt *sql.Stmt
}

func NewPostgresPresenceTable(db *sql.DB) (tables.Presence, error) {
	p := &presenceStatements{}
	var err error
	if p.insertPresenceStmt, err = db.Prepare(insertPresenceSQL); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *presenceStatements) UpsertPresence(ctx context.Context, txn *sql.Tx, userID, presence string) error {
	_, err := sqlutil.TxStmt(txn, p.insertPresenceStmt).ExecContext(ctx, userID, presence)
	return err
}
