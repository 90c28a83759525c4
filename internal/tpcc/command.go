package tpcc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	dbmongo "github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/results"
)

// ErrLoaded is tpcc load's refusal of warehouses that are there already:
// an error in what was asked, not a failure.
var ErrLoaded = errors.New("already loaded")

// Connect opens and pings the client of tpcc load and check. Its errors
// name the server without its password.
func Connect(ctx context.Context, url string, threads int) (*mongo.Client, error) {
	co := dbmongo.DefaultPoolSize(options.Client().ApplyURI(url).SetAppName("mongobench tpcc"), threads)
	if co.ServerSelectionTimeout == nil {
		co.SetServerSelectionTimeout(10 * time.Second)
	}
	client, err := mongo.Connect(co)
	if err != nil {
		return nil, fmt.Errorf("cannot connect to %s: %s", redact.URL(url), redact.Error(err.Error(), url))
	}
	if err := client.Ping(ctx, nil); err != nil {
		_ = client.Disconnect(context.WithoutCancel(ctx))
		return nil, fmt.Errorf("cannot reach %s: %s", redact.URL(url), redact.Error(err.Error(), url))
	}
	return client, nil
}

// LoadCommand is tpcc load: the warehouses of s's range (dropping
// TPC-C's collections first with drop; refusing, as ErrLoaded, ones that
// are there), then what was written as summary lines to w.
func LoadCommand(ctx context.Context, client *mongo.Client, s *Settings, drop bool, w io.Writer) error {
	db := client.Database(s.Database)
	if drop {
		if err := Drop(ctx, db); err != nil {
			return err
		}
	} else {
		n, err := db.Collection(CollWarehouse).CountDocuments(ctx, bson.D{{Key: "W_ID", Value: bson.D{{Key: "$gte", Value: s.Range.First}, {Key: "$lte", Value: s.Range.Last}}}})
		if err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("tpcc load: %s %w warehouses %s: give --drop to load them again", s.Database, ErrLoaded, s.Range)
		}
	}
	if err := CreateSchema(ctx, db, s.Options.Normalized); err != nil {
		return err
	}
	began := time.Now()
	stats, err := Load(ctx, db, LoadConfig{Scale: s.Scale, Seed: s.Seed, Normalized: s.Options.Normalized, Range: s.Range,
		Items: s.Part.Index == 0, Parallel: min(s.Threads, s.Range.Len()) + 1})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "[LOAD], Warehouses, %s\n", s.Range)
	fmt.Fprintf(w, "[LOAD], RunTime(ms), %d\n", time.Since(began).Milliseconds())
	var total int64
	for _, c := range Collections(s.Options.Normalized) {
		fmt.Fprintf(w, "[LOAD], %s, %d\n", c, stats.Docs[c])
		total += stats.Docs[c]
	}
	fmt.Fprintf(w, "[LOAD], Documents, %d\n", total)
	if !s.Scale.Standard() {
		fmt.Fprintf(w, "[WARNING], Scale, items=%d customers=%d: smaller than TPC-C's; figures are not comparable with TPC-C's\n", s.Scale.Items, s.Scale.Customers)
	}
	return nil
}

// CheckCommand is tpcc check: conditions 1-4 on s's warehouses as
// summary lines to w; a broken one is a *CheckError.
func CheckCommand(ctx context.Context, client *mongo.Client, s *Settings, w io.Writer) error {
	sec, err := checkSection(ctx, client.Database(s.Database), s.Options.Normalized, s.Range)
	for _, l := range CheckLines(sec) {
		fmt.Fprintln(w, l)
	}
	return err
}

// checkSection runs the check and gives its conditions as the results
// keep them; a broken one is a *CheckError, with the section complete.
func checkSection(ctx context.Context, db *mongo.Database, normalized bool, rng WarehouseRange) ([]results.TPCCCondition, error) {
	conds, err := Check(ctx, db, normalized, rng)
	if err != nil {
		return nil, err
	}
	var sec []results.TPCCCondition
	var broken []int
	for _, c := range conds {
		sec = append(sec, results.TPCCCondition{Number: c.Number, Checked: int64(c.Checked), Failed: int64(c.Failed), Examples: c.Examples})
		if !c.OK() {
			broken = append(broken, c.Number)
		}
	}
	if len(broken) > 0 {
		return sec, &CheckError{Broken: broken, Range: rng}
	}
	return sec, nil
}
