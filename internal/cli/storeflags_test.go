package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/store"
)

// TestLoadAndRunAreRecorded runs real loads and runs against the embedded
// server and checks where each is recorded: in the store named by --store,
// else by $MONGOBENCH_STORE, else in mongobench.db; nowhere with --no-store
// or when a sweep saves the run itself. What is stored is what the results
// file says.
func TestLoadAndRunAreRecorded(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		flags  []string
		env    bool // $MONGOBENCH_STORE names envStore
		wantIn string
	}{
		{name: "--store", flags: []string{"--store", "{dir}/flag.db"}, wantIn: "flag.db"},
		{name: "$MONGOBENCH_STORE", env: true, wantIn: "env.db"},
		{name: "--store wins over the environment", flags: []string{"--store", "{dir}/flag.db"}, env: true, wantIn: "flag.db"},
		{name: "--no-store", flags: []string{"--no-store"}, env: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			url := freshURL(t)
			getenv := func(k string) string {
				if k == storeEnv && tc.env {
					return filepath.Join(dir, "env.db")
				}
				return ""
			}
			out := filepath.Join(dir, "run.json")
			ctx := context.Background()
			for _, command := range []string{"load", "run"} {
				args := []string{"mongodb", "-P", "workloadc", "-p", "mongodb.url=" + url, "-p", "recordcount=50",
					"-p", "operationcount=80", "-l", "stored-" + command, "--out", out}
				for _, f := range tc.flags {
					args = append(args, strings.ReplaceAll(f, "{dir}", dir))
				}
				var stdout, stderr bytes.Buffer
				if code := Main(ctx, append([]string{command}, args...), Env{Stdout: &stdout, Stderr: &stderr, Getenv: getenv}); code != 0 {
					t.Fatalf("%s: exit %d: %s", command, code, stderr.String())
				}
				saved := strings.Contains(stderr.String(), "mongobench: saved as run ")
				if saved != (tc.wantIn != "") {
					t.Fatalf("%s: stderr %q: saved=%v, want %v", command, stderr.String(), saved, tc.wantIn != "")
				}
			}
			for _, name := range []string{"flag.db", "env.db"} {
				_, err := os.Stat(filepath.Join(dir, name))
				if exists := err == nil; exists != (name == tc.wantIn) {
					t.Errorf("%s exists: %v, want %v", name, exists, name == tc.wantIn)
				}
			}
			if tc.wantIn == "" {
				return
			}
			st, err := store.Open(filepath.Join(dir, tc.wantIn))
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			runs, err := st.List(context.Background(), store.Filter{})
			if err != nil {
				t.Fatal(err)
			}
			if len(runs) != 2 || runs[0].Label != "stored-run" || runs[1].Label != "stored-load" ||
				runs[0].Phase != "run" || runs[1].Phase != "load" || runs[0].SweepID != "" {
				t.Fatalf("stored runs %+v, want the load then the run, outside any sweep", runs)
			}
			stored, err := st.Get(context.Background(), runs[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			file := readResults(t, out)
			if stored.Operations != file.Operations || stored.ThroughputOpsSec != file.ThroughputOpsSec || stored.Operations != 80 ||
				!reflect.DeepEqual(stored.Command, file.Command) {
				t.Errorf("store holds %d operations at %v ops/s (%q), the results file %d at %v (%q)",
					stored.Operations, stored.ThroughputOpsSec, stored.Command, file.Operations, file.ThroughputOpsSec, file.Command)
			}
		})
	}
}

// TestRunNotAStore: a --store that names another program's file is bad
// input, said before anything is measured, and the file is left as it was.
func TestRunNotAStore(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "notes.txt")
	content := []byte("these are somebody's notes, not an SQLite database at all.......")
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	r := mongobench(t, "run", "mongodb", "-P", "workloadc", "-p", "mongodb.url="+freshURL(t), "--store", path)
	if r.code != ExitBadInput || r.stdout != "" || !strings.Contains(r.stderr, "--store "+path) {
		t.Errorf("exit %d, stdout %q, stderr %q: want exit %d naming --store and no summary", r.code, r.stdout, r.stderr, ExitBadInput)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, content) {
		t.Errorf("the file was changed")
	}
}
