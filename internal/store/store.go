// Package store records every run in a SQLite file, so that runs can be
// listed later and comparisons and reports can name runs by id, label or
// sweep instead of by results file.
//
// Each row keeps the whole results document beside a few columns copied out
// of it for listing and filtering; the document is the truth, the columns an
// index. Secrets are removed before anything reaches the file.
package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	// The pure Go SQLite driver, registered as "sqlite".
	_ "modernc.org/sqlite"

	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/results"
)

// DefaultPath is the store file used when none is named.
const DefaultPath = "mongobench.db"

// ErrNotFound is returned (wrapped) when a run, label or sweep is not in the
// store.
var ErrNotFound = errors.New("not in the store")

// ErrNewerSchema is returned (wrapped) by Open for a store written by a newer
// version of mongobench, which this one must not modify.
var ErrNewerSchema = errors.New("store written by a newer mongobench")

// ErrNotAStore is returned (wrapped) by Open for an SQLite file that belongs
// to another program.
var ErrNotAStore = errors.New("not a mongobench store")

// ErrCorrupt is returned (wrapped) by Open for a store whose file is
// damaged (cut short, overwritten in part): refused before a run is
// measured and lost in it, or before figures are read from it.
var ErrCorrupt = errors.New("the store file is damaged")

// ErrDamagedRun is returned (wrapped) when a run's row cannot be read
// back (its results, start, command or sweep point do not decode): the
// row is damaged, not the file.
var ErrDamagedRun = errors.New("its stored record is damaged")

// applicationID marks the file as a mongobench store ("mbnc"), so that a
// store option pointed at another program's SQLite file (the embedded
// server's, say) is refused instead of gaining a table.
const applicationID = 0x6d626e63

// busyTimeoutMs bounds how long a write waits for another process's write:
// each write is one short INSERT, so waiting longer means something is stuck.
const busyTimeoutMs = 10000

// migrations bring the schema from version i to version i+1; the schema
// version (PRAGMA user_version) is the number of them applied. Only ever
// append to this list: released stores hold the earlier entries.
var migrations = []string{
	// start and end are UTC in timeLayout, so that text order is time order
	// and the file is readable with the sqlite3 shell. command and config
	// are JSON; point is a JSON object, NULL outside sweeps.
	`CREATE TABLE runs (
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		label      TEXT    NOT NULL DEFAULT '',
		phase      TEXT    NOT NULL,
		start      TEXT    NOT NULL,
		"end"      TEXT    NOT NULL,
		runtime_ms INTEGER NOT NULL,
		operations INTEGER NOT NULL,
		throughput REAL    NOT NULL,
		partial    INTEGER NOT NULL,
		command    TEXT    NOT NULL,
		config     TEXT    NOT NULL,
		sweep_id   TEXT    NOT NULL DEFAULT '',
		point      TEXT,
		trial      INTEGER NOT NULL DEFAULT 0,
		results    TEXT    NOT NULL
	)`,
	`CREATE INDEX runs_label ON runs (label)`,
	`CREATE INDEX runs_sweep ON runs (sweep_id)`,
	`CREATE INDEX runs_start ON runs (start)`,
	// Disk baselines (mongobench disk) beside the runs: device and
	// measured_at to find the latest of a disk, the ceiling's figures
	// for listing, the whole baseline as JSON.
	`CREATE TABLE disk_baselines (
		id              INTEGER PRIMARY KEY AUTOINCREMENT,
		device          TEXT    NOT NULL,
		dir             TEXT    NOT NULL,
		measured_at     TEXT    NOT NULL,
		rand_read_iops  REAL    NOT NULL,
		rand_write_iops REAL    NOT NULL,
		seq_read_mb_s   REAL    NOT NULL,
		seq_write_mb_s  REAL    NOT NULL,
		baseline        TEXT    NOT NULL
	)`,
	`CREATE INDEX disk_baselines_device ON disk_baselines (device, measured_at)`,
}

// schemaVersion is the schema version this code writes and the newest it
// reads.
var schemaVersion = len(migrations)

// timeLayout is fixed-width (nanoseconds always printed), unlike
// time.RFC3339Nano, so that ORDER BY start orders by time.
const timeLayout = "2006-01-02T15:04:05.000000000Z07:00"

// Store is an open results store. It is safe for concurrent use.
type Store struct {
	db   *sql.DB
	path string
}

