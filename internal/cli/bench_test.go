package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	driver "go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/printable"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/workload"
)

func connect(t *testing.T, url string) *driver.Database {
	t.Helper()
	c, err := driver.Connect(options.Client().ApplyURI(url))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Disconnect(context.Background()) })
	return c.Database(mongo.DatabaseFromURL(url))
}

func readResults(t *testing.T, path string) *results.Results {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := results.ReadJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestWorkloads loads records, then runs each of YCSB's workloads A–F and
// checks the counts, the statuses and the data they leave behind.
func TestWorkloads(t *testing.T) {
	t.Parallel()
	const records, ops = 300, 400
	for _, name := range []string{"workloada", "workloadb", "workloadc", "workloadd", "workloade", "workloadf"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			url := freshURL(t)
			common := []string{"mongodb", "-P", "workloads/" + name, "-threads", "4",
				"-p", "mongodb.url=" + url, "-p", "recordcount=300", "-p", "operationcount=400", "-p", "seed=7"}
			load := mongobench(t, append([]string{"load"}, common...)...)
			if load.code != 0 {
				t.Fatalf("load exit %d: %s", load.code, load.stderr)
			}
			ls := parseSummary(t, load.stdout)
			if got := ls.int(t, "INSERT", "Return=OK"); got != records {
				t.Fatalf("load: INSERT Return=OK = %d, want %d", got, records)
			}
			coll := connect(t, url).Collection("usertable")
			if n, err := coll.CountDocuments(context.Background(), bson.D{}); err != nil || n != records {
				t.Fatalf("after load: %d documents (err %v), want %d", n, err, records)
			}

			out := filepath.Join(t.TempDir(), "run.json")
			run := mongobench(t, append([]string{"run"}, append(common, "--out", out)...)...)
			if run.code != 0 {
				t.Fatalf("run exit %d: %s", run.code, run.stderr)
			}
			s := parseSummary(t, run.stdout)
			res := readResults(t, out)
			if res.Operations != ops {
				t.Errorf("results file: operations = %d, want %d", res.Operations, ops)
			}
			count := func(op string) int64 { return s.int(t, op, "Operations") + s.int(t, op+"-FAILED", "Operations") }
			var total int64
			for _, op := range []string{"READ", "UPDATE", "INSERT", "SCAN", "DELETE"} {
				total += count(op)
			}
			if name == "workloadf" {
				// A read-modify-write is one operation; its read and update
				// are measured under READ and UPDATE too.
				rmw := count("READ-MODIFY-WRITE")
				if rmw == 0 || count("UPDATE") != rmw {
					t.Errorf("READ-MODIFY-WRITE = %d, UPDATE = %d: every RMW should update once", rmw, count("UPDATE"))
				}
				plainReads := count("READ") - rmw
				if plainReads+rmw != ops {
					t.Errorf("plain reads %d + RMW %d = %d, want %d", plainReads, rmw, plainReads+rmw, ops)
				}
			} else if total != ops {
				t.Errorf("operations per type add up to %d, want %d\n%s", total, ops, run.stdout)
			}
			for _, op := range []string{"READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE"} {
				if n := count(op); n > 0 && s.int(t, op, "Return=OK") != n {
					t.Errorf("[%s] Return=OK = %d of %d operations\n%s", op, s.int(t, op, "Return=OK"), n, run.stdout)
				}
			}
			if got := s.float(t, "OVERALL", "Throughput(ops/sec)"); got <= 0 {
				t.Errorf("throughput %v", got)
			}

			inserted := s.int(t, "INSERT", "Return=OK")
			n, err := coll.CountDocuments(context.Background(), bson.D{})
			if err != nil || n != records+inserted {
				t.Errorf("after run: %d documents (err %v), want %d + %d inserted", n, err, records, inserted)
			}
			if inserted > 0 {
				spec, _, err := workload.Resolve(propsOf("recordcount", "300", "operationcount", "1"), true)
				if err != nil {
					t.Fatal(err)
				}
				for k := int64(records); k < records+inserted; k++ {
					key := spec.KeyName(k)
					if err := coll.FindOne(context.Background(), bson.D{{Key: "_id", Value: key}}).Err(); err != nil {
						t.Errorf("key %s inserted by the run is not readable: %v", key, err)
					}
				}
			}
		})
	}
}

