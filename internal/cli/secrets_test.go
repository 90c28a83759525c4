package cli

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/embedded"
	"github.com/mongobench/mongobench/internal/nullserver"
)

// sentinel is in every password below; it is what the outputs are searched
// for.
const sentinel = "S3NTINEL"

// hardPasswords hold the characters that end a token, quote or escape
// something, or separate the parts of a URL, alone and all together.
var hardPasswords = []string{
	`it's"` + sentinel + `"\q`,
	`two words ` + sentinel,
	"tab\t" + sentinel,
	`p@ss:` + sentinel + `/x%`,
	`pâsswörd✓` + sentinel,
	`%40` + sentinel + `%2F`,
	` leading space ` + sentinel,
	`'"\@:%/ ` + "\t" + `ü` + sentinel,
}

// escapePassword percent-encodes every byte of a password but letters and
// digits, so that the driver accepts it whatever it holds.
func escapePassword(pw string) string {
	var b strings.Builder
	for i := 0; i < len(pw); i++ {
		c := pw[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// exitFailedOrBad is a run's expected exit code when either failure will
// do.
const exitFailedOrBad = -1

// rawDriverPassword is a password the driver takes as written: quotes, a
// backslash, spaces, a tab and non-ASCII need no escaping.
const rawDriverPassword = `it's "` + sentinel + `" \ ` + "\t" + `ü`

// TestPasswordNeverShown runs every command, on its success and failure
// paths, with passwords in its URLs — given by -p, by a properties file, by
// MONGOBENCH_URL, as --vary values, as the binding word or a stray
// argument — and searches everything written for them: stdout and stderr,
// every file under the test's directory and its name (results files,
// journals, the sweep's files, the report, the calibration report, the
// server's log), and every column of every table of the results store.
func TestPasswordNeverShown(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// A server of the test's own keeps its log (ferretdb.log) in the
	// directory searched below: it sees every connection these runs make.
	srv, err := embedded.Start(context.Background(), embedded.Options{DataDir: filepath.Join(dir, "server")})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	null, err := nullserver.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	// FerretDB accepts PLAIN credentials without checking them, so runs
	// succeed with a password in their URL: one written raw, one with
	// every special character escaped.
	withUser := func(uri, pw string) string {
		return strings.Replace(uri, "mongodb://", "mongodb://bench:"+pw+"@", 1)
	}
	rawURL := withUser(srv.URI(), rawDriverPassword) + "secrets?authMechanism=PLAIN"
	escURL := withUser(srv.URI(), escapePassword(hardPasswords[len(hardPasswords)-1])) + "secrets2?authMechanism=PLAIN" +
		"&tlsCertificateKeyFilePassword=" + sentinel + "key"
	nullURL := withUser(null.URI(), escapePassword(hardPasswords[0]))
	if strings.Contains(nullURL, "?") {
		nullURL += "&authMechanism=PLAIN"
	} else {
		nullURL += "?authMechanism=PLAIN"
	}
	propsFile := filepath.Join(dir, "with-url.properties")
	// A properties file keeps a value's backslashes only when doubled.
	fileURL := strings.ReplaceAll(rawURL, `\`, `\\`)
	if err := os.WriteFile(propsFile, []byte("recordcount=50\noperationcount=100\nmongodb.url="+fileURL+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "parts"), 0o755); err != nil {
		t.Fatal(err)
	}
	common := []string{"-s", "-p", "status.interval=1"}
	type run struct {
		name string
		args []string
		env  map[string]string
		code int
		// want is on stderr: failures must still say what failed.
		want []string
	}
	runs := []run{
		{"load -p", append([]string{"load", "mongodb", "-P", "workloada", "-p", "recordcount=50", "-p", "mongodb.url=" + rawURL, "--out", filepath.Join(dir, "load.json")}, common...), nil, 0, nil},
		{"load escaped", append([]string{"load", "mongodb", "-P", "workloada", "-p", "recordcount=50", "-p", "mongodb.url=" + escURL, "-l", "secret-escaped", "--out", filepath.Join(dir, "load2.json")}, common...), nil, 0, nil},
		{"run -P file", append([]string{"run", "mongodb", "-P", "workloada", "-P", propsFile, "-l", "secret-file", "--out", filepath.Join(dir, "run.json")}, common...), nil, 0, nil},
		{"run env", append([]string{"run", "mongodb", "-P", "workloada", "-p", "recordcount=50", "-p", "operationcount=100", "-l", "secret-env", "--out", filepath.Join(dir, "env.json")}, common...),
			map[string]string{"MONGOBENCH_URL": escURL}, 0, nil},
		// URLs as the varied values: their names, not their passwords,
		// go into progress lines, the table, the marks and file names.
		{"sweep --vary mongodb.url", []string{"sweep", "-P", "workloadc", "-p", "recordcount=50", "-p", "operationcount=50",
			"--vary", "mongodb.url=" + rawURL + "," + escURL, "--out-dir", filepath.Join(dir, "sweep")}, nil, 0,
			[]string{"mongodb.url=url1 is mongodb://bench:***@", "mongodb.url=url2 is mongodb://bench:***@", "(mongodb.url=url2)"}},
		// These read the runs back from the store; history -v prints the
		// command lines, which held the URLs.
		{"report", []string{"report", "secret-file", "secret-env", "-o", filepath.Join(dir, "report.html")}, nil, 0, nil},
		{"report sweep", []string{"report", filepath.Join(dir, "sweep"), "-o", filepath.Join(dir, "sweep-report.html")}, nil, 0, nil},
		{"compare", []string{"compare", "secret-file", "secret-env"}, nil, 0, nil},
		// Two parts of one load, started at an instant already past (no
		// barrier to wait at), and their merge.
		{"load part 0", append([]string{"load", "mongodb", "-P", "workloadc", "-p", "recordcount=50", "-p", "mongodb.url=" + rawURL, "-p", "table=parts",
			"--part", "0/2", "--start-at", "2020-01-01T00:00:00Z", "--out", filepath.Join(dir, "parts", "p0.json")}, common...), nil, 0, nil},
		{"load part 1", append([]string{"load", "mongodb", "-P", "workloadc", "-p", "recordcount=50", "-p", "mongodb.url=" + rawURL, "-p", "table=parts",
			"--part", "1/2", "--start-at", "2020-01-01T00:00:00Z", "--out", filepath.Join(dir, "parts", "p1.json")}, common...), nil, 0, nil},
		{"merge", []string{"merge", filepath.Join(dir, "parts"), "-o", filepath.Join(dir, "merged.json")}, nil, 0, nil},
		{"history", []string{"history"}, nil, 0, nil},
		{"history -v", []string{"history", "-v"}, nil, 0, nil},
		// SCRAM is refused by FerretDB: the authentication error path,
		// which names the user and the mechanism.
		{"auth failure", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + withUser(srv.URI(), escapePassword(hardPasswords[0])) + "secrets?authMechanism=SCRAM-SHA-256", "-p", "mongodb.connecttimeout=2"}, nil, ExitFailed,
			[]string{"authentication failed at mongodb://bench:***@", `for user "bench" with mechanism SCRAM-SHA-256`}},
		{"unreachable", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=mongodb://bench:" + escapePassword(hardPasswords[1]) + "@127.0.0.1:1/x", "-p", "mongodb.connecttimeout=0.5"}, nil, ExitFailed,
			[]string{"no MongoDB server answered at mongodb://bench:***@127.0.0.1:1/x"}},
		// calibrate takes a URL too; the null server cannot authenticate,
		// so this is its failure path, with a partial report written.
		{"calibrate", []string{"calibrate", "-p", "mongodb.url=" + nullURL,
			"-threads", "1", "-operationcount", "100", "--no-extras", "--json", filepath.Join(dir, "calibrate.json")}, nil, ExitFailed,
			[]string{"bench:***@"}},
		{"calibrate, no server", []string{"calibrate", "-p", "mongodb.url=mongodb://bench:" + escapePassword(hardPasswords[2]) + "@127.0.0.1:1/x?serverSelectionTimeoutMS=300&connectTimeoutMS=300",
			"-p", "mongodb.connecttimeout=0.3", "-threads", "1", "-operationcount", "10", "--no-extras"}, nil, ExitFailed,
			[]string{"127.0.0.1:1"}},
	}
	// Bad input of every kind, with every hard password as written: each
	// is refused before anything runs, in one line that shows the rest.
	for i, pw := range hardPasswords {
		bare := "bench:" + pw + "@db.example.net:27017"
		full := "mongodb://bench:" + pw + "@db.example.net:27017/x"
		bad := func(name string, args []string, env map[string]string, want string) {
			runs = append(runs, run{fmt.Sprintf("%s, password %d", name, i), args, env, ExitBadInput, []string{want}})
		}
		bad("-p without a scheme", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + bare}, nil, "db.example.net:27017")
		bad("-p with a mangled scheme", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=mongodb:/" + bare}, nil, "db.example.net:27017")
		bad("MONGOBENCH_URL without a scheme", []string{"run", "mongodb", "-P", "workloada"}, map[string]string{"MONGOBENCH_URL": bare}, "db.example.net:27017")
		bad("binding word", []string{"load", bare, "-p", "recordcount=1"}, nil, "unknown binding")
		bad("stray argument", []string{"run", "mongodb", "-p", "recordcount=1", full}, nil, "unexpected argument")
		bad("-p without =", []string{"run", "mongodb", "-p", full}, nil, "expected -p name=value")
		// Some passwords the driver takes as written, some it refuses.
		runs = append(runs, run{fmt.Sprintf("unescaped password, password %d", i), []string{"run", "mongodb", "-P", "workloada",
			"-p", "mongodb.url=mongodb://bench:" + pw + "@127.0.0.1:1/x", "-p", "mongodb.connecttimeout=0.3"}, nil, exitFailedOrBad, []string{"127.0.0.1:1"}})
		bad("secret option", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=mongodb://db.example.net/x?tlsCertificateKeyFilePassword=" + url.QueryEscape(pw) + "%zz"}, nil, "mongodb.url")
		bad("sweep --vary", []string{"sweep", "--vary", "mongodb.url=" + bare + "," + bare}, nil, "--vary")
		bad("sweep bad point", []string{"sweep", "--vary", "mongodb.url=" + bare + ",mongodb://h/x"}, nil, "sweep")
		bad("server --addr", []string{"server", "--addr", bare}, nil, "--addr")
		bad("server stray argument", []string{"server", bare}, nil, "unexpected argument")
		bad("calibrate stray argument", []string{"calibrate", full}, nil, "unexpected argument")
		bad("history stray argument", []string{"history", full}, nil, "unexpected argument")
		bad("compare run names", []string{"compare", bare, full}, nil, "bench:***@db.example.net:27017")
		bad("report run names", []string{"report", bare, "-o", filepath.Join(dir, "none.html")}, nil, "bench:***@db.example.net:27017")
		bad("-P file", []string{"run", "mongodb", "-P", bare}, nil, "cannot read workload file")
	}
	for _, r := range runs {
		var out, errb bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string {
			if k == storeEnv {
				return filepath.Join(dir, "mongobench.db")
			}
			return r.env[k]
		}}
		code := Main(context.Background(), r.args, env)
		if code != r.code && !(r.code == exitFailedOrBad && (code == ExitFailed || code == ExitBadInput)) {
			t.Errorf("%s: exit %d, want %d; stderr: %s", r.name, code, r.code, errb.String())
		}
		for stream, text := range map[string]string{"stdout": out.String(), "stderr": errb.String()} {
			if strings.Contains(text, sentinel) {
				t.Errorf("%s: the password is on %s:\n%s", r.name, stream, text)
			}
		}
		for _, want := range r.want {
			if !strings.Contains(errb.String(), want) {
				t.Errorf("%s: stderr lacks %q:\n%s", r.name, want, errb.String())
			}
		}
		if r.code == ExitBadInput && strings.Count(strings.TrimSpace(errb.String()), "\n") > 0 {
			t.Errorf("%s: bad input takes one line, got:\n%s", r.name, errb.String())
		}
		if r.name == "history -v" && (!strings.Contains(out.String(), "secret-file") || !strings.Contains(out.String(), "bench:***@")) {
			t.Errorf("history -v does not list the runs with their (masked) URL:\n%s", out.String())
		}
	}
	checkFiles(t, dir, propsFile)
	checkStore(t, filepath.Join(dir, "mongobench.db"))
}

// checkFiles searches every file under dir, and every name, for the
// sentinel, and checks that the outputs the test means to cover exist and
// record the URLs masked.
func checkFiles(t *testing.T, dir, propsFile string) {
	t.Helper()
	written := map[string]bool{}
	var sweepNames []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.Contains(path, sentinel) {
			t.Errorf("the password is in the file name %s", path)
		}
		if d.IsDir() || path == propsFile {
			return nil
		}
		if filepath.Base(filepath.Dir(path)) == "sweep" {
			sweepNames = append(sweepNames, d.Name())
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		written[filepath.Ext(path)] = true
		written[filepath.Base(path)] = len(data) > 0
		if bytes.Contains(data, []byte(sentinel)) {
			t.Errorf("the password is in %s", filepath.Base(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"run.json", "run.json" + ".intervals.jsonl", "env.json", "load2.json", "calibrate.json"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Contains(data, []byte("bench:***@")) {
			t.Errorf("%s does not record the URL with its password masked (err %v)", name, err)
		}
	}
	// Results files, journals, the store, the reports, the server's log.
	for _, name := range []string{".json", ".jsonl", ".db", ".html", embedded.LogFileName, "report.html", "sweep-report.html"} {
		if !written[name] {
			t.Errorf("no (or an empty) %s was written: the test does not cover the outputs it should (written: %v)", name, written)
		}
	}
	named := 0
	for _, n := range sweepNames {
		if strings.Contains(n, "mongodb.url=url1") || strings.Contains(n, "mongodb.url=url2") {
			named++
		}
	}
	if named < 2 {
		t.Errorf("the sweep's files are not named by url1 and url2: %q", sweepNames)
	}
}

// checkStore reads every column of every table of the results store.
func checkStore(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tables []string
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	masked, cells := 0, 0
	for _, table := range tables {
		rows, err := db.Query(`SELECT * FROM "` + table + `"`)
		if err != nil {
			t.Fatal(err)
		}
		cols, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, v := range vals {
				cells++
				s := fmt.Sprintf("%s", v)
				if strings.Contains(s, sentinel) {
					t.Errorf("the password is in the store: table %s, column %s", table, cols[i])
				}
				if strings.Contains(s, "bench:***@") || strings.Contains(s, "mongodb.url=url") {
					masked++
				}
			}
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if masked == 0 {
		t.Errorf("no column of the store's %d cells records a masked URL: the runs were not stored", cells)
	}
}