// SaveOptions say where a run belongs in a series of runs.
type SaveOptions struct {
	// SweepID names the sweep the run is part of; empty for a lone run.
	SweepID string
	// Point holds the properties the sweep varied and their values at this
	// run ("threadcount": "16").
	Point map[string]string
	// Trial numbers the repetitions of one sweep point.
	Trial int
}

// Filter selects runs for List. Empty fields select everything.
type Filter struct {
	Label   string
	SweepID string
	Phase   string
	// Limit caps the number of runs returned; 0 means no cap.
	Limit int
}

// RunInfo is the summary of one stored run, as history lists it.
type RunInfo struct {
	ID         int64
	Label      string
	Phase      string
	Start      time.Time
	RuntimeMs  int64
	Operations int64
	// Throughput is in operations per second.
	Throughput float64
	Partial    bool
	SweepID    string
	// Point is nil for a run outside a sweep.
	Point   map[string]string
	Trial   int
	Command []string
}

// Open opens the store at path, creating the file and its schema if needed
// and bringing an older schema up to date. It refuses a store written by a
// newer mongobench and SQLite files of other programs.
func Open(path string) (*Store, error) {
	if path == "" {
		return nil, errors.New("open store: empty path")
	}
	dsn, err := dataSourceName(path)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	s := &Store{db: db, path: path}
	if err := s.migrate(context.Background()); err != nil {
		_ = db.Close()
		if isCorrupt(err) {
			err = fmt.Errorf("%w (%v)", ErrCorrupt, err)
		}
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	if err := s.quickCheck(context.Background()); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	return s, nil
}

// quickCheck runs SQLite's quick_check, which reads every page: a store
// damaged past its header opens and answers its first queries, and fails
// only on the page the next save or listing touches.
func (s *Store) quickCheck(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, "PRAGMA quick_check(3)")
	if err != nil {
		if isCorrupt(err) {
			return fmt.Errorf("%w (%v)", ErrCorrupt, err)
		}
		return fmt.Errorf("check store: %w", err)
	}
	defer func() { _ = rows.Close() }()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return fmt.Errorf("check store: %w", err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		if isCorrupt(err) {
			return fmt.Errorf("%w (%v)", ErrCorrupt, err)
		}
		return fmt.Errorf("check store: %w", err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w: %s", ErrCorrupt, strings.Join(problems, "; "))
	}
	return nil
}

// sqliteCorrupt is SQLite's result code for a damaged file.
const sqliteCorrupt = 11

// isCorrupt tells SQLite's errors for a damaged file, reported by code.
func isCorrupt(err error) bool {
	var coded interface{ Code() int }
	return errors.As(err, &coded) && coded.Code()&0xff == sqliteCorrupt
}

// dataSourceName makes a SQLite URI of path. A URI, rather than the bare
// path, lets file names hold '?' or '#', which the driver would otherwise
// take for the start of its options.
func dataSourceName(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	abs = filepath.ToSlash(abs)
	if !strings.HasPrefix(abs, "/") {
		abs = "/" + abs // a Windows drive letter: file:///C:/...
	}
	u := url.URL{Path: abs}
	q := url.Values{}
	// Immediate transactions take the write lock up front, so two
	// processes creating the schema at once wait for each other instead of
	// failing. WAL is set later, once the file is known to be ours: it
	// rewrites the file header.
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeoutMs))
	q.Set("_txlock", "immediate")
	return "file://" + u.EscapedPath() + "?" + q.Encode(), nil
}

// Path returns the path the store was opened with.
func (s *Store) Path() string { return s.path }

// Close closes the store.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close store %s: %w", s.path, err)
	}
	return nil
}

