package cli

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sentinel = "S3NTINELpw"

// TestPasswordNeverShown runs every output path with a password in the URL
// — given by -p, by a properties file and by MONGOBENCH_URL, on success and
// on failure — and greps everything written for it: results files,
// journals, HdrHistogram logs, the results store, a sweep's files, a
// report and a comparison.
func TestPasswordNeverShown(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// FerretDB accepts PLAIN credentials without checking them, so the
	// run succeeds with a password in its URL.
	base := strings.Replace(testServer.URI(), "mongodb://", "mongodb://bench:"+sentinel+"@", 1)
	url := base + "secrets?authMechanism=PLAIN"
	propsFile := filepath.Join(dir, "with-url.properties")
	if err := os.WriteFile(propsFile, []byte("recordcount=50\noperationcount=100\nmongodb.url="+url+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	common := []string{"-s", "-p", "status.interval=1", "-p", "hdrhistogram.fileoutput=true", "-p", "hdrhistogram.output.path=" + filepath.Join(dir, "hdr-")}
	runs := []struct {
		name string
		args []string
		env  map[string]string
		code int
	}{
		{"load -p", append([]string{"load", "mongodb", "-P", "workloada", "-p", "recordcount=50", "-p", "mongodb.url=" + url, "--out", filepath.Join(dir, "load.json")}, common...), nil, 0},
		{"run -P file", append([]string{"run", "mongodb", "-P", "workloada", "-P", propsFile, "-l", "secret-file", "--out", filepath.Join(dir, "run.json")}, common...), nil, 0},
		{"run env", append([]string{"run", "mongodb", "-P", "workloada", "-p", "recordcount=50", "-p", "operationcount=100", "-l", "secret-env", "--out", filepath.Join(dir, "env.json")}, common...),
			map[string]string{"MONGOBENCH_URL": url}, 0},
		{"sweep", []string{"sweep", "-P", "workloadc", "-p", "mongodb.url=" + url, "-p", "recordcount=50", "-p", "operationcount=50",
			"--vary", "threadcount=1,2", "--out-dir", filepath.Join(dir, "sweep")}, nil, 0},
		// Both read the runs back from the store.
		{"report", []string{"report", "secret-file", "secret-env", "-o", filepath.Join(dir, "report.html")}, nil, 0},
		{"compare", []string{"compare", "secret-file", "secret-env"}, nil, 0},
		// SCRAM is refused by FerretDB: the authentication error path.
		{"auth failure", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=" + base + "secrets", "-p", "mongodb.connecttimeout=2"}, nil, ExitFailed},
		{"unreachable", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=mongodb://bench:" + sentinel + "@127.0.0.1:1/x", "-p", "mongodb.connecttimeout=0.5"}, nil, ExitFailed},
		{"bad URL", []string{"run", "mongodb", "-P", "workloada", "-p", "mongodb.url=mongodb://bench:" + sentinel + "@h/x?maxPoolSize=z"}, nil, ExitBadInput},
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
		if r.code == ExitFailed && !strings.Contains(errb.String(), "bench:***@") {
			t.Errorf("%s: the error does not name the (redacted) URL: %s", r.name, errb.String())
		}
	}
	written := map[string]bool{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path == propsFile {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		written[filepath.Ext(path)] = true
		if bytes.Contains(data, []byte(sentinel)) {
			t.Errorf("the password is in %s", filepath.Base(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"run.json", "run.json" + ".intervals.jsonl", "env.json"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Contains(data, []byte("bench:***@")) {
			t.Errorf("%s does not record the URL with its password masked (err %v)", name, err)
		}
	}
	// Results files, journals, HdrHistogram logs, the store, the report.
	for _, ext := range []string{".json", ".jsonl", ".hdr", ".db", ".html"} {
		if !written[ext] {
			t.Errorf("no %s file was written: the test does not cover the outputs it should (written: %v)", ext, written)
		}
	}
}
