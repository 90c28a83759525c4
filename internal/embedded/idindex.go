package embedded

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	// FerretDB registers the same driver; importing it here says which one
	// "sqlite" is.
	_ "modernc.org/sqlite"
)

// FerretDB 1.24's SQLite backend creates each collection's _id index on
// _ferretdb_sjson->"_id" but looks documents up by
// _ferretdb_sjson->'$._id' (its metadata.IDColumn). SQLite matches index
// expressions by their form, so the index is never used and every find,
// update or delete by _id scans the table. We add an index on exactly the
// expression the lookups use. FerretDB never learns of it: listIndexes,
// collStats and dropIndexes work from FerretDB's own metadata, and dropping
// the collection drops the table and with it our index.
const (
	// idExpr must stay textually identical to FerretDB's metadata.IDColumn.
	idExpr = `_ferretdb_sjson->'$._id'`

	// metadataTable lists a database's collections and their tables.
	metadataTable = "_ferretdb_collections"

	// dbFileExt is the extension of FerretDB's database files.
	dbFileExt = ".sqlite"

	// idIndexSuffix contains '$', which FerretDB's table names (lower-cased
	// collection names, which cannot hold '$') never do, so no index that
	// FerretDB names "<table>_<index name>" can collide with ours.
	idIndexSuffix = "$mongobench_id"
)

const (
	// defaultWatchInterval is how often the watcher looks at the data
	// directory: a new collection in an existing database gets its index
	// within about this long.
	defaultWatchInterval = 100 * time.Millisecond

	// defaultStableAfter is how long a database file must have existed
	// before the watcher opens it; see idIndexer for why.
	defaultStableAfter = 500 * time.Millisecond

	// recheckEvery makes the watcher look once more into a database whose
	// files seem unchanged but were written just before the last look: a
	// file system's timestamps may be too coarse to show a second write.
	recheckEvery = 2 * time.Second
)

// IDIndexName is the name of the index that makes lookups by _id in the
// FerretDB table use an index.
func IDIndexName(table string) string { return table + idIndexSuffix }

// idIndexer adds the _id index to every FerretDB table in a data directory,
// on demand (pass with force) and continuously (the watcher).
//
// It opens its own SQLite connections to FerretDB's files, and that needs
// care. When FerretDB drops a database it closes its own connections and
// removes the file, as if nobody else had it open. If the database is
// re-created while a connection of ours is still open on the removed file,
// FerretDB's new file starts by resetting the -shm file (the WAL index) that
// our connection still uses: a write of ours then corrupts the new
// database's WAL index (FerretDB fails with disk I/O errors), and even a read
// of ours can hit the moment the file is truncated. Closing is safe: SQLite
// skips the checkpoint on close when the file was moved or removed. So:
//   - the watcher only opens database files that have existed for
//     stableAfter, so databases dropped and re-created in a quick loop (test
//     suites do that) are never opened; when one lives long enough to be
//     opened, a drop during one of our short looks is unlikely, and a
//     re-creation inside that same look unlikelier still;
//   - our writes happen in one transaction, committed only after checking
//     that the file is still the one we opened, with synchronous=NORMAL so
//     that no fsync lengthens the commit: what remains is the microseconds
//     between that check and the commit.
//
// EnsureIDIndexes opens every file at once; its caller must not drop
// databases meanwhile.
type idIndexer struct {
	dir         string
	log         *slog.Logger
	stableAfter time.Duration

	mu        sync.Mutex // one pass at a time; guards the fields below
	files     map[string]*fileState
	firstSeen map[string]seenFile
	lastErr   string // last error the watcher logged, to log each once

	cancel context.CancelFunc // stops the watcher
	done   chan struct{}      // closed when the watcher has stopped
}

// seenFile is when a database file (this inode) was first seen.
type seenFile struct {
	fi os.FileInfo
	at time.Time
}