func (s *Store) migrate(ctx context.Context) error {
	// Most opens find the schema current; they should not need the write
	// lock, so the first look is outside a transaction. Its queries are not
	// one snapshot, so anything but "current" is looked at again under the
	// lock, where another process's schema creation is either all done or
	// not begun.
	if v, err := checkVersion(ctx, s.db); err == nil && v == schemaVersion {
		return s.useWAL(ctx)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("schema migration: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	v, err := checkVersion(ctx, tx)
	if err != nil {
		return err
	}
	if v != schemaVersion {
		for i := v; i < schemaVersion; i++ {
			if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
				return fmt.Errorf("schema migration %d: %w", i+1, err)
			}
		}
		// PRAGMA takes no bound parameters; both values are ours.
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", applicationID)); err != nil {
			return fmt.Errorf("schema migration: %w", err)
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", schemaVersion)); err != nil {
			return fmt.Errorf("schema migration: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("schema migration: %w", err)
	}
	// Only now is the file known to be ours: WAL rewrites its header.
	return s.useWAL(ctx)
}

// useWAL switches the file to WAL, which lets history read while a run
// writes. The mode is stored in the file, so after the first open there is
// nothing to do. The switch needs the file to itself and SQLite answers
// BUSY at once, without its busy handler, while another process holds it
// (two runs starting together on a new store): so it is retried for as
// long as any other write would wait.
func (s *Store) useWAL(ctx context.Context) error {
	deadline := time.Now().Add(busyTimeoutMs * time.Millisecond)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		var mode string
		err := s.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode)
		if err == nil && strings.EqualFold(mode, "wal") {
			return nil
		}
		if err == nil {
			_, err = s.db.ExecContext(ctx, "PRAGMA journal_mode = WAL")
		}
		if err == nil {
			return nil
		}
		if !isBusy(err) || time.Now().After(deadline) {
			return fmt.Errorf("set WAL journal mode: %w", err)
		}
		time.Sleep(wait)
	}
}

// isBusy tells the errors of a file that another connection holds locked.
func isBusy(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "SQLITE_BUSY") || strings.Contains(msg, "database is locked")
}

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// checkVersion returns the schema version of the file, or an error if the
// file is not one this code may use.
func checkVersion(ctx context.Context, q querier) (int, error) {
	var appID, version, tables int
	if err := q.QueryRowContext(ctx, "PRAGMA application_id").Scan(&appID); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	if err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	if appID != 0 && appID != applicationID {
		return 0, fmt.Errorf("%w: the SQLite file belongs to another program (application_id %#x)", ErrNotAStore, appID)
	}
	if appID == 0 {
		// A file without our mark must be empty: anything else is some
		// other program's data.
		if err := q.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&tables); err != nil {
			return 0, fmt.Errorf("read schema: %w", err)
		}
		if tables > 0 || version != 0 {
			return 0, fmt.Errorf("%w: the SQLite file holds data of another program", ErrNotAStore)
		}
	}
	if version > schemaVersion {
		return 0, fmt.Errorf("%w: its schema version is %d, this mongobench knows versions up to %d; use a newer mongobench or another store file",
			ErrNewerSchema, version, schemaVersion)
	}
	if version < 0 {
		return 0, fmt.Errorf("%w: schema version %d", ErrNotAStore, version)
	}
	return version, nil
}

