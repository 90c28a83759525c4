// Package embedded runs a MongoDB-compatible server inside the process:
// FerretDB with its SQLite backend, listening on a loopback port. mongobench
// uses it when no mongodb.url is given, and its tests use it as the real
// server they run against.
//
// FerretDB's SQLite backend indexes _id with an expression its own _id
// lookups never match, so every read by _id scans the whole table. This
// package adds a matching index to every collection (see EnsureIDIndexes):
// on 3,000 documents a find by _id is then about 40 times faster, and the
// gap grows with the table, since the scan is linear in its size.
package embedded

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/mongobench/mongobench/internal/redact"
)

// LogFileName is the name of FerretDB's log file inside the data directory.
const LogFileName = "ferretdb.log"

// DefaultAddr listens on a free loopback port.
const DefaultAddr = "127.0.0.1:0"

// defaultReadyTimeout bounds the wait for the server's first answer when the
// caller's context has no deadline of its own.
const defaultReadyTimeout = 10 * time.Second

// Options configures Start. The zero value is a server on a free loopback
// port with a temporary data directory.
type Options struct {
	// Addr is the TCP address to listen on, "HOST:PORT"; empty means
	// DefaultAddr. With TLS set, this is the TLS listener's address and no
	// plain TCP listener is opened.
	Addr string

	// DataDir holds the SQLite files (one per database) and the log. Empty
	// means a new temporary directory that Close removes; a given directory
	// is created if missing and kept.
	DataDir string

	// TLS, when not nil, serves TLS only.
	TLS *TLSOptions

	// LogLevel is the least level written to the log file. The zero value
	// is slog.LevelInfo: FerretDB then logs listener and connection starts
	// and stops, a few lines per client, never a line per command.
	LogLevel slog.Level

	// watchInterval is how often the _id index watcher looks for new
	// collections: 0 means defaultWatchInterval, negative disables the
	// watcher (tests use that to see the upstream behaviour).
	watchInterval time.Duration

	// stableAfter is how old a database file must be before the watcher
	// opens it: 0 means defaultStableAfter, negative means no wait.
	stableAfter time.Duration
}

// TLSOptions are the certificate files of the TLS listener, in PEM.
type TLSOptions struct {
	CertFile string // server certificate
	KeyFile  string // its private key
	// CAFile, when set, makes the server require client certificates
	// signed by this CA (as FerretDB does).
	CAFile string
}

// Server is a running embedded server. Its methods are safe for concurrent
// use.
type Server struct {
	uri      string
	hostPort string // as in uri; the key of running
	dataDir  string
	tempDir  bool
	logPath  string
	logFile  *os.File

	gate    *gate
	sockDir string // holds FerretDB's socket

	cancel context.CancelFunc // stops FerretDB
	done   chan struct{}      // closed when FerretDB's Run returns

	idx *idIndexer

	closeOnce sync.Once
	closeErr  error
}

// newMu serialises ferretdb.New: it writes a package-level variable of
// FerretDB's, which would race when servers start concurrently.
var newMu sync.Mutex

