package embedded

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// openDBFile opens a database file of s the way the indexer does. Callers
// close it before dropping the database (see idIndexer).
func openDBFile(t testing.TB, s *Server, dbName string) *sql.DB {
	t.Helper()

	db, err := sql.Open("sqlite", fileDSN(filepath.Join(s.DataDir(), dbName+dbFileExt)))
	if err != nil {
		t.Fatal(err)
	}

	return db
}

// tableName is the SQLite table FerretDB keeps the collection in.
func tableName(t testing.TB, s *Server, dbName, coll string) string {
	t.Helper()

	db := openDBFile(t, s, dbName)
	defer db.Close()

	var table string
	if err := db.QueryRow("SELECT table_name FROM "+metadataTable+" WHERE name = ?", coll).Scan(&table); err != nil {
		t.Fatalf("table of %s.%s: %v", dbName, coll, err)
	}

	return table
}

// idQueryPlan is SQLite's plan for FerretDB's lookup by _id, one detail per
// line.
func idQueryPlan(t testing.TB, s *Server, dbName, table string) string {
	t.Helper()

	db := openDBFile(t, s, dbName)
	defer db.Close()

	rows, err := db.Query("EXPLAIN QUERY PLAN SELECT _ferretdb_sjson FROM "+quoteIdent(table)+" WHERE "+idExpr+" = ?", `"user1"`)
	if err != nil {
		t.Fatalf("explain: %v", err)
	}
	defer rows.Close()

	var lines []string

	for rows.Next() {
		var id, parent, notused int
		var detail string
		if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
			t.Fatal(err)
		}

		lines = append(lines, detail)
	}

	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}

	return strings.Join(lines, "\n")
}

func usesIDIndex(plan, table string) bool {
	return strings.Contains(plan, "USING INDEX "+IDIndexName(table)+" ")
}

// waitIDIndex waits, boundedly, until lookups by _id in the collection use
// our index, and returns the table.
func waitIDIndex(t testing.TB, s *Server, dbName, coll string) string {
	t.Helper()

	table := tableName(t, s, dbName, coll)
	deadline := time.Now().Add(testTimeout)

	for {
		plan := idQueryPlan(t, s, dbName, table)
		if usesIDIndex(plan, table) {
			return table
		}

		if time.Now().After(deadline) {
			t.Fatalf("%s.%s: after %v the plan is still %q", dbName, coll, testTimeout, plan)
		}

		time.Sleep(20 * time.Millisecond)
	}
}

// insertUsers inserts n documents shaped like YCSB's: _id "user<i>" and ten
// 100-byte binary fields.
func insertUsers(t testing.TB, coll *mongo.Collection, n int) {
	t.Helper()

	ctx := testContext(t)
	value := bson.Binary{Data: []byte(strings.Repeat("x", 100))}

	const batch = 1000

	for start := 0; start < n; start += batch {
		docs := make([]any, 0, batch)

		for i := start; i < min(start+batch, n); i++ {
			doc := bson.D{{Key: "_id", Value: fmt.Sprintf("user%d", i)}, {Key: "n", Value: i}}
			for f := range 10 {
				doc = append(doc, bson.E{Key: fmt.Sprintf("field%d", f), Value: value})
			}

			docs = append(docs, doc)
		}

		if _, err := coll.InsertMany(ctx, docs); err != nil {
			t.Fatalf("insert: %v", err)
		}
	}
}

// checkFindByID finds a few documents by _id and checks they are the right
// ones.
func checkFindByID(t testing.TB, coll *mongo.Collection, n int) {
	t.Helper()

	ctx := testContext(t)

	for _, i := range []int{0, n / 2, n - 1} {
		var got struct {
			ID string `bson:"_id"`
			N  int    `bson:"n"`
		}

		if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: fmt.Sprintf("user%d", i)}}).Decode(&got); err != nil {
			t.Fatalf("find user%d: %v", i, err)
		}

		if got.ID != fmt.Sprintf("user%d", i) || got.N != i {
			t.Errorf("find user%d returned %+v", i, got)
		}
	}

	err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: "nobody"}}).Err()
	if !errors.Is(err, mongo.ErrNoDocuments) {
		t.Errorf("find of a missing _id: %v, want ErrNoDocuments", err)
	}
}

