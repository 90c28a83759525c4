package embedded

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/testcert"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// testTimeout bounds each test's waits, which normally end in milliseconds;
// it is generous for the race detector, under which SQLite runs ten times
// slower.
const testTimeout = 2 * time.Minute

func testContext(t testing.TB) context.Context {
	t.Helper()

	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)

	return ctx
}

// startServer starts a server that the test's cleanup closes.
func startServer(t testing.TB, opts Options) *Server {
	t.Helper()

	s, err := Start(testContext(t), opts)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}

	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})

	return s
}

// connect returns a client of s; it disconnects before s closes, because
// cleanups run last-registered first.
func connect(t testing.TB, s *Server) *mongo.Client {
	t.Helper()

	c, err := mongo.Connect(options.Client().ApplyURI(s.URI()))
	if err != nil {
		t.Fatalf("connect: %v", err)
	}

	t.Cleanup(func() {
		if err := c.Disconnect(context.Background()); err != nil && !errors.Is(err, mongo.ErrClientDisconnected) {
			t.Errorf("disconnect: %v", err)
		}
	})

	return c
}

func TestStartClose(t *testing.T) {
	s := startServer(t, Options{})
	ctx := testContext(t)

	if !strings.HasPrefix(s.URI(), "mongodb://127.0.0.1:") || !strings.HasSuffix(s.URI(), "/") {
		t.Errorf("URI() = %q, want mongodb://127.0.0.1:PORT/", s.URI())
	}

	hostPort := strings.TrimSuffix(strings.TrimPrefix(s.URI(), "mongodb://"), "/")
	if !InProcess(hostPort) || InProcess("127.0.0.1:1") {
		t.Errorf("InProcess(%q) = %v, InProcess(127.0.0.1:1) = %v: want true, false", hostPort, InProcess(hostPort), InProcess("127.0.0.1:1"))
	}

	if got := filepath.Dir(s.LogPath()); got != s.DataDir() {
		t.Errorf("LogPath() %q is not in DataDir() %q", s.LogPath(), s.DataDir())
	}

	c := connect(t, s)
	if err := c.Ping(ctx, nil); err != nil {
		t.Fatalf("ping: %v", err)
	}

	coll := c.Database("startclose").Collection("docs")
	if _, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: "k1"}, {Key: "v", Value: 42}}); err != nil {
		t.Fatalf("insert: %v", err)
	}

	var got struct {
		ID string `bson:"_id"`
		V  int    `bson:"v"`
	}
	if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: "k1"}}).Decode(&got); err != nil {
		t.Fatalf("find: %v", err)
	}

	if got.ID != "k1" || got.V != 42 {
		t.Errorf("found %+v, want {k1 42}", got)
	}

	if _, err := os.Stat(filepath.Join(s.DataDir(), "startclose.sqlite")); err != nil {
		t.Errorf("database file: %v", err)
	}

	if err := c.Disconnect(ctx); err != nil {
		t.Fatalf("disconnect: %v", err)
	}

	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	if _, err := os.Stat(s.DataDir()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("temporary data directory after Close: stat error %v, want not exist", err)
	}

	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}

	if InProcess(hostPort) {
		t.Errorf("InProcess(%q) after Close", hostPort)
	}

	if _, err := net.DialTimeout("tcp", strings.TrimSuffix(strings.TrimPrefix(s.URI(), "mongodb://"), "/"), time.Second); err == nil {
		t.Errorf("server still accepts connections after Close")
	}
}