// fileState is what the last completed look at a database file found.
type fileState struct {
	main    os.FileInfo // identifies the file (inode), with its size and time
	wal     fileSig
	checked time.Time
	// settled is true when the files' times were already old at the look:
	// a write after it cannot then hide behind a coarse timestamp equal to
	// the one seen, so an unchanged signature needs no second look.
	settled bool
	// version is the schema version at which every table was seen indexed.
	version int64
}

// fileSig is enough of a file's state to notice that it was written: in WAL
// mode every commit appends to (or after a checkpoint, rewrites) the -wal
// file.
type fileSig struct {
	exists  bool
	size    int64
	modTime int64 // Unix nanoseconds, so that == compares signatures
}

func newIDIndexer(dir string, log *slog.Logger) *idIndexer {
	return &idIndexer{
		dir:         dir,
		log:         log,
		stableAfter: defaultStableAfter,
		files:       map[string]*fileState{},
		firstSeen:   map[string]seenFile{},
	}
}

func (ix *idIndexer) startWatcher(interval time.Duration) {
	ctx, cancel := context.WithCancel(context.Background())
	ix.cancel = cancel
	ix.done = make(chan struct{})

	go func() {
		defer close(ix.done)

		t := time.NewTicker(interval)
		defer t.Stop()

		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}

			ix.watchOnce(ctx)
		}
	}()
}

func (ix *idIndexer) stopWatcher() {
	if ix.cancel != nil {
		ix.cancel()
		<-ix.done
	}
}

// watchOnce runs one pass and logs its failure, once per distinct failure:
// a persistent problem must not fill the log ten times a second.
func (ix *idIndexer) watchOnce(ctx context.Context) {
	err := ix.pass(ctx, false)
	if ctx.Err() != nil {
		return
	}

	msg := ""
	if err != nil {
		msg = err.Error()
	}

	ix.mu.Lock()
	changed := msg != ix.lastErr
	ix.lastErr = msg
	ix.mu.Unlock()

	switch {
	case !changed:
	case err != nil:
		ix.log.Warn("Adding _id indexes failed; will retry", "error", err)
	default:
		ix.log.Info("Adding _id indexes works again")
	}
}

// pass looks at every database file in the directory and indexes the tables
// that lack the _id index. With force it looks into every file at once;
// without, only into files that changed since the last look and have existed
// for stableAfter. Files and tables that vanish meanwhile are not errors.
func (ix *idIndexer) pass(ctx context.Context, force bool) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()

	entries, err := os.ReadDir(ix.dir)
	if err != nil {
		return fmt.Errorf("listing database files: %w", err)
	}

	seen := make(map[string]bool, len(entries))

	var errs []error

	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, dbFileExt) || !e.Type().IsRegular() {
			continue
		}

		if err := ctx.Err(); err != nil {
			return err
		}

		seen[name] = true

		if err := ix.checkFile(ctx, name, force); err != nil {
			errs = append(errs, fmt.Errorf("indexing _id in %s: %w", name, err))
		}
	}

	for name := range ix.files {
		if !seen[name] {
			delete(ix.files, name)
		}
	}

	for name := range ix.firstSeen {
		if !seen[name] {
			delete(ix.firstSeen, name)
		}
	}

	return errors.Join(errs...)
}

// checkFile indexes one database file if it may need it.
func (ix *idIndexer) checkFile(ctx context.Context, name string, force bool) error {
	path := filepath.Join(ix.dir, name)

	main, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}

	if err != nil {
		return err
	}

	now := time.Now()

	first, ok := ix.firstSeen[name]
	if !ok || !os.SameFile(first.fi, main) {
		first = seenFile{fi: main, at: now}
		ix.firstSeen[name] = first
	}

	if !force && now.Sub(first.at) < ix.stableAfter {
		return nil
	}

	wal := statSig(path + "-wal")

	prev := ix.files[name]
	if prev != nil && !os.SameFile(prev.main, main) {
		prev = nil // dropped and re-created: nothing we knew holds
	}

	if !force && prev != nil && prev.unchanged(main, wal) &&
		(prev.settled || now.Sub(prev.checked) < recheckEvery) {
		return nil
	}

	var known *int64
	if prev != nil && !force {
		known = &prev.version
	}

	version, ok, err := repair(ctx, path, main, known, ix.log)
	if err != nil || !ok {
		return err // keep the old state: the next pass looks again
	}

	newest := main.ModTime()
	if wal.exists && wal.modTime > newest.UnixNano() {
		newest = time.Unix(0, wal.modTime)
	}

	// The signature is the one from before the look, so that anything
	// written during it makes the next pass look again.
	ix.files[name] = &fileState{
		main:    main,
		wal:     wal,
		checked: now,
		settled: now.Sub(newest) >= recheckEvery,
		version: version,
	}

	return nil
}