func TestEnsureIDIndexes(t *testing.T) {
	s := startServer(t, Options{watchInterval: -1})
	c := connect(t, s)
	ctx := testContext(t)

	const n = 5000

	coll := c.Database("ensure").Collection("usertable")
	insertUsers(t, coll, n)

	// Without the repair FerretDB's lookup scans the table: this is the
	// upstream defect, and it shows the plan check can fail.
	table := tableName(t, s, "ensure", "usertable")
	if plan := idQueryPlan(t, s, "ensure", table); usesIDIndex(plan, table) || !strings.Contains(plan, "SCAN") {
		t.Fatalf("before EnsureIDIndexes the plan is %q, want a table scan", plan)
	}

	// A file that is not a FerretDB database is left alone, not an error.
	stray := filepath.Join(s.DataDir(), "stray"+dbFileExt)
	if err := os.WriteFile(stray, nil, 0o644); err != nil {
		t.Fatal(err)
	}

	if err := s.EnsureIDIndexes(ctx); err != nil {
		t.Fatalf("EnsureIDIndexes: %v", err)
	}

	if err := os.Remove(stray); err != nil {
		t.Fatal(err)
	}

	if plan := idQueryPlan(t, s, "ensure", table); !usesIDIndex(plan, table) {
		t.Fatalf("after EnsureIDIndexes the plan is %q, want it to use %s", plan, IDIndexName(table))
	}

	checkFindByID(t, coll, n)

	// A second call finds nothing to do.
	if err := s.EnsureIDIndexes(ctx); err != nil {
		t.Fatalf("second EnsureIDIndexes: %v", err)
	}
}

func TestIDIndexWatcher(t *testing.T) {
	s := startServer(t, Options{})
	c := connect(t, s)

	const n = 5000

	coll := c.Database("watched").Collection("usertable")
	insertUsers(t, coll, n)

	waitIDIndex(t, s, "watched", "usertable")
	checkFindByID(t, coll, n)
}

