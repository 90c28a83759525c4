package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/store"
)

// experiment runs one of the experiment commands in-process, as Main would
// dispatch it, and maps its error to the exit code.
func experiment(t *testing.T, cmd func(context.Context, []string, Env) error, args ...string) cmdResult {
	t.Helper()
	var out, errb bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errb, Getenv: testEnv}
	code := report(cmd(context.Background(), args, env), env)
	return cmdResult{code, out.String(), errb.String()}
}

// tableRow is one trial row of a sweep's table.
type tableRow struct {
	cells []string // up to the errors column
	note  string   // the limit and the note
}

// sweepRows parses the trial rows of a sweep's table (mean rows, whose
// cells hold spaces, are counted apart) and returns the header too.
func sweepRows(t *testing.T, stdout string, dims int) (head string, rows []tableRow, means int) {
	t.Helper()
	lines := strings.Split(stdout, "\n")
	head = lines[0]
	// All but the limit and the note, whose words may hold spaces.
	ncols := len(regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(head), -1)) - 2
	for _, l := range lines[1:] {
		if l == "" {
			break
		}
		f := strings.Fields(l)
		if len(f) > dims && f[dims] == "mean" {
			means++
			continue
		}
		if len(f) < ncols {
			t.Fatalf("short table row %q (header %q)", l, head)
		}
		rows = append(rows, tableRow{cells: f[:ncols], note: strings.Join(f[ncols:], " ")})
	}
	return head, rows, means
}

// kneeLine returns the lines after the table: the knee of each series.
func kneeLines(stdout string) []string {
	_, after, ok := strings.Cut(stdout, "\n\n")
	if !ok {
		return nil
	}
	return strings.Split(strings.TrimSpace(after), "\n")
}