func TestDataDirKept(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "not", "yet") // Start creates it
	ctx := testContext(t)

	s1, err := Start(ctx, Options{DataDir: dir, watchInterval: -1})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}

	c1, err := mongo.Connect(options.Client().ApplyURI(s1.URI()))
	if err != nil {
		t.Fatalf("connect: %v", err)
	}

	coll := c1.Database("kept").Collection("docs")
	if _, err = coll.InsertOne(ctx, bson.D{{Key: "_id", Value: "k1"}, {Key: "v", Value: "one"}}); err != nil {
		t.Fatalf("insert: %v", err)
	}

	_ = c1.Disconnect(ctx)

	if err = s1.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	if s1.DataDir() != dir {
		t.Errorf("DataDir() = %q, want %q", s1.DataDir(), dir)
	}

	for _, name := range []string{"kept.sqlite", LogFileName} {
		if _, err = os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s after Close: %v", name, err)
		}
	}

	// A second server on the same directory sees the data, and Start's own
	// pass has indexed the table (the watcher is off).
	s2 := startServer(t, Options{DataDir: dir, watchInterval: -1})
	c2 := connect(t, s2)

	var got bson.M
	if err = c2.Database("kept").Collection("docs").FindOne(ctx, bson.D{{Key: "_id", Value: "k1"}}).Decode(&got); err != nil {
		t.Fatalf("find after restart: %v", err)
	}

	if got["v"] != "one" {
		t.Errorf("found %v, want v=one", got)
	}

	table := tableName(t, s2, "kept", "docs")
	if plan := idQueryPlan(t, s2, "kept", table); !usesIDIndex(plan, table) {
		t.Errorf("after restart the plan is %q, want it to use %s", plan, IDIndexName(table))
	}
}

