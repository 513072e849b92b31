// Package shared is the one implementation of the storage interfaces: it
// writes through the tables' interfaces, in closures its Writer runs.
package shared

import (
	"context"
	"database/sql"

	"chat/sqlutil"
	"chat/storage/tables"
)

type Database struct {
	DB            *sql.DB
	Writer        sqlutil.Writer
	SendToDevice  tables.SendToDevice
	Receipts      tables.Receipts
	Notifications tables.Notifications
	Presence      tables.Presence
}

func (d *Database) StoreNewSendForDeviceMessage(ctx context.Context, userID, deviceID, content string) (pos int64, err error) { // want StoreNewSendForDeviceMessage:`calls\(Writer\.Do, SendToDevice\.InsertSendToDeviceMessage\)`
	err = d.Writer.Do(d.DB, nil, func(txn *sql.Tx) error {
		pos, err = d.SendToDevice.InsertSendToDeviceMessage(ctx, txn, userID, deviceID, content)
		return err
	})
	return pos, err
}

func (d *Database) StoreReceipt(ctx context.Context, roomID, userID, eventID string) (pos int64, err error) { // want StoreReceipt:`calls\(Writer\.Do, Receipts\.UpsertReceipt\)`
	err = d.Writer.Do(d.DB, nil, func(txn *sql.Tx) error {
		pos, err = d.Receipts.UpsertReceipt(ctx, txn, roomID, userID, eventID)
		return err
	})
	return pos, err
}

func (d *Database) InsertNotification(ctx context.Context, localpart, roomID, eventID string) error { // want InsertNotification:`calls\(Writer\.Do, Notifications\.Insert\)`
	return d.Writer.Do(d.DB, nil, func(txn *sql.Tx) error {
		return d.Notifications.Insert(ctx, txn, localpart, roomID, eventID)
	})
}

func (d *Database) SetNotificationsRead(ctx context.Context, localpart, roomID string, pos int64) (affected bool, err error) { // want SetNotificationsRead:`calls\(Writer\.Do, Notifications\.UpdateRead\)`
	err = d.Writer.Do(d.DB, nil, func(txn *sql.Tx) error {
		affected, err = d.Notifications.UpdateRead(ctx, txn, localpart, roomID, pos)
		return err
	})
	return affected, err
}

func (d *Database) UpdatePresence(ctx context.Context, userID, presence string) error { // want UpdatePresence:`calls\(Writer\.Do, Presence\.UpsertPresence\)`
	return d.Writer.Do(d.DB, nil, func(txn *sql.Tx) error {
		return d.Presence.UpsertPresence(ctx, txn, userID, presence)
	})
}