// TestSweep is the sweep against the sweep's own embedded server:
// threads 1, 2, 4 with two trials each.
func TestSweep(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	db := filepath.Join(dir, "runs.db")
	r := experiment(t, runSweep, "-P", "workloads/workloadc", "-p", "recordcount=200", "-p", "operationcount=300",
		"--vary", "threadcount=1,2,4", "--repeat", "2", "-l", "first", "--store", db, "--out-dir", out)
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if n := strings.Count(r.stderr, "started the embedded server"); n != 1 {
		t.Errorf("the embedded server started %d times, want once for the whole sweep:\n%s", n, r.stderr)
	}
	if !strings.Contains(r.stderr, "point 2/3 (threadcount=2), trial 2/2 starts") {
		t.Errorf("stderr does not say which point and trial starts:\n%s", r.stderr)
	}
	head, rows, means := sweepRows(t, r.stdout, 1)
	for _, col := range []string{"threads", "trial", "runtime(s)", "throughput(ops/s)", "READ ops", "READ avg(us)", "READ p99(us)", analysis.NotOKFigure, "limit"} {
		if !strings.Contains(head, col) {
			t.Errorf("table header %q has no column %q", head, col)
		}
	}
	if len(rows) != 6 || means != 3 {
		t.Fatalf("table has %d trial rows and %d mean rows, want 6 and 3:\n%s", len(rows), means, r.stdout)
	}
	for i, row := range rows {
		wantThreads, wantTrial := []string{"1", "2", "4"}[i/2], strconv.Itoa(i%2+1)
		c := row.cells
		if c[0] != wantThreads || c[1] != wantTrial {
			t.Errorf("row %d is threads %s trial %s, want %s and %s", i+1, c[0], c[1], wantThreads, wantTrial)
		}
		if c[4] != "300" || c[7] != "0" {
			t.Errorf("row %d: READ ops %s, not OK %s; want 300 and 0", i+1, c[4], c[7])
		}
		if tp, err := strconv.ParseFloat(c[3], 64); err != nil || tp <= 0 {
			t.Errorf("row %d: throughput %q is not a positive number", i+1, c[3])
		}
	}
	knees := kneeLines(r.stdout)
	// Whether this machine's throughput has a knee among 1, 2 and 4 threads
	// depends on how busy it is; the test asks for one line in one of the
	// knee's wordings, whichever the trials backed.
	if len(knees) != 1 || !(strings.HasPrefix(knees[0], "knee: throughput stops rising ") || strings.HasPrefix(knees[0], "knee: throughput does not rise beyond ") || strings.HasPrefix(knees[0], "no knee: ")) {
		t.Errorf("after the table: %q, want one knee line", knees)
	}

	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, err := st.List(context.Background(), store.Filter{Label: "first"})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 6 {
		t.Fatalf("the store holds %d runs labelled first, want 6", len(runs))
	}
	for _, ri := range runs {
		file := filepath.Join(out, fmt.Sprintf("p%02d-threadcount=%s-t%d.json", slices.Index([]string{"1", "2", "4"}, ri.Point["threadcount"])+1, ri.Point["threadcount"], ri.Trial))
		res := readResults(t, file)
		m := analysis.MarkOf(res)
		switch {
		case ri.SweepID == "" || m == nil || m.ID != ri.SweepID:
			t.Errorf("run %d: sweep id %q in the store, mark %+v in %s", ri.ID, ri.SweepID, m, file)
		case m.Point["threadcount"] != ri.Point["threadcount"] || m.Trial != ri.Trial:
			t.Errorf("run %d: store says point %v trial %d, the file %v trial %d", ri.ID, ri.Point, ri.Trial, m.Point, m.Trial)
		case res.Config["threadcount"] != ri.Point["threadcount"]:
			t.Errorf("%s ran with threadcount %s, its point is %s", file, res.Config["threadcount"], ri.Point["threadcount"])
		case res.Operations != 300 || res.Label != "first":
			t.Errorf("%s: %d operations, label %q", file, res.Operations, res.Label)
		case res.Extra == nil || res.Extra.Diagnosis == nil:
			t.Errorf("%s holds no diagnosis", file)
		default:
			// The table's limit column is the trial's diagnosis.
			row := rows[slices.Index([]string{"1", "2", "4"}, ri.Point["threadcount"])*2+ri.Trial-1]
			if limit := diagnosis.Verdict(res.Extra.Diagnosis); !strings.HasPrefix(row.note, limit) {
				t.Errorf("%s: the table's limit and note say %q, the diagnosis %q", file, row.note, limit)
			}
		}
		stored, err := st.Get(context.Background(), ri.ID)
		if err != nil {
			t.Fatal(err)
		}
		if sm := analysis.MarkOf(stored); sm == nil || sm.Label() != m.Label() {
			t.Errorf("run %d in the store has sweep mark %+v, its file %+v", ri.ID, sm, m)
		}
	}
}