// TestIDIndexWithFerretDBOperations shows that the extra index breaks none of
// the operations that touch tables and indexes, and that collections and
// databases made again after a drop get the index too.
func TestIDIndexWithFerretDBOperations(t *testing.T) {
	s := startServer(t, Options{})
	c := connect(t, s)
	ctx := testContext(t)

	const dbName = "ops"

	db := c.Database(dbName)
	coll := db.Collection("docs")
	insertUsers(t, coll, 100)
	waitIDIndex(t, s, dbName, "docs")

	t.Run("listIndexes shows FerretDB's indexes only", func(t *testing.T) {
		// An index named like ours (without the '$') must not collide.
		if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{
			Keys:    bson.D{{Key: "n", Value: 1}},
			Options: options.Index().SetName("mongobench_id"),
		}); err != nil {
			t.Fatalf("createIndexes: %v", err)
		}

		if got, want := indexNames(t, coll), []string{"_id_", "mongobench_id"}; !slices.Equal(got, want) {
			t.Errorf("indexes %v, want %v", got, want)
		}

		if err := coll.Indexes().DropOne(ctx, "mongobench_id"); err != nil {
			t.Fatalf("dropIndexes: %v", err)
		}

		if got, want := indexNames(t, coll), []string{"_id_"}; !slices.Equal(got, want) {
			t.Errorf("indexes after drop %v, want %v", got, want)
		}

		// Our index is still there.
		waitIDIndex(t, s, dbName, "docs")
	})

	t.Run("update and delete by _id", func(t *testing.T) {
		res, err := coll.UpdateOne(ctx, bson.D{{Key: "_id", Value: "user7"}}, bson.D{{Key: "$set", Value: bson.D{{Key: "n", Value: -7}}}})
		if err != nil || res.MatchedCount != 1 || res.ModifiedCount != 1 {
			t.Fatalf("update: %+v, %v", res, err)
		}

		var got bson.M
		if err = coll.FindOne(ctx, bson.D{{Key: "_id", Value: "user7"}}).Decode(&got); err != nil || got["n"] != int32(-7) {
			t.Fatalf("after update: %v, %v", got, err)
		}

		del, err := coll.DeleteOne(ctx, bson.D{{Key: "_id", Value: "user8"}})
		if err != nil || del.DeletedCount != 1 {
			t.Fatalf("delete: %+v, %v", del, err)
		}

		if n, err := coll.CountDocuments(ctx, bson.D{}); err != nil || n != 99 {
			t.Errorf("count after delete: %d, %v; want 99", n, err)
		}

		// The unique _id index of FerretDB still rejects duplicates.
		_, err = coll.InsertOne(ctx, bson.D{{Key: "_id", Value: "user9"}})
		if !mongo.IsDuplicateKeyError(err) {
			t.Errorf("duplicate insert: %v, want a duplicate key error", err)
		}
	})

	t.Run("rename keeps the index", func(t *testing.T) {
		other := db.Collection("renameme")
		insertUsers(t, other, 10)
		waitIDIndex(t, s, dbName, "renameme")

		err := c.Database("admin").RunCommand(ctx, bson.D{
			{Key: "renameCollection", Value: dbName + ".renameme"},
			{Key: "to", Value: dbName + ".renamed"},
		}).Err()
		if err != nil {
			t.Fatalf("renameCollection: %v", err)
		}

		waitIDIndex(t, s, dbName, "renamed")
		checkFindByID(t, db.Collection("renamed"), 10)
	})

	t.Run("capped collection", func(t *testing.T) {
		if err := db.CreateCollection(ctx, "capped", options.CreateCollection().SetCapped(true).SetSizeInBytes(1<<20)); err != nil {
			t.Fatalf("create capped: %v", err)
		}

		capped := db.Collection("capped")
		insertUsers(t, capped, 50)
		waitIDIndex(t, s, dbName, "capped")
		checkFindByID(t, capped, 50)
	})

	t.Run("drop and re-create the collection", func(t *testing.T) {
		if err := coll.Drop(ctx); err != nil {
			t.Fatalf("drop: %v", err)
		}

		names, err := db.ListCollectionNames(ctx, bson.D{})
		if err != nil || slices.Contains(names, "docs") {
			t.Fatalf("collections after drop: %v, %v", names, err)
		}

		insertUsers(t, coll, 20)
		waitIDIndex(t, s, dbName, "docs")
		checkFindByID(t, coll, 20)
	})

	t.Run("drop and re-create the database", func(t *testing.T) {
		if err := db.Drop(ctx); err != nil {
			t.Fatalf("dropDatabase: %v", err)
		}

		names, err := c.ListDatabaseNames(ctx, bson.D{})
		if err != nil || slices.Contains(names, dbName) {
			t.Fatalf("databases after drop: %v, %v", names, err)
		}

		// FerretDB removes the file; SQLite removes -wal and -shm once the
		// last connection to it is closed.
		waitGone(t, filepath.Join(s.DataDir(), dbName+dbFileExt), "-wal", "-shm")

		insertUsers(t, coll, 30)
		waitIDIndex(t, s, dbName, "docs")
		checkFindByID(t, coll, 30)

		if got, want := indexNames(t, coll), []string{"_id_"}; !slices.Equal(got, want) {
			t.Errorf("indexes %v, want %v", got, want)
		}
	})
}

