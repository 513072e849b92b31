// Package asynq is a test stub of github.com/hibiken/asynq@v0.26.0: signatures only.
package asynq

import (
	"context"
	"crypto/tls"
	"errors"
	"time"
)

// ---- asynq.go

// Task represents a unit of work to be performed.
type Task struct {
}

func (t *Task) Type() string { panic("stub") }

func (t *Task) Payload() []byte { panic("stub") }

func (t *Task) Headers() map[string]string { panic("stub") }

// ResultWriter returns a pointer to the ResultWriter associated with the task.
func (t *Task) ResultWriter() *ResultWriter { panic("stub") }

// NewTask returns a new Task given a type name and payload data.
func NewTask(typename string, payload []byte, opts ...Option) *Task { panic("stub") }

// NewTaskWithHeaders returns a new Task given a type name, payload data, and headers.
func NewTaskWithHeaders(typename string, payload []byte, headers map[string]string, opts ...Option) *Task {
	panic("stub")
}

// A TaskInfo describes a task and its metadata.
type TaskInfo struct {
	ID string

	Queue string

	Type string

	Payload []byte

	Headers map[string]string

	State TaskState

	MaxRetry int

	Retried int

	LastErr string

	LastFailedAt time.Time

	Timeout time.Duration

	Deadline time.Time

	Group string

	NextProcessAt time.Time

	IsOrphaned bool

	Retention time.Duration

	CompletedAt time.Time

	Result []byte
}

// TaskState denotes the state of a task.
type TaskState int

const (

	// Indicates that the task is currently being processed by Handler.
	TaskStateActive TaskState = iota + 1

	// Indicates that the task is ready to be processed by Handler.
	TaskStatePending

	// Indicates that the task is scheduled to be processed some time in the future.
	TaskStateScheduled

	// Indicates that the task has previously failed and scheduled to be processed some time in the future.
	TaskStateRetry

	// Indicates that the task is archived and stored for inspection purposes.
	TaskStateArchived

	// Indicates that the task is processed successfully and retained until the retention TTL expires.
	TaskStateCompleted

	// Indicates that the task is waiting in a group to be aggregated into one task.
	TaskStateAggregating
)

func (s TaskState) String() string { panic("stub") }

// RedisConnOpt is a discriminated union of types that represent Redis connection configuration option.
type RedisConnOpt interface {
	MakeRedisClient() interface{}
}

// RedisClientOpt is used to create a redis client that connects to a redis server directly.
type RedisClientOpt struct {
	Network string

	Addr string

	Username string

	Password string

	DB int

	DialTimeout time.Duration

	ReadTimeout time.Duration

	WriteTimeout time.Duration

	PoolSize int

	TLSConfig *tls.Config
}

func (opt RedisClientOpt) MakeRedisClient() interface{} { panic("stub") }

// RedisFailoverClientOpt is used to creates a redis client that talks to redis sentinels for service discovery and has an automatic failover capability (field subset).
type RedisFailoverClientOpt struct {
	MasterName string

	SentinelAddrs []string

	Password string

	DB int
}

func (opt RedisFailoverClientOpt) MakeRedisClient() interface{} { panic("stub") }

// RedisClusterClientOpt is used to creates a redis client that connects to redis cluster.
type RedisClusterClientOpt struct {
	Addrs []string

	MaxRedirects int

	Username string

	Password string

	DialTimeout time.Duration

	ReadTimeout time.Duration

	WriteTimeout time.Duration

	TLSConfig *tls.Config
}

func (opt RedisClusterClientOpt) MakeRedisClient() interface{} { panic("stub") }

// ParseRedisURI parses redis uri string and returns RedisConnOpt if uri is valid.
func ParseRedisURI(uri string) (RedisConnOpt, error) { panic("stub") }

// ResultWriter is a client interface to write result data for a task.
type ResultWriter struct {
}

// Write writes the given data as a result of the task the ResultWriter is associated with.
func (w *ResultWriter) Write(data []byte) (n int, err error) { panic("stub") }

// TaskID returns the ID of the task the ResultWriter is associated with.
func (w *ResultWriter) TaskID() string { panic("stub") }

// ---- client.go

// A Client is responsible for scheduling tasks.
type Client struct {
}

// NewClient returns a new Client instance given a redis connection option.
func NewClient(r RedisConnOpt) *Client { panic("stub") }

type OptionType int

const (
	MaxRetryOpt OptionType = iota
	QueueOpt
	TimeoutOpt
	DeadlineOpt
	UniqueOpt
	ProcessAtOpt
	ProcessInOpt
	TaskIDOpt
	RetentionOpt
	GroupOpt
)

