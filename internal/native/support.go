package native

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// Server is what a server says of itself that decides which operations
// it can run: a standalone has no transactions, FerretDB no transactions
// and a subset of aggregation stages, an old MongoDB fewer of both.
type Server struct {
	// Topology is "standalone", "replicaset" or "sharded".
	Topology string
	// Version is MongoDB's version as buildInfo gives it ("7.0.12"); a
	// FerretDB gives the version of MongoDB it answers as.
	Version string
	// FerretDB is FerretDB's own version; "" for MongoDB.
	FerretDB string
}

// The topologies a Server may have.
const (
	Standalone = "standalone"
	ReplicaSet = "replicaset"
	Sharded    = "sharded"
)

// ferretDBStages are the aggregation stages FerretDB 1.24 runs (its
// handler/common/aggregations/stages registry); every other stage it
// refuses at the first call.
var ferretDBStages = []string{"$addFields", "$collStats", "$count", "$group", "$limit", "$match", "$project", "$set", "$skip", "$sort", "$unset", "$unwind"}

// ServerOf asks the server what it is: hello for its topology, buildInfo
// for its version.
func ServerOf(ctx context.Context, client *mongo.Client) (Server, error) {
	admin := client.Database("admin")
	var s Server
	hello, err := admin.RunCommand(ctx, bson.D{{Key: "hello", Value: 1}}).Raw()
	if err != nil {
		if hello, err = admin.RunCommand(ctx, bson.D{{Key: "isMaster", Value: 1}}).Raw(); err != nil {
			return s, fmt.Errorf("asking the server what it is (hello): %w", err)
		}
	}
	s.Topology = Standalone
	if msg, ok := hello.Lookup("msg").StringValueOK(); ok && msg == "isdbgrid" {
		s.Topology = Sharded
	} else if _, ok := hello.Lookup("setName").StringValueOK(); ok {
		s.Topology = ReplicaSet
	}
	info, err := admin.RunCommand(ctx, bson.D{{Key: "buildInfo", Value: 1}}).Raw()
	if err != nil {
		return s, fmt.Errorf("asking the server its version (buildInfo): %w", err)
	}
	s.Version, _ = info.Lookup("version").StringValueOK()
	s.FerretDB, _ = info.Lookup("ferretdbVersion").StringValueOK()
	return s, nil
}

// Unsupported says, one reason per operation, what of ph the server
// cannot run, so that a run refuses it before measuring instead of
// failing every such operation.
func (ph *Phase) Unsupported(s Server) []string {
	var why []string
	var walk func(op *Operation, in string)
	walk = func(op *Operation, in string) {
		name := op.Name
		if name == "" {
			name = string(op.Kind) // a step of a transaction or bulkWrite
		}
		if r := s.cannot(op); r != "" {
			why = append(why, fmt.Sprintf("operation %s%s: %s", in, name, r))
		}
		for _, st := range op.Steps {
			walk(st, in+name+"/")
		}
	}
	for _, op := range ph.Operations {
		walk(op, "")
	}
	return why
}

// cannot says why s cannot run op itself (its steps are asked apart), or "".
func (s Server) cannot(op *Operation) string {
	if s.FerretDB != "" && op.holdsDecimal() {
		return s.ferretName() + " has no decimal128; accepted: ^double or ^int64 in place of ^decimal, and no $numberDecimal in dataset files"
	}
	switch op.Kind {
	case Transaction:
		switch {
		case !op.Atomic:
			// Its steps run on their own, asked apart.
		case s.FerretDB != "":
			return s.ferretName() + " has no multi-document transactions; accepted: a MongoDB replica set or sharded cluster, or atomic: false (the steps run outside a transaction)"
		case s.Topology == Standalone:
			return "a standalone server has no multi-document transactions; accepted: a replica set (4.0 or later) or a sharded cluster (4.2 or later), or atomic: false (the steps run outside a transaction)"
		case s.Topology == ReplicaSet && s.older(4, 0):
			return fmt.Sprintf("MongoDB %s has no multi-document transactions; accepted: 4.0 or later on a replica set", s.Version)
		case s.Topology == Sharded && s.older(4, 2):
			return fmt.Sprintf("MongoDB %s has no transactions across shards; accepted: 4.2 or later on a sharded cluster", s.Version)
		}
	case UpdateOne, UpdateMany, FindOneAndUpdate:
		if op.ArrayFilters != nil && s.FerretDB != "" {
			return s.ferretName() + " has no arrayFilters; accepted: an update without arrayFilters, or MongoDB 3.6 or later"
		}
	case Aggregate:
		if s.FerretDB != "" {
			for _, st := range op.Stages {
				if !slices.Contains(ferretDBStages, st) {
					return fmt.Sprintf("%s has no aggregation stage %s; accepted: %s", s.ferretName(), st, strings.Join(ferretDBStages, ", "))
				}
			}
		}
	}
	return ""
}

// older says whether s's version is below major.minor; a version it
// cannot read is not held against it.
func (s Server) older(major, minor int) bool {
	parts := strings.SplitN(s.Version, ".", 3)
	if len(parts) < 2 {
		return false
	}
	ma, err1 := strconv.Atoi(parts[0])
	mi, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return false
	}
	return ma < major || (ma == major && mi < minor)
}

// ferretName is "FerretDB v1.24.0", or "FerretDB" alone when it does not
// know its version (an in-process build says "unknown").
func (s Server) ferretName() string {
	if s.FerretDB == "" || s.FerretDB == "unknown" {
		return "FerretDB"
	}
	return "FerretDB " + s.FerretDB
}

// holdsDecimal says whether any value op sends may be a decimal128: its
// templates', its lets' and, for an insert, its collection's document's.
func (op *Operation) holdsDecimal() bool {
	for _, t := range []*Template{op.Document, op.Filter, op.Update, op.ArrayFilters, op.Projection, op.Sort, op.Hint, op.Pipeline, op.Keys} {
		if t != nil && t.decimal {
			return true
		}
	}
	for _, l := range op.Let {
		if l.Value != nil && l.Value.decimal {
			return true
		}
	}
	return false
}