func propsOf(kv ...string) *workload.Properties {
	p := workload.NewProperties()
	for i := 0; i+1 < len(kv); i += 2 {
		p.Set(kv[i], kv[i+1], "-p")
	}
	return p
}

// TestDocumentShape checks that documents are YCSB's: _id a string
// "user<hash>", fields field0..N-1 as BSON binary of fieldlength bytes,
// loaded in batches under either name of the batch size property.
func TestDocumentShape(t *testing.T) {
	t.Parallel()
	for _, batchProperty := range []string{"batchsize", "mongodb.batchsize"} {
		t.Run(batchProperty, func(t *testing.T) {
			t.Parallel()
			url := freshURL(t)
			r := mongobench(t, "load", "mongodb", "-P", "workloada", "-p", "mongodb.url="+url,
				"-p", "recordcount=5", "-p", "fieldcount=3", "-p", "fieldlength=16", "-p", batchProperty+"=2")
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			coll := connect(t, url).Collection("usertable")
			raw, err := coll.FindOne(context.Background(), bson.D{{Key: "_id", Value: "user6284781860667377211"}}).Raw()
			if err != nil {
				t.Fatalf("record 0 (YCSB key user6284781860667377211) not found: %v", err)
			}
			elems, err := raw.Elements()
			if err != nil {
				t.Fatal(err)
			}
			want := []string{"_id", "field0", "field1", "field2"}
			if len(elems) != len(want) {
				t.Fatalf("document %v: want fields %v", raw, want)
			}
			for i, e := range elems {
				if e.Key() != want[i] {
					t.Errorf("field %d is %q, want %q", i, e.Key(), want[i])
				}
				if i == 0 {
					if e.Value().Type != bson.TypeString {
						t.Errorf("_id is %s, want a string", e.Value().Type)
					}
					continue
				}
				sub, data, ok := e.Value().BinaryOK()
				if !ok || sub != 0 || len(data) != 16 {
					t.Errorf("%s: binary=%v subtype=%d len=%d, want generic binary of 16 bytes", e.Key(), ok, sub, len(data))
				}
			}
			// The last batch is partial (5 records, batches of 2): it must be sent.
			if n, _ := coll.CountDocuments(context.Background(), bson.D{}); n != 5 {
				t.Errorf("%d documents after a batched load of 5", n)
			}
			s := parseSummary(t, r.stdout)
			if got := s.int(t, "INSERT-BATCH", "Operations"); got != 3 {
				t.Errorf("INSERT-BATCH operations = %d, want 3 (2+2+1)", got)
			}
			if got := s.int(t, "INSERT", "Operations"); got != 5 {
				t.Errorf("INSERT operations = %d, want 5", got)
			}
			// A record's service latency is the round trip of the batch that
			// carried it: the two sections hold the same values.
			for _, figure := range []string{"MinLatency(us)", "MaxLatency(us)"} {
				if rec, batch := s.int(t, "INSERT", figure), s.int(t, "INSERT-BATCH", figure); rec != batch {
					t.Errorf("INSERT %s = %d, INSERT-BATCH %s = %d: a record's latency is its batch's", figure, rec, figure, batch)
				}
			}
		})
	}
}