// TestWatcherWaitsForStableFiles shows the rule that keeps the watcher off
// databases that were just created: they may be dropped and re-created at
// once, and a connection of ours open across that breaks FerretDB's new file.
func TestWatcherWaitsForStableFiles(t *testing.T) {
	s := startServer(t, Options{watchInterval: -1, stableAfter: time.Hour})
	c := connect(t, s)
	ctx := testContext(t)

	insertUsers(t, c.Database("young").Collection("docs"), 10)
	table := tableName(t, s, "young", "docs")

	if err := s.idx.pass(ctx, false); err != nil {
		t.Fatalf("watcher pass: %v", err)
	}

	if plan := idQueryPlan(t, s, "young", table); usesIDIndex(plan, table) {
		t.Fatalf("the watcher indexed a database younger than stableAfter")
	}

	// EnsureIDIndexes does not wait.
	if err := s.EnsureIDIndexes(ctx); err != nil {
		t.Fatalf("EnsureIDIndexes: %v", err)
	}

	if plan := idQueryPlan(t, s, "young", table); !usesIDIndex(plan, table) {
		t.Fatalf("after EnsureIDIndexes the plan is %q", plan)
	}
}

// TestDropWhileOpenBreaksFerretDB records the upstream behaviour that the
// indexer's care is about: a connection open on a database file while
// FerretDB drops the database and creates it again, which then writes,
// breaks FerretDB's new file. Should this test ever fail, FerretDB or SQLite
// changed, and the stableAfter rule may be revisited.
func TestDropWhileOpenBreaksFerretDB(t *testing.T) {
	s := startServer(t, Options{watchInterval: -1})
	c := connect(t, s)
	ctx := testContext(t)

	db := c.Database("hazard")
	insertUsers(t, db.Collection("old"), 200)

	held := openDBFile(t, s, "hazard")
	defer held.Close()

	held.SetMaxOpenConns(1)

	var n int
	if err := held.QueryRow("SELECT count(*) FROM " + metadataTable).Scan(&n); err != nil {
		t.Fatal(err)
	}

	if err := db.Drop(ctx); err != nil {
		t.Fatalf("dropDatabase: %v", err)
	}

	insertUsers(t, db.Collection("new"), 200)

	// The held connection still sees the old, removed file and writes to it.
	if _, err := held.Exec("CREATE TABLE scratch (a)"); err != nil {
		t.Fatalf("write through the held connection: %v", err)
	}

	for range 50 {
		if _, err := held.Exec("INSERT INTO scratch VALUES (randomblob(3000))"); err != nil {
			t.Fatalf("write through the held connection: %v", err)
		}
	}

	_, err := db.Collection("newer").InsertOne(ctx, bson.D{{Key: "_id", Value: "x"}})
	if err == nil {
		t.Fatalf("FerretDB still works after a write through a connection held across drop and re-create")
	}

	t.Logf("as expected, FerretDB fails: %v", err)
}

// TestAddIDIndexesChecksTheFile shows that indexes are not committed when the
// file at the path is no longer the one that was opened.
func TestAddIDIndexesChecksTheFile(t *testing.T) {
	s := startServer(t, Options{watchInterval: -1})
	c := connect(t, s)
	ctx := testContext(t)

	insertUsers(t, c.Database("moved").Collection("docs"), 10)
	table := tableName(t, s, "moved", "docs")

	// Any other file stands for "the file we opened" having been replaced.
	other, err := os.Stat(s.LogPath())
	if err != nil {
		t.Fatal(err)
	}

	db := openDBFile(t, s, "moved")
	defer db.Close()

	db.SetMaxOpenConns(1)

	path := filepath.Join(s.DataDir(), "moved"+dbFileExt)
	if err = addIDIndexes(ctx, db, path, other, s.idx.log); !errors.Is(err, errMoved) {
		t.Fatalf("addIDIndexes with a replaced file: %v, want errMoved", err)
	}

	if plan := idQueryPlan(t, s, "moved", table); usesIDIndex(plan, table) {
		t.Fatalf("the index was committed although the file was replaced")
	}

	opened, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}

	if err = addIDIndexes(ctx, db, path, opened, s.idx.log); err != nil {
		t.Fatalf("addIDIndexes: %v", err)
	}

	if plan := idQueryPlan(t, s, "moved", table); !usesIDIndex(plan, table) {
		t.Fatalf("after addIDIndexes the plan is %q", plan)
	}
}