// TestSweepInterrupt stops a sweep with a signal as its second point
// starts: the first point's row, file and store entry stay, the knee is
// stated over what finished, and the exit code is the signal's.
func TestSweepInterrupt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	db := filepath.Join(dir, "runs.db")
	sig := make(chan int, 1)
	var stdout bytes.Buffer
	stderr := &signalOn{trigger: "point 2/3", sig: sig}
	env := Env{Stdout: &stdout, Stderr: stderr, Interrupt: sig, Getenv: testEnv}
	err := runSweep(context.Background(), []string{"-P", "workloadc", "-p", "recordcount=100", "-p", "operationcount=300",
		"-p", "mongodb.url=" + freshURL(t), "--vary", "threadcount=1,2,4", "--store", db, "--out-dir", out}, env)
	code := report(err, env)
	if code != ExitSIGINT {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, ExitSIGINT, stdout.String(), stderr.String())
	}
	_, rows, _ := sweepRows(t, stdout.String(), 1)
	if len(rows) == 0 || rows[0].cells[0] != "1" || len(rows) > 2 {
		t.Fatalf("rows %v: want the first point's, and at most the interrupted one", rows)
	}
	if len(rows) == 2 && !strings.Contains(rows[1].note, "partial") {
		t.Errorf("the interrupted run's row %v is not marked partial", rows[1])
	}
	if knees := kneeLines(stdout.String()); len(knees) != 1 || !strings.HasPrefix(knees[0], "no knee: need at least 2 points") {
		t.Errorf("knee lines %q: want the knee over the one finished point", knees)
	}
	if !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("stderr does not say the sweep was interrupted:\n%s", stderr.String())
	}
	if _, err := os.Stat(filepath.Join(out, "p01-threadcount=1-t1.json")); err != nil {
		t.Errorf("the finished run's results file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "p03-threadcount=4-t1.json")); err == nil {
		t.Error("the third point ran after the signal")
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	runs, err := st.List(context.Background(), store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != len(rows) {
		t.Errorf("the store holds %d runs, the table %d rows", len(runs), len(rows))
	}
	for _, ri := range runs {
		if ri.Point["threadcount"] == "2" && !ri.Partial {
			t.Errorf("run %d at the interrupted point is not marked partial", ri.ID)
		}
	}
}

// signalOn delivers SIGINT's exit code once trigger is written.
type signalOn struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	trigger string
	sig     chan int
	sent    bool
}

func (s *signalOn) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf.Write(p)
	if !s.sent && strings.Contains(s.buf.String(), s.trigger) {
		s.sent = true
		s.sig <- ExitSIGINT
	}
	return len(p), nil
}

func (s *signalOn) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// FuzzSweepArgs: whatever the command line, parsing ends in options or an
// error marked as bad input, never a panic.
func FuzzSweepArgs(f *testing.F) {
	f.Add("run mongodb -P workloada --vary threadcount=1,2 --repeat 2 --discard-first")
	f.Add("--vary=threads=auto --max-threads=8 --reload=false")
	f.Add("load --vary batchsize=1,10 --no-store --out-dir d --knee-latency 0.3")
	f.Fuzz(func(t *testing.T, line string) {
		o, err := parseSweepArgs(strings.Fields(line))
		if err != nil {
			var bi badInput
			if !errors.As(err, &bi) {
				t.Fatalf("%q: error %v is not bad input", line, err)
			}
			return
		}
		if !o.help && (o.repeat < 1 || (len(o.dims) == 0 && o.repeat < 2)) {
			t.Fatalf("%q: accepted %+v", line, o)
		}
	})
}

