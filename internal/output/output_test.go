package output

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/embedded"
	"github.com/mongobench/mongobench/internal/outfile"
)

func TestChecks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(dir, "linked")
	if err := os.Mkdir(linked, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(file, filepath.Join(linked, embedded.LogFileName)); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "no", "such", "x.json")
	tests := []struct {
		name string
		err  error
		want string // "" for no error; else what the message starts with
	}{
		{"new file", CheckFile("--out", filepath.Join(dir, "new.json")), ""},
		{"missing directory", CheckFile("--out", missing), "--out " + missing + ": "},
		{"a directory", CheckFile("-o", dir), "-o " + dir + ": "},
		{"no data dir", CheckDataDir(""), ""},
		{"data dir", CheckDataDir(filepath.Join(dir, "data")), ""},
		{"data dir a file", CheckDataDir(file), "--data-dir " + file + ": "},
		{"data dir log a link", CheckDataDir(linked), "--data-dir " + linked + ": " + filepath.Join(linked, embedded.LogFileName)},
		{"store", CheckStore(filepath.Join(dir, "mongobench.db")), ""},
		{"store a directory", CheckStore(dir), "--store " + dir + ": "},
		{"distinct", CheckDistinct([]Named{{"-P", file}}, []Named{{"--out", filepath.Join(dir, "a")}, {"-o", filepath.Join(dir, "b")}}), ""},
		{"over an input", CheckDistinct([]Named{{"-P", file}}, []Named{{"--out", file}}), "--out " + file + " is the -P file " + file + ": writing it would destroy it"},
		{"over each other", CheckDistinct(nil, []Named{{"--out", file}, {"exportfile", file}}), "--out " + file + " and exportfile " + file + " name the same file"},
	}
	for _, tt := range tests {
		switch {
		case tt.want == "" && tt.err != nil:
			t.Errorf("%s: %v", tt.name, tt.err)
		case tt.want != "" && (tt.err == nil || !strings.HasPrefix(tt.err.Error(), tt.want)):
			t.Errorf("%s: %v, want one starting %q", tt.name, tt.err, tt.want)
		}
	}
}

func TestPlanCheck(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "w.properties")
	if err := os.WriteFile(in, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	ins := Existing("-P", []string{in, "workloada"})
	if len(ins) != 1 || ins[0] != (Named{"-P", in}) {
		t.Fatalf("Existing: %v, want only %s", ins, in)
	}
	store := filepath.Join(dir, "mongobench.db")
	tests := []struct {
		name string
		plan Plan
		want string
	}{
		{"fine", Plan{Files: []Named{{"--out", filepath.Join(dir, "r.json")}}, Store: store, Inputs: ins}, ""},
		// The file is refused before the store is looked at.
		{"file first", Plan{Files: []Named{{"--out", dir}}, Store: dir}, "--out " + dir},
		{"store", Plan{Store: dir}, "--store " + dir},
		{"data dir", Plan{DataDir: in}, "--data-dir " + in},
		{"result over the store", Plan{Files: []Named{{"--out", store}}, Store: store}, "--out " + store + " and --store " + store + " name the same file"},
		{"over an input", Plan{Files: []Named{{"--out", in}}, Inputs: ins}, "--out " + in + " is the -P file"},
	}
	for _, tt := range tests {
		err := tt.plan.Check()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want)):
			t.Errorf("%s: %v, want one starting %q", tt.name, err, tt.want)
		}
	}
}

func TestTally(t *testing.T) {
	t.Parallel()
	var none Tally
	none.Keep("the summary")
	var buf bytes.Buffer
	if err := none.Report(&buf); err != nil || buf.Len() != 0 {
		t.Errorf("all written: %v, %q", err, buf.String())
	}
	var tl Tally
	tl.Keep("the summary")
	tl.Fail(&outfile.Error{Path: "r.json.intervals.jsonl", Err: errors.New("disk full")})
	if !tl.JournalFailed("r.json.intervals.jsonl") || tl.JournalFailed("other") {
		t.Error("JournalFailed does not tell the journal's failure")
	}
	err := tl.Report(&buf)
	want := "the run was measured, but 1 output could not be written (above); kept: the summary"
	if err == nil || err.Error() != want {
		t.Errorf("Report: %v, want %q", err, want)
	}
	if !strings.HasPrefix(buf.String(), "mongobench: not written: cannot write r.json.intervals.jsonl") {
		t.Errorf("said %q", buf.String())
	}
	var two Tally
	two.Fail(errors.New("a"))
	two.Fail(errors.New("b"))
	if err := two.Report(&bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "but 2 outputs could not be written (above); kept: nothing else") {
		t.Errorf("two failures: %v", err)
	}
}

func TestCheckPropertyAndPrefix(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "no")
	tests := []struct {
		err  error
		want string
	}{
		{CheckProperty("exportfile", filepath.Join(dir, "s.txt")), ""},
		{CheckProperty("exportfile", filepath.Join(missing, "s.txt")), "exportfile=" + filepath.Join(missing, "s.txt") + ": "},
		{CheckProperty("exportfile", dir), "exportfile=" + dir + ": "},
		{CheckPrefix("hdrhistogram.output.path", filepath.Join(dir, "run-")), ""},
		{CheckPrefix("hdrhistogram.output.path", missing+"/run-"), "hdrhistogram.output.path=" + missing + "/run-: "},
	}
	for i, tt := range tests {
		switch {
		case tt.want == "" && tt.err != nil:
			t.Errorf("%d: %v", i, tt.err)
		case tt.want != "" && (tt.err == nil || !strings.HasPrefix(tt.err.Error(), tt.want)):
			t.Errorf("%d: %v, want one starting %q", i, tt.err, tt.want)
		}
	}
	if err := CheckPrefix("p", missing+"/run-"); err == nil || !strings.HasSuffix(err.Error(), "expected a prefix of file names in an existing directory, such as hdr/run-") {
		t.Errorf("prefix's accepted: %v", err)
	}
}

type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errors.New("closed pipe")
	}
	f.n--
	return len(p), nil
}

func TestChecked(t *testing.T) {
	t.Parallel()
	c := &Checked{W: &failAfter{n: 1}}
	if _, err := c.Write([]byte("a")); err != nil || c.Err() != nil {
		t.Fatalf("first write: %v, %v", err, c.Err())
	}
	_, _ = c.Write([]byte("b"))
	_, _ = c.Write([]byte("c"))
	if c.Err() == nil || c.Err().Error() != "closed pipe" {
		t.Errorf("Err() = %v, want the first failure", c.Err())
	}
}
