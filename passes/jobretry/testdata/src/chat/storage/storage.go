// Package storage declares the storage interface the consumers call, and
// the constructor that builds it from the postgres or the sqlite3
// package: the package that resolves the interface's methods.
package storage

import (
	"context"
	"database/sql"
	"errors"

	"chat/sqlutil"
	"chat/storage/postgres"
	"chat/storage/sqlite3"
	"chat/storage/tables"
)

// Notification is embedded in Database, as dendrite's userapi embeds it
// in UserDatabase.
type Notification interface {
	InsertNotification(ctx context.Context, localpart, roomID, eventID string) error // want InsertNotification:`inserts\(userapi_notifications\)`
	SetNotificationsRead(ctx context.Context, localpart, roomID string, pos int64) (bool, error)
}

type Database interface {
	Notification
	StoreNewSendForDeviceMessage(ctx context.Context, userID, deviceID, content string) (int64, error) // want StoreNewSendForDeviceMessage:`inserts\(syncapi_send_to_device\)`
	StoreReceipt(ctx context.Context, roomID, userID, eventID string) (int64, error)
	UpdatePresence(ctx context.Context, userID, presence string) error
}

func NewDatabase(kind string, db *sql.DB, writer sqlutil.Writer, n tables.Notifications, p tables.Presence) (Database, error) { // want NewDatabase:`builds\(InsertNotification: userapi_notifications; StoreNewSendForDeviceMessage: syncapi_send_to_device\)`
	switch kind {
	case "postgres":
		return postgres.NewDatabase(db, writer)
	case "sqlite3":
		return sqlite3.NewDatabase(db, writer, n, p)
	}
	return nil, errors.New("unknown database")
}