// TestExperimentBadInput gives sweep, compare, history and report one
// mistake each: every one exits 2 with one line naming what is wrong,
// before running anything or creating any file.
func TestExperimentBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db") // a store without runs
	st, err := store.Open(empty)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	notAStore := filepath.Join(dir, "other.db")
	if err := os.WriteFile(notAStore, []byte("not sqlite at all, just text that is long enough to be a header...."), 0o644); err != nil {
		t.Fatal(err)
	}
	const url = "mongodb://127.0.0.1:1/x" // never contacted: input is checked first
	out := filepath.Join(dir, "out")
	sweepArgs := func(extra ...string) []string {
		return append([]string{"-P", "workloadc", "-p", "mongodb.url=" + url, "--store", filepath.Join(dir, "s.db"), "--out-dir", out}, extra...)
	}
	type cmdFunc = func(context.Context, []string, Env) error
	tests := []struct {
		name string
		cmd  cmdFunc
		args []string
		want string
	}{
		{"vary without values", runSweep, sweepArgs("--vary", "threadcount"), `--vary "threadcount": expected --vary NAME=V1,V2,... such as --vary threadcount=1,2,4,8`},
		{"vary empty", runSweep, sweepArgs("--vary", "threadcount="), "--vary threadcount=: no values"},
		{"vary empty value", runSweep, sweepArgs("--vary", "threadcount=1,,4"), "--vary threadcount=1,,4: value 2 is empty"},
		{"vary at the end", runSweep, sweepArgs("--vary"), "flag --vary needs a value"},
		{"auto elsewhere", runSweep, sweepArgs("--vary", "recordcount=auto"), "auto is only for threadcount"},
		{"unknown property", runSweep, sweepArgs("--vary", "threadcnt=1,2"), "--vary threadcnt: unknown property; did you mean threadcount?"},
		{"vary twice", runSweep, sweepArgs("--vary", "threadcount=1", "--vary", "threads=2"), "--vary threadcount is given twice"},
		{"bad point", runSweep, sweepArgs("--vary", "threadcount=1,0"), `sweep point threadcount=0: threadcount="0" is invalid`},
		{"parts", runSweep, sweepArgs("--vary", "threadcount=1,2", "--part", "1/2"), "sweep: --part, --parts, --run-id, --start-at and --barrier-timeout go with load and run"},
		{"repeat 0", runSweep, sweepArgs("--vary", "threadcount=1,2", "--repeat", "0"), `--repeat "0" is invalid: expected a whole number of trials from 1 to 10000`},
		{"repeat text", runSweep, sweepArgs("--vary", "threadcount=1,2", "--repeat=many"), `--repeat "many" is invalid`},
		{"nothing varies", runSweep, sweepArgs(), "nothing to sweep"},
		{"reload both", runSweep, sweepArgs("--vary", "threadcount=1,2", "--reload", "--no-reload"), "--reload and --no-reload contradict each other"},
		{"knee threshold", runSweep, sweepArgs("--vary", "threadcount=1,2", "--knee-latency", "-1"), `--knee-latency "-1" is invalid: expected a fraction > 0`},
		{"max threads", runSweep, sweepArgs("--vary", "threadcount=auto", "--max-threads", "0"), `--max-threads "0" is invalid`},
		{"out", runSweep, sweepArgs("--vary", "threadcount=1,2", "--out", "x.json"), "use --out-dir DIR"},
		{"unknown flag", runSweep, sweepArgs("--vary", "threadcount=1,2", "--repeats", "2"), "unknown flag -repeats: accepted flags are -P, -p"},
		{"binding", runSweep, []string{"cassandra", "--vary", "threadcount=1"}, `unknown binding "cassandra"`},
		{"not a store", runSweep, append(sweepArgs("--vary", "threadcount=1,2"), "--store", notAStore), "--store " + notAStore + ": "},
		{"compare one group", runCompare, []string{"a.json"}, "need at least two groups of runs to compare (A B), got 1"},
		{"compare alpha", runCompare, []string{"a", "b", "--alpha", "5"}, `--alpha "5" is invalid`},
		{"compare missing file", runCompare, []string{filepath.Join(dir, "a.json"), "b", "--store", empty}, "results file " + filepath.Join(dir, "a.json") + " does not exist"},
		{"compare no store", runCompare, []string{"base", "new", "--store", filepath.Join(dir, "none.db")}, `"base" is no results file, and there is no results store at`},
		{"compare unknown id", runCompare, []string{"99", "1", "--store", empty}, `no run has id 99 or label "99": ` + empty + " holds no labelled runs and no sweeps"},
		{"compare unknown sweep", runCompare, []string{"sweep:x", "1", "--store", empty}, `no sweep has id "x"`},
		{"compare bad file", runCompare, []string{notAStore, notAStore}, notAStore + ": read results:"},
		{"history limit", runHistory, []string{"--limit", "-1", "--store", empty}, `--limit "-1" is invalid`},
		{"history phase", runHistory, []string{"--phase", "both", "--store", empty}, `--phase "both" is invalid: expected load or run`},
		{"history argument", runHistory, []string{"baseline", "--store", empty}, `unexpected argument "baseline": filter with --label L or --sweep ID`},
		{"history not a store", runHistory, []string{"--store", notAStore}, "--store " + notAStore},
		{"report nothing", runReportCmd, []string{"-o", filepath.Join(dir, "r.html")}, "report: no runs named"},
		{"report unknown label", runReportCmd, []string{"nolabel", "-o", filepath.Join(dir, "r.html"), "--store", empty}, `no run has label "nolabel"`},
		{"report flag", runReportCmd, []string{"a", "--out", "r.html"}, "report: unknown flag -out: accepted flags are -o FILE"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := experiment(t, tc.cmd, tc.args...)
			if r.code != ExitBadInput {
				t.Fatalf("exit %d, want %d; stderr %q", r.code, ExitBadInput, r.stderr)
			}
			if lines := strings.Count(r.stderr, "\n"); lines != 1 || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("stderr %q, want one line containing %q", r.stderr, tc.want)
			}
		})
	}
	for _, p := range []string{out, filepath.Join(dir, "s.db"), filepath.Join(dir, "none.db"), filepath.Join(dir, "r.html")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("bad input left %s behind", p)
		}
	}
}

