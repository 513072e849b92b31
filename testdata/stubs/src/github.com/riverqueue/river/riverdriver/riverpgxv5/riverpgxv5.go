// Package riverpgxv5 is a test stub of github.com/riverqueue/river/riverdriver/riverpgxv5@v0.51.2: signatures only.
package riverpgxv5

import (
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river/riverdriver"
)

// Driver is an implementation of riverdriver.Driver for Pgx v5 (riverdriver.Driver[pgx.Tx]).
type Driver struct{}

// New returns a new Pgx v5 River driver for use with river.Client.
func New(dbPool *pgxpool.Pool) *Driver { panic("stub") }

func (d *Driver) ArgPlaceholder() string       { return "$" }
func (d *Driver) DatabaseName() string         { return "postgres" }
func (d *Driver) PoolIsSet() bool              { return false }
func (d *Driver) PoolSet(dbPool any) error     { return nil }
func (d *Driver) SupportsListener() bool       { return true }
func (d *Driver) SupportsListenNotify() bool   { return true }
func (d *Driver) TimePrecision() time.Duration { return time.Microsecond }

func (d *Driver) UnwrapExecutor(tx pgx.Tx) riverdriver.ExecutorTx { panic("stub") }
func (d *Driver) UnwrapTx(execTx riverdriver.ExecutorTx) pgx.Tx   { panic("stub") }