// Start starts a server and returns once it answers a hello command.
// Collections already in DataDir get their _id index first. Cancelling ctx
// aborts the start; a started server runs until Close, whatever happens to
// ctx.
//
// Clients reach FerretDB through a gate (see gate) that keeps them from
// wedging it; FerretDB itself listens on a Unix socket in a directory of
// its own, or on a loopback port where such a socket's path would be too
// long.
func Start(ctx context.Context, opts Options) (_ *Server, err error) {
	addr := opts.Addr
	if addr == "" {
		addr = DefaultAddr
	}

	if _, _, err := net.SplitHostPort(addr); err != nil {
		return nil, fmt.Errorf("embedded: listen address %q: want HOST:PORT: %w", addr, err)
	}

	var tlsConfig *tls.Config
	if opts.TLS != nil {
		if tlsConfig, err = opts.TLS.config(); err != nil {
			return nil, err
		}
	}

	s := &Server{done: make(chan struct{})}

	// Undo whatever was set up if a later step fails.
	var cleanups []func()
	defer func() {
		if err != nil {
			for i := len(cleanups) - 1; i >= 0; i-- {
				cleanups[i]()
			}
		}
	}()

	// The clients' listener comes first: a busy port is then reported
	// before anything else starts.
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("embedded: cannot listen on %s: %w", addr, err)
	}

	cleanups = append(cleanups, func() { _ = ln.Close() })

	if s.uri, err = clientURI(ln.Addr().String(), tlsConfig != nil); err != nil {
		return nil, fmt.Errorf("embedded: %w", err)
	}

	if tlsConfig != nil {
		ln = tls.NewListener(ln, tlsConfig)
	}

	if s.dataDir, s.tempDir, err = prepareDataDir(opts.DataDir); err != nil {
		return nil, err
	}

	if s.tempDir {
		cleanups = append(cleanups, func() { _ = os.RemoveAll(s.dataDir) })
	}

	s.logPath = filepath.Join(s.dataDir, LogFileName)

	// The data directory may be the user's (--data-dir): a link or
	// anything but a regular file at the log's name is not written
	// through.
	if fi, lerr := os.Lstat(s.logPath); lerr == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("embedded: log file %s is not a regular file: remove it, or choose another data directory", s.logPath)
	}
	s.logFile, err = os.OpenFile(s.logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("embedded: opening log file: %w", err)
	}

	cleanups = append(cleanups, func() { _ = s.logFile.Close() })

	logger := slog.New(slog.NewTextHandler(redact.Writer(s.logFile), &slog.HandlerOptions{Level: opts.LogLevel}))

	s.idx = newIDIndexer(s.dataDir, logger.With("component", "mongobench-id-index"))

	switch {
	case opts.stableAfter < 0:
		s.idx.stableAfter = 0
	case opts.stableAfter > 0:
		s.idx.stableAfter = opts.stableAfter
	}

	// Collections left by an earlier run get their index before any client
	// can reach them: building it on a large table under load would hold
	// SQLite's write lock for long.
	if err = s.idx.pass(ctx, true); err != nil {
		return nil, fmt.Errorf("embedded: %w", err)
	}

	// Only this process's user can reach a socket in a directory of its
	// own: a TLS server (maybe one that requires client certificates) must
	// not be open in plain text next to it.
	if s.sockDir, err = os.MkdirTemp("", "mongobench-ferretdb-"); err != nil {
		return nil, fmt.Errorf("embedded: creating FerretDB's socket directory: %w", err)
	}

	cleanups = append(cleanups, func() { _ = os.RemoveAll(s.sockDir) })

	cfg := &ferretdb.Config{
		Logger:    logger.With("component", "ferretdb"),
		Handler:   "sqlite",
		SQLiteURL: sqliteURL(s.dataDir),
	}

	backendNet, backendAddr := "unix", filepath.Join(s.sockDir, "ferretdb.sock")
	if len(backendAddr) > maxSocketPath {
		backendNet, backendAddr = "tcp", "127.0.0.1:0"
		cfg.Listener = ferretdb.ListenerConfig{TCP: backendAddr}
	} else {
		cfg.Listener = ferretdb.ListenerConfig{Unix: backendAddr}
	}

	newMu.Lock()
	f, err := ferretdb.New(cfg)
	newMu.Unlock()

	if err != nil {
		return nil, fmt.Errorf("embedded: starting FerretDB: %w", err)
	}

	if backendNet == "tcp" {
		// The port is known once New has bound it.
		if backendAddr, err = uriHost(f.MongoDBURI()); err != nil {
			_ = f.Run(canceledContext())
			return nil, fmt.Errorf("embedded: %w", err)
		}
	}

	runCtx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel

	go func() {
		defer close(s.done)

		// Run only ever returns nil; it closes the listeners and the
		// SQLite backend before returning.
		_ = f.Run(runCtx)
	}()

	cleanups = append(cleanups, func() {
		cancel()
		<-s.done
	})

	if err = waitReady(ctx, backendNet, backendAddr); err != nil {
		return nil, fmt.Errorf("embedded: FerretDB did not become ready: %w", err)
	}

	var d net.Dialer

	s.gate = newGate(ln, func() (net.Conn, error) { return d.Dial(backendNet, backendAddr) },
		maxActiveCommands, logger.With("component", "mongobench-gate"))

	s.gate.start()

	interval := opts.watchInterval
	if interval == 0 {
		interval = defaultWatchInterval
	}

	if interval > 0 {
		s.idx.startWatcher(interval)
	}

	if u, err := url.Parse(s.uri); err == nil {
		s.hostPort = u.Host
		running.Store(s.hostPort, s)
	}

	return s, nil
}