// TestSweepFormats prints a sweep's table as CSV, the knee apart on
// stderr so that stdout is the table alone, and as Markdown.
func TestSweepFormats(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	url := freshURL(t)
	sweep := func(format string) cmdResult {
		r := experiment(t, runSweep, "-P", "workloadc", "-p", "recordcount=50", "-p", "operationcount=100", "-p", "mongodb.url="+url,
			"--vary", "threads=1,2", "--repeat", "2", "--format", format, "--no-store", "--out-dir", filepath.Join(dir, format))
		if r.code != 0 {
			t.Fatalf("--format %s: exit %d\n%s\n%s", format, r.code, r.stdout, r.stderr)
		}
		return r
	}
	r := sweep("csv")
	recs, err := csv.NewReader(strings.NewReader(r.stdout)).ReadAll()
	// A header, then per point two trials and their mean.
	if err != nil || len(recs) != 7 || recs[0][0] != "threads" || recs[0][2] != "runtime(s)" || recs[3][1] != "mean" || recs[6][0] != "2" {
		t.Fatalf("csv table (err %v):\n%s", err, r.stdout)
	}
	if !strings.Contains(r.stderr, ": knee: ") && !strings.Contains(r.stderr, ": no knee: ") {
		t.Errorf("the knee is not on stderr:\n%s", r.stderr)
	}
	md := sweep("markdown")
	lines := strings.Split(strings.TrimSpace(md.stdout), "\n")
	if len(lines) < 8 || !strings.HasPrefix(lines[0], "| threads | trial |") || !strings.HasPrefix(lines[1], "|---|---:|") || !strings.HasPrefix(lines[2], "| 1 | 1 |") {
		t.Errorf("markdown table:\n%s", md.stdout)
	}
}

// TestSweepLinked varies two properties as one dimension: each point sets
// both, the table shows them together, and the runs' marks name both as
// varied.
func TestSweepLinked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	r := experiment(t, runSweep, "-P", "workloada", "-p", "recordcount=50", "-p", "operationcount=100", "-p", "mongodb.url="+freshURL(t),
		"--vary", "readproportion,updateproportion=0.95:0.05,0.5:0.5", "--no-store", "--out-dir", out)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	lines := strings.Split(r.stdout, "\n")
	if !strings.HasPrefix(lines[0], "readproportion:updateproportion  trial") || strings.Fields(lines[1])[0] != "0.95:0.05" || strings.Fields(lines[2])[0] != "0.5:0.5" {
		t.Fatalf("table:\n%s", r.stdout)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue // the journals beside the results files
		}
		res := readResults(t, filepath.Join(out, e.Name()))
		m := analysis.MarkOf(res)
		if m == nil || !slices.Equal(m.Varied, []string{"readproportion", "updateproportion"}) {
			t.Fatalf("%s: mark %+v", e.Name(), m)
		}
		got = append(got, res.Config["readproportion"]+"/"+res.Config["updateproportion"])
	}
	slices.Sort(got)
	if want := []string{"0.5/0.5", "0.95/0.05"}; !slices.Equal(got, want) {
		t.Errorf("runs ran at %v, want %v", got, want)
	}
}