// TestSeedCommandLines runs the field reports' command lines as written,
// with the URL pointed at the embedded server and, where the workload file
// asks for a million records, smaller counts.
func TestSeedCommandLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		load  []string // the seed's load command, after "load"
		run   []string // the seed's run command, after "run"
		extra []string // what the test adds: the URL and smaller counts
		table string
		// fields and fieldLength: the documents the load must leave behind
		fields, fieldLength int
		// ops: the run-phase operation types whose counts add up
		ops []string
	}{
		{
			// seed 000: YCSB 0.15 against MongoDB 3.6, workload A, 100 threads
			name:   "seed 000",
			load:   []string{"mongodb", "-s", "-P", "workloads/workloada", "-threads", "100"},
			run:    []string{"mongodb", "-s", "-P", "workloads/workloada", "-threads", "100"},
			table:  "usertable",
			fields: 10, fieldLength: 100,
			ops: []string{"READ", "UPDATE"},
		},
		{
			// seed 003: a custom workload file, -p overrides and a property
			// mongobench does not know (clientbuffering)
			name: "seed 003",
			load: []string{"mongodb", "-threads", "100", "-P", "workloads/workload_s6", "-p", "fieldcount=1",
				"-p", "fieldlength=1024", "-p", "clientbuffering=true", "-p", "table=test1"},
			run: []string{"mongodb", "-threads", "100", "-P", "workloads/workload_s6", "-p", "fieldcount=1",
				"-p", "fieldlength=1024", "-p", "clientbuffering=true", "-p", "table=test1"},
			extra:  []string{"-p", "recordcount=300", "-p", "operationcount=400"},
			table:  "test1",
			fields: 1, fieldLength: 1024,
			ops: []string{"READ", "INSERT"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			url := freshURL(t)
			extra := append([]string{"-p", "mongodb.url=" + url}, tc.extra...)
			load := mongobench(t, append(append([]string{"load"}, tc.load...), extra...)...)
			if load.code != 0 {
				t.Fatalf("load exit %d: %s", load.code, load.stderr)
			}
			if tc.table == "test1" && strings.Count(load.stderr, "warning: unknown property clientbuffering (ignored)") != 1 {
				t.Errorf("want one warning for clientbuffering in %q", load.stderr)
			}
			// On a busy machine an insert may time out at the client while
			// the server still stores it: the documents lie between the
			// inserts acknowledged and those attempted. Errors the server
			// answered with are failures of the command line.
			ls := parseSummary(t, load.stdout)
			records := ls.int(t, "INSERT", "Return=OK")
			attempted := ls.int(t, "INSERT", "Operations") + ls.int(t, "INSERT-FAILED", "Operations")
			if timeouts := ls.int(t, "INSERT", "Return=TIMEOUT"); records+timeouts != attempted {
				t.Fatalf("load: %d inserts OK and %d timed out of %d: others failed\n%s", records, timeouts, attempted, load.stdout)
			}
			coll := connect(t, url).Collection(tc.table)
			if n, err := coll.CountDocuments(context.Background(), bson.D{}); err != nil || n < records || n > attempted || n == 0 {
				t.Fatalf("%d documents in %s after %d inserts acknowledged of %d (err %v)", n, tc.table, records, attempted, err)
			}
			raw, err := coll.FindOne(context.Background(), bson.D{}).Raw()
			if err != nil {
				t.Fatal(err)
			}
			elems, _ := raw.Elements()
			if len(elems) != 1+tc.fields {
				t.Errorf("document has %d elements, want _id and %d fields: %v", len(elems), tc.fields, raw)
			}
			for _, e := range elems[1:] {
				if _, data, ok := e.Value().BinaryOK(); !ok || len(data) != tc.fieldLength {
					t.Errorf("%s: want %d bytes of BSON binary, got %s", e.Key(), tc.fieldLength, e.Value().Type)
				}
			}

			run := mongobench(t, append(append([]string{"run"}, tc.run...), extra...)...)
			if run.code != 0 {
				t.Fatalf("run exit %d: %s", run.code, run.stderr)
			}
			s := parseSummary(t, run.stdout)
			var total int64
			for _, op := range tc.ops {
				n := s.int(t, op, "Operations") + s.int(t, op+"-FAILED", "Operations")
				ok, timeouts := s.int(t, op, "Return=OK"), s.int(t, op, "Return=TIMEOUT")
				if ok == 0 || ok+timeouts != n {
					t.Errorf("[%s] %d operations, %d OK, %d timed out: others failed\n%s", op, n, ok, timeouts, run.stdout)
				}
				total += n
			}
			want := int64(1000) // the file's operationcount equals its recordcount
			if tc.extra != nil {
				want = 400
			}
			if total != want {
				t.Errorf("%v operations add up to %d, want %d", tc.ops, total, want)
			}
		})
	}
}

