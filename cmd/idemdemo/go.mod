module github.com/idemlint/idemlint/cmd/idemdemo

go 1.26.0

require (
	github.com/idemlint/idemlint/runtime v0.0.0
	github.com/idemlint/idemlint/runtime/grpcidem v0.0.0
	github.com/idemlint/idemlint/runtime/grpcretry v0.0.0
	github.com/idemlint/idemlint/runtime/pgstore v0.0.0
	github.com/idemlint/idemlint/runtime/redisstore v0.0.0
	github.com/jackc/pgx/v5 v5.12.0
	github.com/prometheus/client_golang v1.25.0
	github.com/prometheus/client_model v0.6.3
	github.com/prometheus/common v0.74.0
	github.com/redis/go-redis/v9 v9.23.0
	google.golang.org/grpc v1.85.0
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/beorn7/perks v1.0.1 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/idemlint/idemlint/runtime/internal/grpcmethod v0.0.0 // indirect
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/puddle/v2 v2.2.3 // indirect
	github.com/munnerz/goautoneg v0.0.0-20191010083416-a7dc8b61c822 // indirect
	github.com/pandatix/go-abnf v0.5.5 // indirect
	github.com/prometheus/procfs v0.22.0 // indirect
	go.uber.org/atomic v1.12.0 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20260817212433-ac3dfec99bb1 // indirect
)

// The demo is built from this directory against the runtime's modules next to it (replace directives,
// no go.work: see docs/runtime-modules.md); it is not meant for go install.
replace (
	github.com/idemlint/idemlint/runtime => ../../runtime
	github.com/idemlint/idemlint/runtime/grpcidem => ../../runtime/grpcidem
	github.com/idemlint/idemlint/runtime/grpcretry => ../../runtime/grpcretry
	github.com/idemlint/idemlint/runtime/internal/grpcmethod => ../../runtime/internal/grpcmethod
	github.com/idemlint/idemlint/runtime/internal/pgtest => ../../runtime/internal/pgtest
	github.com/idemlint/idemlint/runtime/internal/testpb => ../../runtime/internal/testpb
	github.com/idemlint/idemlint/runtime/pgstore => ../../runtime/pgstore
	github.com/idemlint/idemlint/runtime/redisstore => ../../runtime/redisstore
)