// Save records the results of a run and returns its run id. Every string of
// the results (command line, configuration, extra sections) and of the sweep
// point passes through redact.Text first: callers redact already, and this
// is the second line of defence for a file that lives for years.
func (s *Store) Save(ctx context.Context, r *results.Results, opts SaveOptions) (int64, error) {
	if r == nil {
		return 0, errors.New("save run: no results")
	}
	if r.FormatVersion != results.FormatVersion {
		return 0, fmt.Errorf("save run: results format_version %d, want %d", r.FormatVersion, results.FormatVersion)
	}
	if opts.Trial < 0 {
		return 0, fmt.Errorf("save run: trial %d is negative", opts.Trial)
	}
	doc, clean, err := redactResults(r)
	if err != nil {
		return 0, fmt.Errorf("save run: %w", err)
	}
	command := clean.Command
	if command == nil {
		command = []string{}
	}
	commandJSON, err := json.Marshal(command)
	if err != nil {
		return 0, fmt.Errorf("save run: command: %w", err)
	}
	config := clean.Config
	if config == nil {
		config = map[string]string{}
	}
	configJSON, err := json.Marshal(config)
	if err != nil {
		return 0, fmt.Errorf("save run: config: %w", err)
	}
	var point sql.NullString
	if len(opts.Point) > 0 {
		p := make(map[string]string, len(opts.Point))
		for k, v := range opts.Point {
			p[redact.Text(k)] = redact.Text(v)
		}
		b, err := json.Marshal(p)
		if err != nil {
			return 0, fmt.Errorf("save run: sweep point: %w", err)
		}
		point = sql.NullString{String: string(b), Valid: true}
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO runs
		(label, phase, start, "end", runtime_ms, operations, throughput, partial, command, config, sweep_id, point, trial, results)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		clean.Label, clean.Phase, formatTime(clean.Start), formatTime(clean.End),
		clean.RuntimeMs, clean.Operations, clean.ThroughputOpsSec, clean.Partial,
		string(commandJSON), string(configJSON), redact.Text(opts.SweepID), point, opts.Trial, string(doc))
	if err != nil {
		return 0, fmt.Errorf("save run in %s: %w", s.path, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("save run in %s: %w", s.path, err)
	}
	return id, nil
}

// redactResults returns the results document with every string redacted,
// and the results decoded from it. Walking the decoded document instead of
// the known fields also covers Extra, whose sections other parts of the tool
// fill, and works on the strings themselves rather than on their JSON
// escapes ('&' is written \u0026), which text patterns would miss.
func redactResults(r *results.Results) ([]byte, *results.Results, error) {
	raw, err := json.Marshal(r)
	if err != nil {
		return nil, nil, fmt.Errorf("encode results: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	// Numbers stay as written: float64 would round large counts.
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, nil, fmt.Errorf("encode results: %w", err)
	}
	clean, err := json.Marshal(redactValue(doc))
	if err != nil {
		return nil, nil, fmt.Errorf("encode results: %w", err)
	}
	var out results.Results
	if err := json.Unmarshal(clean, &out); err != nil {
		return nil, nil, fmt.Errorf("encode results: %w", err)
	}
	return clean, &out, nil
}

func redactValue(v any) any {
	switch x := v.(type) {
	case string:
		return redact.Text(x)
	case []any:
		for i := range x {
			x[i] = redactValue(x[i])
		}
		return x
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[redact.Text(k)] = redactValue(e)
		}
		return out
	default:
		return v
	}
}

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

// Get returns the results of run id exactly as they were saved (after
// redaction). Extra sections come back as decoded JSON, as from a results
// file.
func (s *Store) Get(ctx context.Context, id int64) (*results.Results, error) {
	var doc string
	err := s.db.QueryRowContext(ctx, `SELECT results FROM runs WHERE id = ?`, id).Scan(&doc)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("run %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("run %d in %s: %w", id, s.path, err)
	}
	r, err := results.ReadJSON(strings.NewReader(doc))
	if err != nil {
		return nil, fmt.Errorf("run %d in %s: %w: %w", id, s.path, ErrDamagedRun, err)
	}
	return r, nil
}

// List returns the runs f selects, newest first (by start time, then by id
// for runs that started together).
func (s *Store) List(ctx context.Context, f Filter) ([]RunInfo, error) {
	if f.Limit < 0 {
		return nil, fmt.Errorf("list runs: limit %d is negative", f.Limit)
	}
	var (
		where []string
		args  []any
	)
	for _, c := range []struct{ column, value string }{
		{"label", f.Label}, {"sweep_id", f.SweepID}, {"phase", f.Phase},
	} {
		if c.value != "" {
			where = append(where, c.column+" = ?")
			args = append(args, c.value)
		}
	}
	q := `SELECT id, label, phase, start, runtime_ms, operations, throughput, partial, sweep_id, point, trial, command FROM runs`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY start DESC, id DESC"
	if f.Limit > 0 {
		q += " LIMIT ?"
		args = append(args, f.Limit)
	}
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list runs in %s: %w", s.path, err)
	}
	defer func() { _ = rows.Close() }()
	var runs []RunInfo
	for rows.Next() {
		var (
			ri             RunInfo
			start, command string
			point          sql.NullString
		)
		if err := rows.Scan(&ri.ID, &ri.Label, &ri.Phase, &start, &ri.RuntimeMs, &ri.Operations, &ri.Throughput,
			&ri.Partial, &ri.SweepID, &point, &ri.Trial, &command); err != nil {
			return nil, fmt.Errorf("list runs in %s: %w", s.path, err)
		}
		if ri.Start, err = time.Parse(timeLayout, start); err != nil {
			return nil, fmt.Errorf("list runs in %s: run %d: %w: start: %w", s.path, ri.ID, ErrDamagedRun, err)
		}
		if err := json.Unmarshal([]byte(command), &ri.Command); err != nil {
			return nil, fmt.Errorf("list runs in %s: run %d: %w: command: %w", s.path, ri.ID, ErrDamagedRun, err)
		}
		if point.Valid {
			if err := json.Unmarshal([]byte(point.String), &ri.Point); err != nil {
				return nil, fmt.Errorf("list runs in %s: run %d: %w: sweep point: %w", s.path, ri.ID, ErrDamagedRun, err)
			}
		}
		runs = append(runs, ri)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list runs in %s: %w", s.path, err)
	}
	return runs, nil
}