func indexNames(t testing.TB, coll *mongo.Collection) []string {
	t.Helper()

	specs, err := coll.Indexes().ListSpecifications(testContext(t))
	if err != nil {
		t.Fatalf("listIndexes: %v", err)
	}

	names := make([]string, 0, len(specs))
	for _, spec := range specs {
		names = append(names, spec.Name)
	}

	slices.Sort(names)

	return names
}

// waitGone waits, boundedly, until path and path+suffix for each suffix do
// not exist.
func waitGone(t testing.TB, path string, suffixes ...string) {
	t.Helper()

	deadline := time.Now().Add(testTimeout)
	paths := []string{path}

	for _, suffix := range suffixes {
		paths = append(paths, path+suffix)
	}

	for _, p := range paths {
		for {
			_, err := os.Stat(p)
			if errors.Is(err, fs.ErrNotExist) {
				break
			}

			if time.Now().After(deadline) {
				t.Fatalf("%s still exists (stat error %v)", p, err)
			}

			time.Sleep(20 * time.Millisecond)
		}
	}
}

// BenchmarkWatcherLook measures what the watcher does on each tick for a
// database whose files changed (as during a load) but whose schema did not:
// open the file, read the schema version, close.
func BenchmarkWatcherLook(b *testing.B) {
	s := startServer(b, Options{watchInterval: -1})
	c := connect(b, s)
	insertUsers(b, c.Database("look").Collection("docs"), 100)

	ctx := testContext(b)
	if err := s.EnsureIDIndexes(ctx); err != nil {
		b.Fatal(err)
	}

	path := filepath.Join(s.DataDir(), "look"+dbFileExt)

	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}

	version, ok, err := repair(ctx, path, fi, nil, s.idx.log)
	if err != nil || !ok {
		b.Fatalf("first look: %v, %v", ok, err)
	}

	b.ReportAllocs()

	for b.Loop() {
		if _, ok, err := repair(ctx, path, fi, &version, s.idx.log); err != nil || !ok {
			b.Fatalf("look: %v, %v", ok, err)
		}
	}
}

func TestIDIndexName(t *testing.T) {
	t.Parallel()

	// FerretDB names its indexes "<table>_<index name>" and its tables
	// after lower-cased collection names, which cannot contain '$'. Ours
	// has a '$' before any '_' that could end a FerretDB table name.
	for _, table := range []string{"usertable_3c6cd8f8", "_sqlite_x_00000000", "a_b_c_12345678"} {
		name := IDIndexName(table)
		if !strings.HasPrefix(name, table) || !strings.Contains(name, "$") {
			t.Errorf("IDIndexName(%q) = %q", table, name)
		}
	}
}

func TestQuoteIdent(t *testing.T) {
	t.Parallel()

	for _, tc := range []struct{ in, want string }{
		{"usertable_3c6cd8f8", `"usertable_3c6cd8f8"`},
		{`we"ird`, `"we""ird"`},
		{"t$mongobench_id", `"t$mongobench_id"`},
	} {
		if got := quoteIdent(tc.in); got != tc.want {
			t.Errorf("quoteIdent(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// BenchmarkFindByID measures FindOne by _id on a few thousand YCSB-shaped
// documents through the driver, with the repair and without (FerretDB as
// released).
func BenchmarkFindByID(b *testing.B) {
	const n = 3000

	for _, bc := range []struct {
		name     string
		interval time.Duration
	}{
		{"repaired", 0},
		{"upstream", -1},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s := startServer(b, Options{watchInterval: bc.interval})
			c := connect(b, s)
			coll := c.Database("bench").Collection("usertable")
			insertUsers(b, coll, n)

			if bc.interval >= 0 {
				waitIDIndex(b, s, "bench", "usertable")
			}

			ctx := context.Background()
			filter := bson.D{{Key: "_id", Value: ""}}

			b.ReportAllocs()
			b.ResetTimer()

			i := 0
			for b.Loop() {
				filter[0].Value = fmt.Sprintf("user%d", i%n)
				i += 7919 // a prime stride, so reads spread over the table

				if err := coll.FindOne(ctx, filter).Err(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
