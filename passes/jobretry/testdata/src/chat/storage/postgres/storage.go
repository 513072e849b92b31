package postgres

import (
	"database/sql"

	"chat/sqlutil"
	"chat/storage/shared"
)

// SyncServerDatasource embeds the shared database, filled with this
// package's tables: its promoted methods write through them.
type SyncServerDatasource struct {
	shared.Database
	db *sql.DB
}

func NewDatabase(db *sql.DB, writer sqlutil.Writer) (*SyncServerDatasource, error) { // want NewDatabase:`builds\(InsertNotification: userapi_notifications; StoreNewSendForDeviceMessage: syncapi_send_to_device\)`
	var d SyncServerDatasource
	d.db = db
	sendToDevice, err := NewPostgresSendToDeviceTable(d.db)
	if err != nil {
		return nil, err
	}
	receipts, err := NewPostgresReceiptsTable(d.db)
	if err != nil {
		return nil, err
	}
	notifications, err := NewPostgresNotificationTable(d.db)
	if err != nil {
		return nil, err
	}
	presence, err := NewPostgresPresenceTable(d.db)
	if err != nil {
		return nil, err
	}
	d.Database = shared.Database{
		DB:            d.db,
		Writer:        writer,
		SendToDevice:  sendToDevice,
		Receipts:      receipts,
		Notifications: notifications,
		Presence:      presence,
	}
	return &d, nil
}