// maxSocketPath leaves a margin below the shortest limit on a Unix socket's
// path (104 bytes, on macOS).
const maxSocketPath = 100

// running holds the address of every embedded server started in this
// process and not yet closed.
var running sync.Map

// InProcess reports whether hostPort ("127.0.0.1:40123") is served by an
// embedded server running inside this process. Its CPU time is then the
// process's too, which a client measuring its own CPU must know.
func InProcess(hostPort string) bool {
	_, ok := running.Load(hostPort)
	return ok
}

// URI is the connection string of the server, without credentials, for
// example mongodb://127.0.0.1:40123/ (with ?tls=true when serving TLS).
func (s *Server) URI() string { return s.uri }

// DataDir is the directory holding the database files.
func (s *Server) DataDir() string { return s.dataDir }

// LogPath is the log file of FerretDB and of the _id index watcher.
func (s *Server) LogPath() string { return s.logPath }

// EnsureIDIndexes gives every existing collection the _id index that
// FerretDB's lookups by _id can use, and returns when all have it. The
// background watcher does the same for new collections within a fraction of
// a second (in a new database, once its file is half a second old); call
// this when a collection must be fast right now, for example just before a
// timed phase, and not while a client drops and re-creates databases:
// unlike the watcher, it does not wait for database files to settle.
// Collections and databases dropped meanwhile are not errors.
func (s *Server) EnsureIDIndexes(ctx context.Context) error {
	if err := s.idx.pass(ctx, true); err != nil {
		return fmt.Errorf("embedded: %w", err)
	}

	return nil
}

// Close stops the server: the index watcher, then the listener (clients
// still connected are disconnected), then FerretDB (commands still running
// get up to 3 s to end), then removes a temporary data directory. It is
// safe to call more than once.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		running.CompareAndDelete(s.hostPort, s)
		s.idx.stopWatcher()
		s.gate.close()

		s.cancel()
		<-s.done

		var errs []error

		if err := os.RemoveAll(s.sockDir); err != nil {
			errs = append(errs, fmt.Errorf("embedded: removing FerretDB's socket directory: %w", err))
		}

		if err := s.logFile.Close(); err != nil {
			errs = append(errs, fmt.Errorf("embedded: closing log file: %w", err))
		}

		if s.tempDir {
			if err := os.RemoveAll(s.dataDir); err != nil {
				errs = append(errs, fmt.Errorf("embedded: removing data directory: %w", err))
			}
		}

		s.closeErr = errors.Join(errs...)
	})

	return s.closeErr
}

// config loads the files as FerretDB would, into the configuration of the
// clients' listener.
func (o *TLSOptions) config() (*tls.Config, error) {
	if o.CertFile == "" || o.KeyFile == "" {
		return nil, errors.New("embedded: TLS needs both a certificate file and a key file")
	}

	cert, err := tls.LoadX509KeyPair(o.CertFile, o.KeyFile)
	if err != nil {
		return nil, fmt.Errorf("embedded: TLS certificate %s and key %s: %w", o.CertFile, o.KeyFile, err)
	}

	cfg := &tls.Config{Certificates: []tls.Certificate{cert}}

	if o.CAFile != "" {
		b, err := os.ReadFile(o.CAFile)
		if err != nil {
			return nil, fmt.Errorf("embedded: TLS CA file: %w", err)
		}

		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(b) {
			return nil, fmt.Errorf("embedded: TLS CA file %s: no PEM certificate in it", o.CAFile)
		}

		cfg.ClientAuth = tls.RequireAndVerifyClientCert
		cfg.ClientCAs = pool
	}

	return cfg, nil
}

// prepareDataDir returns the absolute data directory, creating it (or a
// temporary one when dir is empty).
func prepareDataDir(dir string) (abs string, temp bool, err error) {
	if dir == "" {
		abs, err = os.MkdirTemp("", "mongobench-embedded-")
		if err != nil {
			return "", false, fmt.Errorf("embedded: creating temporary data directory: %w", err)
		}

		// Resolving symlinks keeps the path FerretDB sees and the one we scan
		// identical (macOS's temporary directory is a symlink).
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}

		return abs, true, checkDataDir(abs)
	}

	if abs, err = filepath.Abs(dir); err != nil {
		return "", false, fmt.Errorf("embedded: data directory %q: %w", dir, err)
	}

	// FerretDB takes the directory as a SQLite URI and does not escape it,
	// so these characters would silently change the path.
	if err = checkDataDir(abs); err != nil {
		return "", false, err
	}

	if err = os.MkdirAll(abs, 0o755); err != nil {
		return "", false, fmt.Errorf("embedded: creating data directory: %w", err)
	}

	return abs, false, nil
}

