package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mongobench/mongobench/internal/output"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
	"github.com/mongobench/mongobench/internal/store"
)

// closedURL is never contacted by the tests below: the paths are checked
// first. Were it contacted, the error would be "no MongoDB server
// answered", exit 1.
const closedURL = "mongodb://127.0.0.1:1/x"

// TestUnwritableOutputs gives every command an output path it could not
// write, or must not write over: each is refused before anything runs,
// exit 2, in one line naming the path and what is wrong, and nothing is
// created or changed.
func TestUnwritableOutputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := func(name string) string { return filepath.Join(dir, name) }
	aDir := in("a-directory")
	if err := os.Mkdir(aDir, 0o755); err != nil {
		t.Fatal(err)
	}
	aFile := in("a-file")
	precious := in("precious.json")
	workload := in("workload.properties")
	resultsFile := in("results.json")
	for p, content := range map[string]string{aFile: "x", precious: "keep me", workload: "recordcount=10\noperationcount=10\nreadproportion=1\nupdateproportion=0\ninsertproportion=0\nscanproportion=0\n"} {
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeResults(resultsFile, resultstest.Results(t, resultstest.Spec{Throughput: 1000})); err != nil {
		t.Fatal(err)
	}
	link := in("link.json")
	if err := os.Symlink(precious, link); err != nil {
		t.Fatal(err)
	}
	fifo := in("fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := in("no/such/dir/out.json")
	journaled := in("journaled.json")
	if err := os.Mkdir(journaled+results.JournalSuffix, 0o755); err != nil {
		t.Fatal(err)
	}
	runs := in("runs")
	if err := os.Mkdir(runs, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeResults(filepath.Join(runs, "a.json"), resultstest.Results(t, resultstest.Spec{Throughput: 1000})); err != nil {
		t.Fatal(err)
	}
	bench := func(extra ...string) []string {
		return append([]string{"run", "mongodb", "-P", "workloadc", "-p", "mongodb.url=" + closedURL, "--no-store"}, extra...)
	}
	embeddedRun := func(extra ...string) []string {
		return append([]string{"run", "mongodb", "-P", "workloadc", "-p", "recordcount=10", "--no-store"}, extra...)
	}
	for _, tc := range []struct {
		name string
		args []string
		want []string // in the one line of stderr
	}{
		{"--out a directory", bench("--out", aDir), []string{"--out " + aDir + ": is a directory", output.FileExpected}},
		{"--out in a missing directory", bench("--out", missing), []string{"--out " + missing, "does not exist"}},
		{"--out below a regular file", bench("--out", filepath.Join(aFile, "r.json")), []string{"is not a directory"}},
		{"--out a symbolic link", bench("--out", link), []string{"--out " + link + ": is a symbolic link"}},
		{"--out a FIFO", bench("--out", fifo), []string{"--out " + fifo + ": is a named pipe"}},
		{"--out a device", bench("--out", os.DevNull), []string{"--out " + os.DevNull + ": is a device"}},
		{"exportfile a directory", bench("-p", "exportfile="+aDir), []string{"exportfile", aDir, "is a directory"}},
		{"--out whose journal is a directory", bench("--out", journaled), []string{"--out (its journal) " + journaled + results.JournalSuffix + ": is a directory"}},
		{"--out the -P file", []string{"run", "mongodb", "-P", workload, "-p", "mongodb.url=" + closedURL, "--no-store", "--out", workload},
			[]string{"--out " + workload + " is the -P file " + workload, "name another file"}},
		{"--out the store", []string{"run", "mongodb", "-P", "workloadc", "-p", "mongodb.url=" + closedURL, "--store", in("same.db"), "--out", in("same.db")},
			[]string{"--store " + in("same.db"), "name the same file"}},
		{"--store a directory", []string{"run", "mongodb", "-P", "workloadc", "-p", "mongodb.url=" + closedURL, "--store", aDir}, []string{"--store " + aDir + ": is a directory"}},
		{"--store in a missing directory", []string{"run", "mongodb", "-P", "workloadc", "-p", "mongodb.url=" + closedURL, "--store", missing}, []string{"--store " + missing, "does not exist"}},
		{"--store a FIFO", []string{"load", "mongodb", "-P", "workloadc", "-p", "mongodb.url=" + closedURL, "--store", fifo}, []string{"--store " + fifo + ": is a named pipe"}},
		{"--data-dir a regular file", embeddedRun("--data-dir", aFile), []string{"--data-dir " + aFile, "is not a directory"}},
		{"--data-dir below a regular file", embeddedRun("--data-dir", filepath.Join(aFile, "d")), []string{"is not a directory"}},
		{"HDR logs in a missing directory", bench("-p", "hdrhistogram.fileoutput=true", "-p", "hdrhistogram.output.path="+in("no/such/")),
			[]string{"hdrhistogram.output.path", "does not exist"}},
		{"calibrate --json a directory", []string{"calibrate", "--json", aDir}, []string{"--json " + aDir + ": is a directory"}},
		{"calibrate --json through a symbolic link", []string{"calibrate", "--json", link}, []string{"--json " + link + ": is a symbolic link"}},
		{"calibrate --json the -P file", []string{"calibrate", "-P", workload, "--json", workload}, []string{"--json " + workload + " is the -P file"}},
		{"sweep --out-dir a regular file", []string{"sweep", "run", "mongodb", "-P", "workloadc", "-p", "mongodb.url=" + closedURL, "--no-store", "--vary", "threadcount=1,2", "--out-dir", aFile},
			[]string{"--out-dir " + aFile, "is not a directory"}},
		{"sweep --store a directory", []string{"sweep", "run", "mongodb", "-P", "workloadc", "-p", "mongodb.url=" + closedURL, "--store", aDir, "--vary", "threadcount=1,2", "--out-dir", in("sweep")},
			[]string{"--store " + aDir + ": is a directory"}},
		{"report -o a directory", []string{"report", resultsFile, "-o", aDir}, []string{"-o " + aDir + ": is a directory"}},
		{"report -o a symbolic link", []string{"report", resultsFile, "-o", link}, []string{"-o " + link + ": is a symbolic link"}},
		{"report -o a FIFO", []string{"report", resultsFile, "-o", fifo}, []string{"-o " + fifo + ": is a named pipe"}},
		{"report -o a device", []string{"report", resultsFile, "-o", os.DevNull}, []string{"is a device"}},
		{"report -o its input", []string{"report", resultsFile, "-o", resultsFile}, []string{"-o " + resultsFile + " is the input file " + resultsFile, "would destroy it"}},
		{"report -o its input, spelt otherwise", []string{"report", resultsFile, "-o", filepath.Join(dir, ".", "a-directory", "..", "results.json")}, []string{"would destroy it"}},
		{"report -o a file of an input directory", []string{"report", runs, "-o", filepath.Join(runs, "a.json")}, []string{"would destroy it"}},
		{"server --data-dir a regular file", []string{"server", "--data-dir", aFile, "--addr", "127.0.0.1:0"}, []string{"--data-dir " + aFile, "is not a directory"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			refusedUnchanged(t, dir, func() cmdResult { return mongobench(t, tc.args...) }, tc.want)
		})
	}
}

// snapshotDir describes every entry under dir: name, kind, and the content
// of regular files.
func snapshotDir(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		b.WriteString(p + " " + fi.Mode().String())
		if fi.Mode().IsRegular() {
			c, _ := os.ReadFile(p)
			b.WriteString(" " + string(c))
		}
		b.WriteString("\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestDamagedInputs gives compare, report, history and run results files,
// journals and stores damaged in several ways: each is refused when read,
// exit 2, in one line naming the file, and no figure is printed.
func TestDamagedInputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := func(name string) string { return filepath.Join(dir, name) }
	good := in("good.json")
	if err := writeResults(good, resultstest.Results(t, resultstest.Spec{Throughput: 1000})); err != nil {
		t.Fatal(err)
	}
	damaged := func(name string, edit func(r *results.Results)) string {
		r := resultstest.Results(t, resultstest.Spec{Throughput: 1000})
		edit(r)
		var b strings.Builder
		if err := results.WriteJSON(&b, r); err != nil {
			t.Fatal(err)
		}
		p := in(name)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cutHist := damaged("cut-histogram.json", func(r *results.Results) {
		h := r.Measurements[0].Service.Histogram
		r.Measurements[0].Service.Histogram = h[:len(h)/2]
	})
	editedP99 := damaged("edited-p99.json", func(r *results.Results) { r.Measurements[0].Service.PercentilesUs["99"] *= 2 })
	goodBytes, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	cutFile := in("cut.json")
	if err := os.WriteFile(cutFile, goodBytes[:len(goodBytes)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	headerOnly := in("killed.json" + results.JournalSuffix)
	if err := os.WriteFile(headerOnly, []byte(`{"type":"header","format_version":1,"phase":"run","start":"2026-01-02T03:04:05Z"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	emptyJournal := in("empty.json" + results.JournalSuffix)
	if err := os.WriteFile(emptyJournal, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	badStore := in("damaged.db")
	st, err := store.Open(badStore)
	if err != nil {
		t.Fatal(err)
	}
	for range 60 {
		if _, err := st.Save(context.Background(), resultstest.Results(t, resultstest.Spec{Throughput: 1000, Label: "x"}), store.SaveOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(badStore)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(badStore, fi.Size()/2/4096*4096); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		file string // named in the one line of stderr
		want string
	}{
		{"compare, a histogram cut short", []string{"compare", good, cutHist}, cutHist, "decode histogram"},
		{"compare, a percentile edited", []string{"compare", editedP99, good}, editedP99, "p99"},
		{"compare, a file cut in half", []string{"compare", good, cutFile}, cutFile, "unexpected EOF"},
		{"compare, a journal with its header only", []string{"compare", good, headerOnly}, headerOnly, "no interval"},
		{"compare, an empty journal", []string{"compare", good, emptyJournal}, emptyJournal, "no header line"},
		{"report, a histogram cut short", []string{"report", cutHist, "-o", in("r.html")}, cutHist, "decode histogram"},
		{"report, a journal with its header only", []string{"report", headerOnly, "-o", in("r.html")}, headerOnly, "no interval"},
		{"report, a directory holding damaged files", []string{"report", dir, "-o", in("r.html")}, cutHist, "decode histogram"},
		{"history, a damaged store", []string{"history", "--store", badStore}, badStore, "damaged"},
		{"compare, runs of a damaged store", []string{"compare", "1", "2", "--store", badStore}, badStore, "damaged"},
		{"report, runs of a damaged store", []string{"report", "x", "--store", badStore, "-o", in("r.html")}, badStore, "damaged"},
		{"run, recording into a damaged store", []string{"run", "mongodb", "-P", "workloadc", "-p", "mongodb.url=" + closedURL, "--store", badStore}, badStore, "damaged"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mongobench(t, tc.args...)
			if r.code != ExitBadInput {
				t.Errorf("exit %d, want %d; stderr: %s", r.code, ExitBadInput, r.stderr)
			}
			if strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, tc.file) || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("stderr %q: want one line naming %s and saying %q", r.stderr, tc.file, tc.want)
			}
			if r.stdout != "" {
				t.Errorf("figures printed from damaged input:\n%s", r.stdout)
			}
			if _, err := os.Stat(in("r.html")); err == nil {
				t.Error("a report was written from damaged input")
			}
		})
	}
}

// refusedUnchanged runs a command that must be refused: exit 2, one line
// on stderr holding each of want, and dir exactly as it was.
func refusedUnchanged(t *testing.T, dir string, run func() cmdResult, want []string) {
	t.Helper()
	before := snapshotDir(t, dir)
	r := run()
	if r.code != ExitBadInput {
		t.Errorf("exit %d, want %d; stderr: %s", r.code, ExitBadInput, r.stderr)
	}
	if strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("stderr is not one line:\n%s", r.stderr)
	}
	for _, w := range want {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("stderr %q lacks %q", r.stderr, w)
		}
	}
	if after := snapshotDir(t, dir); after != before {
		t.Errorf("a refused command changed the directory:\nbefore %s\nafter  %s", before, after)
	}
}
