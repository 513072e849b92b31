package consumers

import (
	"context"
	"database/sql"

	"github.com/segmentio/kafka-go"
)

// Storage is the consumer's view of its database.
type Storage interface {
	StoreSendToDevice(ctx context.Context, messageID, userID string, body []byte) error
}

// postgresStorage is Storage on Postgres: the message id is the row's key.
type postgresStorage struct {
	db     *sql.DB
	insert *sql.Stmt
}

const insertSendToDevice = `INSERT INTO send_to_device (message_id, user_id, body) VALUES ($1, $2, $3) ON CONFLICT (message_id) DO NOTHING`

// NewStorage prepares the insert.
func NewStorage(db *sql.DB) (Storage, error) {
	stmt, err := db.Prepare(insertSendToDevice)
	if err != nil {
		return nil, err
	}
	return &postgresStorage{db: db, insert: stmt}, nil
}

func (s *postgresStorage) StoreSendToDevice(ctx context.Context, messageID, userID string, body []byte) error {
	_, err := s.insert.ExecContext(ctx, messageID, userID, body)
	return err
}

// StoreThroughInterface writes through a storage interface whose one
// implementation inserts keyed by the message id, ON CONFLICT DO NOTHING.
//
// lookalike jobretry dendrite-syncapi-sendtodevice: an INSERT behind a storage interface and a prepared statement
func StoreThroughInterface(ctx context.Context, s Storage, r *kafka.Reader) error {
	for {
		m, err := r.FetchMessage(ctx)
		if err != nil {
			return err
		}
		if err := s.StoreSendToDevice(ctx, messageIDHeader(m), string(m.Key), m.Value); err != nil {
			return err
		}
		if err := r.CommitMessages(ctx, m); err != nil {
			return err
		}
	}
}