// Option specifies the task processing behavior.
type Option interface {
	String() string

	Type() OptionType

	Value() interface{}
}

// MaxRetry returns an option to specify the max number of times the task will be retried.
// n counts retries; default 25 (26 attempts).
func MaxRetry(n int) Option { panic("stub") }

// Queue returns an option to specify the queue to enqueue the task into.
func Queue(name string) Option { panic("stub") }

// TaskID returns an option to specify the task ID.
// Default: uuid.NewString() per Enqueue call; a reused ID makes Enqueue fail with ErrTaskIDConflict.
func TaskID(id string) Option { panic("stub") }

// Timeout returns an option to specify how long a task may run.
// Default 30m per attempt when neither Timeout nor Deadline is set.
func Timeout(d time.Duration) Option { panic("stub") }

// Deadline returns an option to specify the deadline for the given task.
func Deadline(t time.Time) Option { panic("stub") }

// Unique returns an option to enqueue a task only if the given task is unique.
func Unique(ttl time.Duration) Option { panic("stub") }

// ProcessAt returns an option to specify when to process the given task.
func ProcessAt(t time.Time) Option { panic("stub") }

// ProcessIn returns an option to specify when to process the given task relative to the current time.
func ProcessIn(d time.Duration) Option { panic("stub") }

// Retention returns an option to specify the duration of retention period for the task.
func Retention(d time.Duration) Option { panic("stub") }

// Group returns an option to specify the group used for the task.
func Group(name string) Option { panic("stub") }

// ErrDuplicateTask indicates that the given task could not be enqueued since it's a duplicate of another task.
var ErrDuplicateTask = errors.New("task already exists")

// ErrTaskIDConflict indicates that the given task could not be enqueued since its task ID already exists.
var ErrTaskIDConflict = errors.New("task ID conflicts with another task")

// Close closes the connection with redis.
func (c *Client) Close() error { panic("stub") }

// Enqueue enqueues the given task to a queue.
func (c *Client) Enqueue(task *Task, opts ...Option) (*TaskInfo, error) { panic("stub") }

// EnqueueContext enqueues the given task to a queue.
func (c *Client) EnqueueContext(ctx context.Context, task *Task, opts ...Option) (*TaskInfo, error) {
	panic("stub")
}

// Ping performs a ping against the redis connection.
func (c *Client) Ping() error { panic("stub") }

// ---- context.go

// GetTaskID extracts a task ID from a context, if any.
func GetTaskID(ctx context.Context) (id string, ok bool) { panic("stub") }

// GetRetryCount extracts retry count from a context, if any.
func GetRetryCount(ctx context.Context) (n int, ok bool) { panic("stub") }

// GetMaxRetry extracts maximum retry from a context, if any.
func GetMaxRetry(ctx context.Context) (n int, ok bool) { panic("stub") }

// GetQueueName extracts queue name from a context, if any.
func GetQueueName(ctx context.Context) (queue string, ok bool) { panic("stub") }

// ---- servemux.go

// ErrHandlerNotFound indicates that no task handler was found for a given pattern.
var ErrHandlerNotFound = errors.New("handler not found for task")

// ServeMux is a multiplexer for asynchronous tasks.
type ServeMux struct {
}

// MiddlewareFunc is a function which receives an asynq.Handler and returns another asynq.Handler.
type MiddlewareFunc func(Handler) Handler

// NewServeMux allocates and returns a new ServeMux.
func NewServeMux() *ServeMux { panic("stub") }

// ProcessTask dispatches the task to the handler whose pattern most closely matches the task type.
func (mux *ServeMux) ProcessTask(ctx context.Context, task *Task) error { panic("stub") }

// Handler returns the handler to use for the given task.
func (mux *ServeMux) Handler(t *Task) (h Handler, pattern string) { panic("stub") }

// Handle registers the handler for the given pattern.
func (mux *ServeMux) Handle(pattern string, handler Handler) {}

// HandleFunc registers the handler function for the given pattern.
func (mux *ServeMux) HandleFunc(pattern string, handler func(context.Context, *Task) error) {}

// Use appends a MiddlewareFunc to the chain.
func (mux *ServeMux) Use(mws ...MiddlewareFunc) {}

// NotFound returns an error indicating that the handler was not found for the given task.
func NotFound(ctx context.Context, task *Task) error { panic("stub") }

// NotFoundHandler returns a simple task handler that returns a “not found“ error.
func NotFoundHandler() Handler { panic("stub") }

// ---- server.go

// SkipRetry is used as a return value from Handler.ProcessTask to indicate that the task should not be retried and should be archived instead.
var SkipRetry = errors.New("skip retry for the task")