func checkDataDir(abs string) error {
	if strings.ContainsAny(abs, "?#%") {
		return fmt.Errorf("embedded: data directory %q: must not contain '?', '#' or '%%'", abs)
	}

	return nil
}

// sqliteURL is the directory URI FerretDB wants: "file:" and a path ending
// with '/'. FerretDB adds busy_timeout and WAL itself.
func sqliteURL(dir string) string {
	p := filepath.ToSlash(dir)
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}

	return "file:" + p
}

// clientURI is the URI a client dials to reach a listener on hostPort: a
// listener on an unspecified address (0.0.0.0, ::) is reached through
// loopback.
func clientURI(hostPort string, useTLS bool) (string, error) {
	host, port, err := net.SplitHostPort(hostPort)
	if err != nil {
		return "", fmt.Errorf("listener address %q: %w", hostPort, err)
	}

	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		if ip.To4() != nil {
			host = "127.0.0.1"
		} else {
			host = "::1"
		}
	}

	u := url.URL{Scheme: "mongodb", Host: net.JoinHostPort(host, port), Path: "/"}
	if useTLS {
		u.RawQuery = "tls=true"
	}

	return u.String(), nil
}

// uriHost is the HOST:PORT of a mongodb:// URI.
func uriHost(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("parsing FerretDB's URI %q: %w", uri, err)
	}

	return u.Host, nil
}

func canceledContext() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()

	return ctx
}

// waitReady returns once FerretDB answers a hello command at address.
func waitReady(ctx context.Context, network, address string) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, defaultReadyTimeout)
		defer cancel()
	}

	for {
		err := tryHello(ctx, network, address)
		if err == nil {
			return nil
		}

		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last attempt: %w)", ctx.Err(), err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func tryHello(ctx context.Context, network, address string) error {
	var d net.Dialer

	conn, err := d.DialContext(ctx, network, address)
	if err != nil {
		return err
	}
	defer conn.Close()

	if deadline, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(deadline)
	}

	msg, err := helloMessage()
	if err != nil {
		return err
	}

	if _, err = conn.Write(msg); err != nil {
		return fmt.Errorf("sending hello: %w", err)
	}

	doc, err := readOpMsgBody(conn)
	if err != nil {
		return fmt.Errorf("reading hello reply: %w", err)
	}

	ok, isNum := bson.Raw(doc).Lookup("ok").AsFloat64OK()
	if !isNum || ok != 1 {
		return fmt.Errorf("hello reply not ok: %s", bson.Raw(doc))
	}

	return nil
}

// helloMessage is an OP_MSG with one body section {hello: 1, $db: "admin"}.
func helloMessage() ([]byte, error) {
	doc, err := bson.Marshal(bson.D{{Key: "hello", Value: 1}, {Key: "$db", Value: "admin"}})
	if err != nil {
		return nil, fmt.Errorf("encoding hello: %w", err)
	}

	msg := make([]byte, 16+4+1, 16+4+1+len(doc))
	msg = append(msg, doc...)
	binary.LittleEndian.PutUint32(msg[0:], uint32(len(msg)))
	binary.LittleEndian.PutUint32(msg[4:], 1) // requestID
	binary.LittleEndian.PutUint32(msg[12:], opMsg)
	// flagBits (msg[16:20]) and section kind 0 (msg[20]) stay zero.

	return msg, nil
}

// readOpMsgBody reads one OP_MSG reply and returns its body document.
func readOpMsgBody(r io.Reader) ([]byte, error) {
	msg, err := readMessage(r)
	if err != nil {
		return nil, err
	}

	if op := binary.LittleEndian.Uint32(msg[12:]); op != opMsg {
		return nil, fmt.Errorf("reply opcode %d, want %d", op, opMsg)
	}

	if len(msg) < 16+4+1+5 {
		return nil, fmt.Errorf("reply of %d bytes", len(msg))
	}

	if msg[20] != 0 {
		return nil, fmt.Errorf("reply section kind %d, want 0", msg[20])
	}

	doc := msg[21:]
	if err := bson.Raw(doc).Validate(); err != nil {
		return nil, fmt.Errorf("reply body: %w", err)
	}

	return doc, nil
}
