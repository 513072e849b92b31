// Package tables declares the tables the shared database writes through,
// as dendrite's syncapi/storage/tables does: the implementations are in
// packages that import shared.
package tables

import (
	"context"
	"database/sql"
)

type SendToDevice interface {
	InsertSendToDeviceMessage(ctx context.Context, txn *sql.Tx, userID, deviceID, content string) (int64, error)
}

type Receipts interface {
	UpsertReceipt(ctx context.Context, txn *sql.Tx, roomID, userID, eventID string) (int64, error)
}

type Notifications interface {
	Insert(ctx context.Context, txn *sql.Tx, localpart, roomID, eventID string) error
	UpdateRead(ctx context.Context, txn *sql.Tx, localpart, roomID string, pos int64) (bool, error)
}

type Presence interface {
	UpsertPresence(ctx context.Context, txn *sql.Tx, userID, presence string) error
}