// unchanged tells whether the files look as they did at the last look.
func (st *fileState) unchanged(main os.FileInfo, wal fileSig) bool {
	return main.Size() == st.main.Size() && main.ModTime().Equal(st.main.ModTime()) && wal == st.wal
}

func statSig(path string) fileSig {
	fi, err := os.Stat(path)
	if err != nil {
		return fileSig{}
	}

	return fileSig{exists: true, size: fi.Size(), modTime: fi.ModTime().UnixNano()}
}

// errMoved says the database file was removed or replaced during a look.
var errMoved = errors.New("database file removed or replaced")

// repair opens the database file, and if its schema changed since known (or
// known is nil) adds the missing _id indexes. It returns the schema version at
// which all tables were seen indexed; ok is false when there is no such
// version yet (indexes were just added, or the file was dropped or replaced
// meanwhile) and the next pass must look again.
func repair(ctx context.Context, path string, opened os.FileInfo, known *int64, log *slog.Logger) (version int64, ok bool, err error) {
	db, err := sql.Open("sqlite", fileDSN(path))
	if err != nil {
		return 0, false, fmt.Errorf("opening: %w", err)
	}

	// One connection, so that the pragmas and the transaction below are all
	// on it; closing it is safe even if the file is gone (see idIndexer).
	db.SetMaxOpenConns(1)
	defer db.Close()

	// mode=rw never creates a file, so a database dropped since the stat
	// fails here.
	if err = db.PingContext(ctx); err != nil {
		if moved(path, opened) {
			return 0, false, nil
		}

		return 0, false, fmt.Errorf("opening: %w", err)
	}

	if moved(path, opened) {
		return 0, false, nil // replaced before we opened it: look again
	}

	var current int64
	if err = db.QueryRowContext(ctx, "PRAGMA schema_version").Scan(&current); err != nil {
		return 0, false, fmt.Errorf("reading schema version: %w", err)
	}

	if known != nil && *known == current {
		return current, true, nil
	}

	version, missing, err := missingIDIndexes(ctx, db)
	if err != nil {
		return 0, false, err
	}

	if len(missing) == 0 {
		return version, true, nil
	}

	err = addIDIndexes(ctx, db, path, opened, log)
	if errors.Is(err, errMoved) {
		return 0, false, nil
	}

	return 0, false, err
}

// addIDIndexes adds the missing indexes in one write transaction, committed
// only if the file is still the one that was opened.
func addIDIndexes(ctx context.Context, db *sql.DB, path string, opened os.FileInfo, log *slog.Logger) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("opening: %w", err)
	}
	defer conn.Close()

	// No fsync at commit: it would widen the gap between our last check of
	// the file and the commit, and a lost index is simply added again.
	if _, err = conn.ExecContext(ctx, "PRAGMA synchronous = NORMAL"); err != nil {
		return fmt.Errorf("setting synchronous: %w", err)
	}

	// BEGIN IMMEDIATE takes the write lock at once (waiting for FerretDB's
	// writers up to the busy timeout), so the tables read below are the
	// ones indexed.
	if _, err = conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return fmt.Errorf("beginning write: %w", err)
	}

	committed := false

	defer func() {
		if !committed {
			_, _ = conn.ExecContext(context.Background(), "ROLLBACK")
		}
	}()

	tables, err := idIndexCandidates(ctx, conn)
	if err != nil {
		return err
	}

	for _, table := range tables {
		q := fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON %s (%s)", quoteIdent(IDIndexName(table)), quoteIdent(table), idExpr)
		if _, err = conn.ExecContext(ctx, q); err != nil {
			if isNoSuchTable(err) {
				continue // FerretDB drops the table after its metadata row
			}

			return fmt.Errorf("creating index on %s: %w", table, err)
		}
	}

	if moved(path, opened) {
		return errMoved
	}

	if _, err = conn.ExecContext(ctx, "COMMIT"); err != nil {
		return fmt.Errorf("committing: %w", err)
	}

	committed = true

	log.Debug("Added _id indexes", "file", filepath.Base(path), "tables", tables)

	return nil
}