// RevokeTask is used as a return value from Handler.ProcessTask to indicate that the task should not be retried or archived.
var RevokeTask = errors.New("revoke task")

// Server is responsible for task processing and task lifecycle management.
type Server struct {
}

// Config specifies the server's background-task processing behavior.
type Config struct {
	Concurrency int

	BaseContext func() context.Context

	TaskCheckInterval time.Duration

	RetryDelayFunc RetryDelayFunc

	IsFailure func(error) bool

	Queues map[string]int

	StrictPriority bool

	ErrorHandler ErrorHandler

	Logger Logger

	LogLevel LogLevel

	ShutdownTimeout time.Duration

	HealthCheckFunc func(error)

	HealthCheckInterval time.Duration

	DelayedTaskCheckInterval time.Duration

	GroupGracePeriod time.Duration

	GroupMaxDelay time.Duration

	GroupMaxSize int

	GroupAggregator GroupAggregator

	JanitorInterval time.Duration

	JanitorBatchSize int
}

// GroupAggregator aggregates a group of tasks into one before the tasks are passed to the Handler.
type GroupAggregator interface {
	Aggregate(group string, tasks []*Task) *Task
}

// The GroupAggregatorFunc type is an adapter to allow the use of ordinary functions as a GroupAggregator.
type GroupAggregatorFunc func(group string, tasks []*Task) *Task

// Aggregate calls fn(group, tasks)
func (fn GroupAggregatorFunc) Aggregate(group string, tasks []*Task) *Task { panic("stub") }

// An ErrorHandler handles an error occurred during task processing.
type ErrorHandler interface {
	HandleError(ctx context.Context, task *Task, err error)
}

// The ErrorHandlerFunc type is an adapter to allow the use of ordinary functions as a ErrorHandler.
type ErrorHandlerFunc func(ctx context.Context, task *Task, err error)

// HandleError calls fn(ctx, task, err)
func (fn ErrorHandlerFunc) HandleError(ctx context.Context, task *Task, err error) {}

// RetryDelayFunc calculates the retry delay duration for a failed task given the retry count, error, and the task.
type RetryDelayFunc func(n int, e error, t *Task) time.Duration

// Logger supports logging at various log levels.
type Logger interface {
	Debug(args ...interface{})

	Info(args ...interface{})

	Warn(args ...interface{})

	Error(args ...interface{})

	Fatal(args ...interface{})
}

// LogLevel represents logging level.
type LogLevel int32

const (

	// Note: reserving value zero to differentiate unspecified case.
	level_unspecified LogLevel = iota

	// DebugLevel is the lowest level of logging.
	// Debug logs are intended for debugging and development purposes.
	DebugLevel

	// InfoLevel is used for general informational log messages.
	InfoLevel

	// WarnLevel is used for undesired but relatively expected events,
	// which may indicate a problem.
	WarnLevel

	// ErrorLevel is used for undesired and unexpected events that
	// the program can recover from.
	ErrorLevel

	// FatalLevel is used for undesired and unexpected events that
	// the program cannot recover from.
	FatalLevel
)

// String is part of the flag.Value interface.
func (l *LogLevel) String() string { panic("stub") }

// Set is part of the flag.Value interface.
func (l *LogLevel) Set(val string) error { panic("stub") }

// DefaultRetryDelayFunc is the default RetryDelayFunc used if one is not specified in Config.
// n^4 + 15 + rand(30)*(n+1) seconds.
func DefaultRetryDelayFunc(n int, e error, t *Task) time.Duration { panic("stub") }

// NewServer returns a new Server given a redis connection option and server configuration.
func NewServer(r RedisConnOpt, cfg Config) *Server { panic("stub") }

// A Handler processes tasks.
type Handler interface {
	ProcessTask(context.Context, *Task) error
}

// The HandlerFunc type is an adapter to allow the use of ordinary functions as a Handler.
type HandlerFunc func(context.Context, *Task) error

// ProcessTask calls fn(ctx, task)
func (fn HandlerFunc) ProcessTask(ctx context.Context, task *Task) error { panic("stub") }

// ErrServerClosed indicates that the operation is now illegal because of the server has been shutdown.
var ErrServerClosed = errors.New("asynq: Server closed")

// Run starts the task processing and blocks until an os signal to exit the program is received.
func (srv *Server) Run(handler Handler) error { panic("stub") }

// Start starts the worker server.
func (srv *Server) Start(handler Handler) error { panic("stub") }

// Shutdown gracefully shuts down the server.
func (srv *Server) Shutdown() {}

// Stop signals the server to stop pulling new tasks off queues.
func (srv *Server) Stop() {}

// Ping performs a ping against the redis connection.
func (srv *Server) Ping() error { panic("stub") }