// TestTargetFigures: with -target, every operation runs, intended latency
// is never below service latency, and the schedule lag is in the summary
// and the results file; without, none of it, nor a word of a schedule.
// The schedule's timing itself is the runner's unit tests' (a fake clock).
func TestTargetFigures(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	if r := mongobench(t, "load", "mongodb", "-P", "workloadc", "-p", "mongodb.url="+url, "-p", "recordcount=100"); r.code != 0 {
		t.Fatalf("load exit %d: %s", r.code, r.stderr)
	}
	for _, target := range []string{"", "1000"} {
		out := filepath.Join(t.TempDir(), "r.json")
		args := []string{"run", "mongodb", "-P", "workloadc", "-p", "mongodb.url=" + url, "-p", "recordcount=100",
			"-p", "operationcount=200", "-threads", "4", "--out", out}
		if target != "" {
			args = append(args, "-target", target)
		}
		r := mongobench(t, args...)
		if r.code != 0 {
			t.Fatalf("target %q: run exit %d: %s", target, r.code, r.stderr)
		}
		s := parseSummary(t, r.stdout)
		if n := s.int(t, "READ", "Operations"); n != 200 {
			t.Errorf("target %q: %d operations, want 200", target, n)
		}
		res := readResults(t, out)
		checkDiagnosisLines(t, r.stdout, res)
		if target == "" {
			if _, ok := s["CLIENT"]["ScheduleLagP50(us)"]; ok || res.ScheduleLag != nil {
				t.Errorf("closed loop: a schedule lag in the summary or results:\n%s", r.stdout)
			}
			if strings.Contains(r.stderr, "behind schedule") {
				t.Errorf("closed loop: stderr speaks of a schedule: %s", r.stderr)
			}
			continue
		}
		if _, ok := s["Intended-READ"]; !ok {
			t.Fatalf("no [Intended-READ] section with -target:\n%s", r.stdout)
		}
		for _, m := range res.Measurements {
			if m.Service == nil || m.Intended == nil {
				t.Fatalf("%s: service and intended latency both expected", m.Name)
			}
			for p, sv := range m.Service.PercentilesUs {
				if iv := m.Intended.PercentilesUs[p]; iv < sv {
					t.Errorf("%s p%s: intended %d µs < service %d µs", m.Name, p, iv, sv)
				}
			}
		}
		// The summary's lag lines are the results file's histogram.
		lag := res.ScheduleLag
		if lag == nil || lag.Count != 200 {
			t.Fatalf("results schedule lag %+v, want 200 values", lag)
		}
		for name, want := range map[string]int64{"ScheduleLagP50(us)": lag.PercentilesUs["50"], "ScheduleLagP99(us)": lag.PercentilesUs["99"], "ScheduleLagMax(us)": lag.MaxUs} {
			if got := s.int(t, "CLIENT", name); got != want {
				t.Errorf("[CLIENT], %s, %d; the results file says %d", name, got, want)
			}
		}
	}
}