// querier is what both a transaction and a single connection offer.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// missingIDIndexes lists the tables without our index, and the schema version
// of the snapshot it read them from: reading both in one transaction means a
// collection created meanwhile changes the version and is looked at next time.
func missingIDIndexes(ctx context.Context, db *sql.DB) (version int64, tables []string, err error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, nil, fmt.Errorf("beginning read: %w", err)
	}

	defer func() { _ = tx.Rollback() }()

	if err = tx.QueryRowContext(ctx, "PRAGMA schema_version").Scan(&version); err != nil {
		return 0, nil, fmt.Errorf("reading schema version: %w", err)
	}

	tables, err = idIndexCandidates(ctx, tx)

	return version, tables, err
}

// idIndexCandidates lists the collection tables that lack our index.
func idIndexCandidates(ctx context.Context, q querier) ([]string, error) {
	all, err := queryStrings(ctx, q, "SELECT table_name FROM "+quoteIdent(metadataTable))
	if err != nil {
		if isNoSuchTable(err) {
			// Not a FerretDB database, or one being created: FerretDB adds
			// the metadata table right after creating the file.
			return nil, nil
		}

		return nil, fmt.Errorf("reading collections: %w", err)
	}

	indexes, err := queryStrings(ctx, q, "SELECT name FROM sqlite_schema WHERE type = 'index'")
	if err != nil {
		return nil, fmt.Errorf("reading indexes: %w", err)
	}

	have := make(map[string]bool, len(indexes))
	for _, name := range indexes {
		// SQLite compares identifiers without regard to ASCII case.
		have[strings.ToLower(name)] = true
	}

	var missing []string

	for _, table := range all {
		if !have[strings.ToLower(IDIndexName(table))] {
			missing = append(missing, table)
		}
	}

	return missing, nil
}

func queryStrings(ctx context.Context, q querier, query string) ([]string, error) {
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()

	var res []string

	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}

		res = append(res, s)
	}

	return res, rows.Err()
}

// moved tells whether path no longer names the file that was opened.
func moved(path string, opened os.FileInfo) bool {
	return !os.SameFile(opened, statOrNil(path))
}

func statOrNil(path string) os.FileInfo {
	fi, err := os.Stat(path)
	if err != nil {
		return nil
	}

	return fi
}

// fileDSN opens an existing database file only (mode=rw never creates one).
// The busy timeout is FerretDB's, so neither side gives up on SQLite's write
// lock sooner than the other; the journal mode is left alone: FerretDB's
// files are in WAL mode already.
func fileDSN(path string) string {
	dir, name := filepath.Split(path)
	return "file:" + filepath.ToSlash(dir) + url.PathEscape(name) + "?mode=rw&_pragma=busy_timeout(10000)"
}

// quoteIdent quotes an SQLite identifier.
func quoteIdent(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// isNoSuchTable tells a table that does not exist (any more) from real
// failures. The driver reports it as a generic SQLITE_ERROR, so the message
// is all there is to go by.
func isNoSuchTable(err error) bool {
	return err != nil && strings.Contains(err.Error(), "no such table")
}
