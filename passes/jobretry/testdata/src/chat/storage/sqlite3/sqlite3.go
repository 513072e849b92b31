// Package sqlite3 implements the tables with statements prepared one by
// one, and builds the shared database itself, as dendrite's
// userapi/storage/sqlite3 does.
package sqlite3

import (
	"context"
	"database/sql"

	"chat/sqlutil"
	"chat/storage/shared"
	"chat/storage/tables"
)

const sendToDeviceSchema = `
CREATE TABLE IF NOT EXISTS syncapi_send_to_device (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	user_id TEXT NOT NULL,
	device_id TEXT NOT NULL,
	content TEXT NOT NULL
);`

// A text primary key the INSERT supplies: a natural key.
const receiptsSchema = `
CREATE TABLE IF NOT EXISTS syncapi_receipts (
	event_id TEXT PRIMARY KEY,
	room_id TEXT NOT NULL,
	user_id TEXT NOT NULL
);`

type sendToDeviceStatements struct {
	insertStmt *sql.Stmt // want insertStmt:`prepared\(syncapi_send_to_device\)`
}

func NewSqliteSendToDeviceTable(db *sql.DB) (tables.SendToDevice, error) { // want NewSqliteSendToDeviceTable:`builds\(InsertSendToDeviceMessage: syncapi_send_to_device\)`
	if _, err := db.Exec(sendToDeviceSchema); err != nil {
		return nil, err
	}
	var s sendToDeviceStatements
	var err error
	if s.insertStmt, err = db.PrepareContext(context.Background(), "INSERT INTO syncapi_send_to_device (user_id, device_id, content) VALUES ($1, $2, $3)"); err != nil {
		return nil, err
	}
	return &s, nil
}

func (s *sendToDeviceStatements) InsertSendToDeviceMessage(ctx context.Context, txn *sql.Tx, userID, deviceID, content string) (int64, error) { // want InsertSendToDeviceMessage:`inserts\(syncapi_send_to_device\)`
	stmt := sqlutil.TxStmt(txn, s.insertStmt)
	res, err := stmt.ExecContext(ctx, userID, deviceID, content)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

type receiptStatements struct {
	insertStmt *sql.Stmt
}

func NewSqliteReceiptsTable(db *sql.DB) (tables.Receipts, error) {
	if _, err := db.Exec(receiptsSchema); err != nil {
		return nil, err
	}
	r := &receiptStatements{}
	var err error
	r.insertStmt, err = db.Prepare("INSERT INTO syncapi_receipts (room_id, user_id, event_id) VALUES ($1, $2, $3)")
	return r, err
}

func (r *receiptStatements) UpsertReceipt(ctx context.Context, txn *sql.Tx, roomID, userID, eventID string) (int64, error) {
	_, err := sqlutil.TxStmt(txn, r.insertStmt).ExecContext(ctx, roomID, userID, eventID)
	return 0, err
}

func NewDatabase(db *sql.DB, writer sqlutil.Writer, notifications tables.Notifications, presence tables.Presence) (*shared.Database, error) { // want NewDatabase:`builds\(StoreNewSendForDeviceMessage: syncapi_send_to_device\)`
	sendToDevice, err := NewSqliteSendToDeviceTable(db)
	if err != nil {
		return nil, err
	}
	receipts, err := NewSqliteReceiptsTable(db)
	if err != nil {
		return nil, err
	}
	return &shared.Database{
		DB:            db,
		Writer:        writer,
		SendToDevice:  sendToDevice,
		Receipts:      receipts,
		Notifications: notifications,
		Presence:      presence,
	}, nil
}