// TestLatencyKept: measurement.interval chooses what the summary prints,
// as YCSB prints it (intended latency alone is printed under [READ]); the
// results file always keeps the service latency, and the intended latency
// whenever the run follows a -target schedule.
func TestLatencyKept(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	if r := mongobench(t, "load", "mongodb", "-P", "workloadc", "-p", "mongodb.url="+url, "-p", "recordcount=50"); r.code != 0 {
		t.Fatalf("load exit %d: %s", r.code, r.stderr)
	}
	const service, intended = "service", "intended"
	tests := []struct {
		interval, target string // "" leaves them unset
		read             string // what [READ] prints
		intendedRead     bool   // whether [Intended-READ] is printed
		keepsIntended    bool
	}{
		{"", "", service, false, false},
		{"op", "", service, false, false},
		{"intended", "", intended, false, true},
		{"both", "", service, true, true},
		{"", "2000", service, true, true},
		{"op", "2000", service, false, true},
		{"intended", "2000", intended, false, true},
		{"both", "2000", service, true, true},
	}
	for _, tc := range tests {
		name := fmt.Sprintf("interval=%q target=%q", tc.interval, tc.target)
		out := filepath.Join(t.TempDir(), "r.json")
		args := []string{"run", "mongodb", "-P", "workloadc", "-p", "mongodb.url=" + url, "-p", "recordcount=50",
			"-p", "operationcount=100", "--no-store", "--out", out}
		if tc.interval != "" {
			args = append(args, "-p", "measurement.interval="+tc.interval)
		}
		if tc.target != "" {
			args = append(args, "-target", tc.target)
		}
		r := mongobench(t, args...)
		if r.code != 0 {
			t.Fatalf("%s: exit %d: %s", name, r.code, r.stderr)
		}
		s := parseSummary(t, r.stdout)
		if _, ok := s["Intended-READ"]; ok != tc.intendedRead {
			t.Errorf("%s: [Intended-READ] printed: %v, want %v", name, ok, tc.intendedRead)
		}
		res := readResults(t, out)
		for _, m := range res.Measurements {
			if m.Service == nil {
				t.Fatalf("%s: %s has no service latency in the results", name, m.Name)
			}
			if (m.Intended != nil) != tc.keepsIntended {
				t.Errorf("%s: %s keeps intended latency: %v, want %v", name, m.Name, m.Intended != nil, tc.keepsIntended)
			}
			if m.Name != "READ" {
				continue
			}
			printed := m.Service
			if tc.read == intended {
				printed = m.Intended
			}
			if got := s.int(t, "READ", "MaxLatency(us)"); got != printed.MaxUs {
				t.Errorf("%s: [READ] MaxLatency %d, want the %s latency's %d", name, got, tc.read, printed.MaxUs)
			}
		}
	}
}

// checkDiagnosisLines: the summary's [DIAGNOSIS] lines are the results
// file's diagnosis, line for line (its commas made semicolons).
func checkDiagnosisLines(t *testing.T, stdout string, res *results.Results) {
	t.Helper()
	if res.Extra == nil || res.Extra.Diagnosis == nil {
		t.Fatal("the results file holds no diagnosis")
	}
	d := res.Extra.Diagnosis
	var got []string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "[DIAGNOSIS], ") {
			got = append(got, l)
		}
	}
	want := []string{"[DIAGNOSIS], Limit, " + d.Verdict}
	if len(d.Limits) > 1 {
		var names []string
		for _, l := range d.Limits {
			if l.Borderline {
				names = append(names, l.Kind+" (borderline)")
			} else {
				names = append(names, l.Kind)
			}
		}
		want = append(want, "[DIAGNOSIS], Limits, "+strings.Join(names, "; "))
	}
	for _, l := range d.Limits {
		for _, e := range l.Evidence {
			want = append(want, "[DIAGNOSIS], Evidence("+l.Kind+"), "+printable.Field(e))
		}
	}
	for _, c := range d.CannotJudge {
		want = append(want, "[DIAGNOSIS], CannotJudge, "+printable.Field(c))
	}
	for _, n := range d.Notes {
		want = append(want, "[DIAGNOSIS], Note, "+printable.Field(n))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("[DIAGNOSIS] lines\n%s\nthe results file's diagnosis\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
