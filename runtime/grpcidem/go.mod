module github.com/idemlint/idemlint/runtime/grpcidem

go 1.26.0

require (
	github.com/idemlint/idemlint/runtime v0.0.0
	github.com/idemlint/idemlint/runtime/grpcretry v0.0.0
	github.com/idemlint/idemlint/runtime/internal/grpcmethod v0.0.0
	github.com/idemlint/idemlint/runtime/internal/pgtest v0.0.0
	github.com/idemlint/idemlint/runtime/internal/testpb v0.0.0
	github.com/idemlint/idemlint/runtime/pgstore v0.0.0
	google.golang.org/genproto/googleapis/rpc v0.0.0-20260817212433-ac3dfec99bb1
	google.golang.org/grpc v1.85.0
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/pgx/v5 v5.12.0 // indirect
	github.com/jackc/puddle/v2 v2.2.3 // indirect
	golang.org/x/net v0.60.0 // indirect
	golang.org/x/sync v0.23.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/text v0.42.0 // indirect
)

replace (
	github.com/idemlint/idemlint/runtime => ..
	github.com/idemlint/idemlint/runtime/grpcretry => ../grpcretry
	github.com/idemlint/idemlint/runtime/internal/grpcmethod => ../internal/grpcmethod
	github.com/idemlint/idemlint/runtime/internal/pgtest => ../internal/pgtest
	github.com/idemlint/idemlint/runtime/internal/testpb => ../internal/testpb
	github.com/idemlint/idemlint/runtime/pgstore => ../pgstore
)
