module routeservice.local/transparency-interop

go 1.22.0

require (
	github.com/transparency-dev/merkle v0.0.2
	golang.org/x/mod v0.22.0
)
