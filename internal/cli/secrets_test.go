package cli

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/embedded"
	"github.com/mongobench/mongobench/internal/nullserver"
)

const sentinel = "S3NTINELpw"

// TestPasswordNeverShown runs every output path with a password in the URL
// — given by -p, by a properties file and by MONGOBENCH_URL, on success and
// on failure — and greps everything written for it: results files,
// journals, the results store, a sweep's files, a report, a comparison,
// the history, a calibration report and the server's own log.
func TestPasswordNeverShown(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// A server of the test's own keeps its log (ferretdb.log) in the
	// directory grepped below: it sees every connection these runs make.
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
	// FerretDB accepts PLAIN credentials without checking them, so the
	// run succeeds with a password in its URL.
	base := strings.Replace(srv.URI(), "mongodb://", "mongodb://bench:"+sentinel+"@", 1)
	url := base + "secrets?authMechanism=PLAIN"
	nullURL := strings.Replace(null.URI(), "mongodb://", "mongodb://bench:"+sentinel+"@", 1)
	if strings.Contains(nullURL, "?") {
		nullURL += "&authMechanism=PLAIN"
	} else {
		nullURL += "?authMechanism=PLAIN"
	}
	propsFile := filepath.Join(dir, "with-url.properties")
	if err := os.WriteFile(propsFile, []byte("recordcount=50\noperationcount=100\nmongodb.url="+url+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	common := []string{"-s", "-p", "status.interval=1"}
	runs := []struct {
		name string
		args []string
		env  map[string]string
		code int
		// want is on stderr: failures must still say what failed.
		want []string
	}{
		{"load -p", append([]string{"load", "mongodb", "-P", "workloada", "-p", "recordcount=50", "-p", "mongodb.url=" + url, "--out", filepath.Join(dir, "load.json")}, common...), nil, 0, nil},
		{"run -P file", append([]string{"run", "mongodb", "-P", "workloada", "-P", propsFile, "-l", "secret-file", "--out", filepath.Join(dir, "run.json")}, common...), nil, 0, nil},
		{"run env", append([]string{"run", "mongodb", "-P", "workloada", "-p", "recordcount=50", "-p", "operationcount=100", "-l", "secret-env", "--out", filepath.Join(dir, "env.json")}, common...),
			map[string]string{"MONGOBENCH_URL": url}, 0, nil},
		{"sweep", []string{"sweep", "-P", "workloadc", "-p", "mongodb.url=" + url, "-p", "recordcount=50", "-p", "operationcount=50",
			"--vary", "threadcount=1,2", "--out-dir", filepath.Join(dir, "sweep")}, nil, 0, nil},
		// These read the runs back from the store; history -v prints the
		// command lines, which held the URL.
		{"report", []string{"report", "secret-file", "secret-env", "-o", filepath.Join(dir, "report.html")}, nil, 0, nil},
		{"compare", []string{"compare", "secret-file", "secret-env"}, nil, 0, nil},
		{"history", []string{"history", "-v"}, nil, 0, nil},
		// SCRAM is refused by FerretDB: the authentication error path,
		// which names the user and the mechanism.
		{"auth failure", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + base + "secrets?authMechanism=SCRAM-SHA-256", "-p", "mongodb.connecttimeout=2"}, nil, ExitFailed,
			[]string{"authentication failed at mongodb://bench:***@", `for user "bench" with mechanism SCRAM-SHA-256`}},
		{"auth failure, default mechanism", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + base + "secrets", "-p", "mongodb.connecttimeout=2"}, nil, ExitFailed,
			[]string{"authentication failed at mongodb://bench:***@", `for user "bench" with the default mechanism`}},
		{"unreachable", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=mongodb://bench:" + sentinel + "@127.0.0.1:1/x", "-p", "mongodb.connecttimeout=0.5"}, nil, ExitFailed,
			[]string{"no MongoDB server answered at mongodb://bench:***@127.0.0.1:1/x"}},
		{"bad URL", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=mongodb://bench:" + sentinel + "@h/x?maxPoolSize=z"}, nil, ExitBadInput,
			[]string{"mongodb.url mongodb://bench:***@h/x?maxPoolSize=z is invalid"}},
		// calibrate takes a URL too; the null server cannot authenticate,
		// so this is its failure path, with a partial report written.
		{"calibrate", []string{"calibrate", "-p", "mongodb.url=" + nullURL,
			"-threads", "1", "-operationcount", "100", "--no-extras", "--json", filepath.Join(dir, "calibrate.json")}, nil, ExitFailed,
			[]string{"bench:***@"}},
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
		if code != r.code {
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
		if r.name == "history" && (!strings.Contains(out.String(), "secret-file") || !strings.Contains(out.String(), "bench:***@")) {
			t.Errorf("history -v does not list the runs with their (masked) URL:\n%s", out.String())
		}
	}
	written := map[string]bool{}
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path == propsFile {
			return err
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
	for _, name := range []string{"run.json", "run.json" + ".intervals.jsonl", "env.json", "calibrate.json"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Contains(data, []byte("bench:***@")) {
			t.Errorf("%s does not record the URL with its password masked (err %v)", name, err)
		}
	}
	// Results files, journals, the store, the report, the server's log.
	for _, ext := range []string{".json", ".jsonl", ".db", ".html", embedded.LogFileName} {
		if !written[ext] {
			t.Errorf("no (or an empty) %s was written: the test does not cover the outputs it should (written: %v)", ext, written)
		}
	}
}