func TestStartErrors(t *testing.T) {
	certFile, keyFile := testcert.Write(t, t.TempDir())

	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()

	for _, tc := range []struct {
		name string
		opts Options
		want string // in the error
	}{
		// An address without a port is rejected before anything starts.
		{"no port", Options{Addr: "127.0.0.1"}, "HOST:PORT"},
		// '?' would cut FerretDB's SQLite URI short.
		{"query char in dir", Options{DataDir: filepath.Join(t.TempDir(), "a?b")}, "must not contain"},
		// A port in use.
		{"port in use", Options{Addr: busy.Addr().String()}, busy.Addr().String()},
		// Missing certificate files.
		{"tls files missing", Options{TLS: &TLSOptions{CertFile: "missing.pem", KeyFile: "missing.key"}}, "missing.pem"},
		{"tls key not given", Options{TLS: &TLSOptions{CertFile: "missing.pem"}}, "key file"},
		// A CA file without a certificate in it.
		{"tls CA unparsable", Options{TLS: &TLSOptions{CertFile: certFile, KeyFile: keyFile, CAFile: keyFile}}, "no PEM certificate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Start(testContext(t), tc.opts)
			if err == nil {
				_ = s.Close()
				t.Fatalf("Start succeeded, want an error containing %q", tc.want)
			}

			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}

func TestTLS(t *testing.T) {
	certFile, keyFile := testcert.Write(t, t.TempDir())
	s := startServer(t, Options{TLS: &TLSOptions{CertFile: certFile, KeyFile: keyFile}})

	if !strings.HasSuffix(s.URI(), "/?tls=true") {
		t.Errorf("URI() = %q, want it to ask for TLS", s.URI())
	}

	pemBytes, err := os.ReadFile(certFile)
	if err != nil {
		t.Fatal(err)
	}

	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(pemBytes)

	c, err := mongo.Connect(options.Client().ApplyURI(s.URI()).SetTLSConfig(&tls.Config{RootCAs: roots}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Disconnect(context.Background())

	ctx := testContext(t)
	if err = c.Ping(ctx, nil); err != nil {
		t.Fatalf("ping over TLS: %v", err)
	}

	// No plain listener: a client without TLS does not get through.
	plain := strings.TrimSuffix(s.URI(), "?tls=true")

	pc, err := mongo.Connect(options.Client().ApplyURI(plain).SetServerSelectionTimeout(300 * time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Disconnect(context.Background())

	if err = pc.Ping(ctx, nil); err == nil {
		t.Errorf("ping without TLS succeeded")
	}
}

func TestClientURI(t *testing.T) {
	t.Parallel()

	for _, tc := range []struct {
		hostPort string
		tls      bool
		want     string
	}{
		// Loopback stays as it is.
		{"127.0.0.1:27017", false, "mongodb://127.0.0.1:27017/"},
		// Unspecified addresses are dialled through loopback.
		{"0.0.0.0:27017", false, "mongodb://127.0.0.1:27017/"},
		{"[::]:27017", false, "mongodb://[::1]:27017/"},
		// A TLS listener asks for TLS.
		{"0.0.0.0:1234", true, "mongodb://127.0.0.1:1234/?tls=true"},
		// Host names are kept.
		{"db.example:27017", false, "mongodb://db.example:27017/"},
	} {
		got, err := clientURI(tc.hostPort, tc.tls)
		if err != nil {
			t.Errorf("clientURI(%q, %v): %v", tc.hostPort, tc.tls, err)
			continue
		}

		if got != tc.want {
			t.Errorf("clientURI(%q, %v) = %q, want %q", tc.hostPort, tc.tls, got, tc.want)
		}
	}

	if _, err := clientURI("no-port", false); err == nil {
		t.Errorf("clientURI(no-port) succeeded, want an error")
	}
}

func TestSQLiteURL(t *testing.T) {
	t.Parallel()

	for _, tc := range []struct {
		dir, want string
	}{
		// FerretDB wants a directory URI ending with '/'.
		{"/data/x", "file:/data/x/"},
		{"/data/x/", "file:/data/x/"},
		// Spaces are fine in SQLite URIs.
		{"/data/with space", "file:/data/with space/"},
	} {
		if got := sqliteURL(tc.dir); got != tc.want {
			t.Errorf("sqliteURL(%q) = %q, want %q", tc.dir, got, tc.want)
		}
	}
}

func TestFileDSN(t *testing.T) {
	t.Parallel()

	for _, tc := range []struct {
		path, want string
	}{
		// A database file: never created by us, same busy timeout as FerretDB.
		{"/d/ycsb.sqlite", "file:/d/ycsb.sqlite?mode=rw&_pragma=busy_timeout(10000)"},
		// A stray file name with URI characters is escaped.
		{"/d/a?b#c%.sqlite", "file:/d/a%3Fb%23c%25.sqlite?mode=rw&_pragma=busy_timeout(10000)"},
	} {
		if got := fileDSN(tc.path); got != tc.want {
			t.Errorf("fileDSN(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

// opMsgBytes builds an OP_MSG reply with the given opcode, section kind and
// body.
func opMsgBytes(op uint32, kind byte, body []byte) []byte {
	msg := make([]byte, 21, 21+len(body))
	msg = append(msg, body...)
	binary.LittleEndian.PutUint32(msg[0:], uint32(len(msg)))
	binary.LittleEndian.PutUint32(msg[12:], op)
	msg[20] = kind

	return msg
}

func TestReadOpMsgBody(t *testing.T) {
	t.Parallel()

	okDoc, err := bson.Marshal(bson.D{{Key: "ok", Value: 1.0}})
	if err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name    string
		msg     []byte
		wantErr string // empty: the body comes back
	}{
		{"reply", opMsgBytes(opMsg, 0, okDoc), ""},
		// OP_REPLY (1) is the legacy reply; hello must come back as OP_MSG.
		{"legacy opcode", opMsgBytes(1, 0, okDoc), "opcode"},
		// Kind 1 is a document sequence, not a body.
		{"sequence section", opMsgBytes(opMsg, 1, okDoc), "section kind"},
		{"truncated", opMsgBytes(opMsg, 0, okDoc)[:30], "EOF"},
		{"bad document", opMsgBytes(opMsg, 0, []byte{5, 0, 0, 0, 1}), "reply body"},
		{"too short", opMsgBytes(opMsg, 0, nil), "bytes"},
	} {
		body, err := readOpMsgBody(bytes.NewReader(tc.msg))

		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.wantErr == "" && !bytes.Equal(body, okDoc):
			t.Errorf("%s: body %x, want %x", tc.name, body, okDoc)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.wantErr)
		}
	}
}

func TestHelloMessage(t *testing.T) {
	t.Parallel()

	msg, err := helloMessage()
	if err != nil {
		t.Fatal(err)
	}

	// The request has the reply's layout, so the reply parser reads it.
	body, err := readOpMsgBody(bytes.NewReader(msg))
	if err != nil {
		t.Fatalf("parsing our own hello: %v", err)
	}

	if v := bson.Raw(body).Lookup("hello").AsInt64(); v != 1 {
		t.Errorf("hello = %d, want 1", v)
	}

	if db := bson.Raw(body).Lookup("$db").StringValue(); db != "admin" {
		t.Errorf("$db = %q, want admin", db)
	}
}

func FuzzReadOpMsgBody(f *testing.F) {
	okDoc, err := bson.Marshal(bson.D{{Key: "ok", Value: 1.0}})
	if err != nil {
		f.Fatal(err)
	}

	f.Add(opMsgBytes(opMsg, 0, okDoc))
	f.Add(opMsgBytes(opMsg, 0, nil))
	f.Add([]byte{})

	f.Fuzz(func(t *testing.T, msg []byte) {
		body, err := readOpMsgBody(bytes.NewReader(msg))
		if err != nil {
			return
		}

		// Whatever is accepted is a valid document inside the message.
		if err := bson.Raw(body).Validate(); err != nil {
			t.Fatalf("accepted an invalid body: %v", err)
		}

		if !bytes.Contains(msg, body) {
			t.Fatalf("body is not part of the message")
		}
	})
}

// TestFerretDBSocket: FerretDB listens on a Unix socket in a directory only
// this user can enter, or on loopback where the socket's path would be too
// long; either way clients get through, and Close removes the directory.
func TestFerretDBSocket(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tmpDir string // TMPDIR, which holds the socket's directory
		unix   bool
	}{
		{"unix socket", t.TempDir(), true},
		{"path too long for a socket", filepath.Join(t.TempDir(), strings.Repeat("d", maxSocketPath)), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.MkdirAll(tc.tmpDir, 0o755); err != nil {
				t.Fatal(err)
			}

			t.Setenv("TMPDIR", tc.tmpDir)

			s := startServer(t, Options{DataDir: t.TempDir()})

			fi, err := os.Stat(s.sockDir)
			if err != nil {
				t.Fatal(err)
			}

			if fi.Mode().Perm() != 0o700 {
				t.Errorf("socket directory mode %v, want 0700", fi.Mode().Perm())
			}

			_, err = os.Stat(filepath.Join(s.sockDir, "ferretdb.sock"))
			if tc.unix != (err == nil) {
				t.Errorf("socket file: %v, want it to exist: %v", err, tc.unix)
			}

			if err = connect(t, s).Ping(testContext(t), nil); err != nil {
				t.Fatalf("ping: %v", err)
			}

			if err = s.Close(); err != nil {
				t.Fatal(err)
			}

			if _, err = os.Stat(s.sockDir); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("socket directory after Close: stat error %v, want not exist", err)
			}
		})
	}
}

// TestStartRefusesALinkedLog: the log's fixed name in a data directory
// of the user's is not written through when a link stands there.
func TestStartRefusesALinkedLog(t *testing.T) {
	t.Parallel()
	dir, outside := t.TempDir(), t.TempDir()
	precious := filepath.Join(outside, "precious")
	if err := os.WriteFile(precious, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(precious, filepath.Join(dir, LogFileName)); err != nil {
		t.Fatal(err)
	}
	s, err := Start(testContext(t), Options{DataDir: dir})
	if err == nil {
		s.Close()
		t.Fatal("started with a symbolic link for its log")
	}
	if !strings.Contains(err.Error(), "is not a regular file") {
		t.Errorf("error %v: want it to say the log is not a regular file", err)
	}
	if b, _ := os.ReadFile(precious); string(b) != "keep" {
		t.Errorf("the link's target was written: %q", b)
	}
}
