// Package sqlutil mimics dendrite's internal/sqlutil: a statement list
// prepared in one call, and TxStmt, which runs a prepared statement in a
// transaction.
package sqlutil

import (
	"database/sql"
	"fmt"
)

// TxStmt returns the statement in the transaction, or the statement itself
// when there is none: the same query.
func TxStmt(txn *sql.Tx, stmt *sql.Stmt) *sql.Stmt { // want TxStmt:`stmt of param 1`
	if txn != nil {
		stmt = txn.Stmt(stmt)
	}
	return stmt
}

// Wrap returns a statement that is not its parameter's: no fact.
func Wrap(db *sql.DB, stmt *sql.Stmt) *sql.Stmt {
	s, _ := db.Prepare("SELECT 1")
	if stmt != nil {
		return stmt
	}
	return s
}

// StatementList is a list of statements to prepare, each with a pointer to
// the field that holds it.
type StatementList []struct {
	Statement **sql.Stmt
	SQL       string
}

// Prepare prepares each statement into its field.
func (s StatementList) Prepare(db *sql.DB) (err error) {
	for _, statement := range s {
		if *statement.Statement, err = db.Prepare(statement.SQL); err != nil {
			return fmt.Errorf("preparing %s: %w", statement.SQL, err)
		}
	}
	return nil
}

// Writer serialises the writes of a database.
type Writer interface {
	Do(db *sql.DB, txn *sql.Tx, f func(txn *sql.Tx) error) error
}
