// Package depsanchor keeps the chosen dependencies in go.mod while the
// packages that use them are being written. Remove it once they are.
package depsanchor

import (
	_ "github.com/FerretDB/FerretDB/ferretdb"
	_ "github.com/HdrHistogram/hdrhistogram-go"
	_ "github.com/prometheus/procfs"
	_ "go.mongodb.org/mongo-driver/v2/mongo"
	_ "go.mongodb.org/mongo-driver/v2/x/mongo/driver/wiremessage"
	_ "modernc.org/sqlite"
)
