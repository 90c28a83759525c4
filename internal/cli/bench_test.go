package cli

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	driver "go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/mongobench/mongobench/internal/db/mongo"
	"github.com/mongobench/mongobench/internal/export"
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

func readResults(t *testing.T, path string) *export.Results {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := export.ReadJSON(f)
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
// "user<hash>", fields field0..N-1 as BSON binary of fieldlength bytes.
func TestDocumentShape(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	r := mongobench(t, "load", "mongodb", "-P", "workloada", "-p", "mongodb.url="+url,
		"-p", "recordcount=5", "-p", "fieldcount=3", "-p", "fieldlength=16", "-p", "batchsize=2")
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
}

// TestSeed003CommandLine runs seed 003's command line as written, with its
// custom workload file and an unknown property.
func TestSeed003CommandLine(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	r := mongobench(t, "run", "mongodb", "-threads", "8", "-P", "testdata/workload_s6",
		"-p", "fieldcount=1", "-p", "fieldlength=1024", "-p", "clientbuffering=true", "-p", "table=test1",
		"-p", "mongodb.url="+url, "-p", "recordcount=200", "-p", "operationcount=300")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "warning: unknown property clientbuffering (ignored)") {
		t.Errorf("no warning for clientbuffering in %q", r.stderr)
	}
	s := parseSummary(t, r.stdout)
	reads, inserts := s.int(t, "READ", "Operations")+s.int(t, "READ-FAILED", "Operations"), s.int(t, "INSERT", "Operations")
	if reads+inserts != 300 {
		t.Errorf("reads %d + inserts %d != 300", reads, inserts)
	}
}

// TestTargetRate checks the open-loop schedule: -target 500 for 4 s gives
// about 2,000 operations, and intended latency is never below service
// latency.
func TestTargetRate(t *testing.T) {
	// Not parallel: the schedule is checked on an otherwise idle machine.
	url := freshURL(t)
	if r := mongobench(t, "load", "mongodb", "-P", "workloadc", "-p", "mongodb.url="+url, "-p", "recordcount=100"); r.code != 0 {
		t.Fatalf("load exit %d: %s", r.code, r.stderr)
	}
	out := filepath.Join(t.TempDir(), "r.json")
	r := mongobench(t, "run", "mongodb", "-P", "workloadc", "-p", "mongodb.url="+url, "-p", "recordcount=100",
		"-p", "operationcount=0", "-p", "maxexecutiontime=4", "-target", "500", "-threads", "32", "--out", out)
	if r.code != 0 {
		t.Fatalf("run exit %d: %s", r.code, r.stderr)
	}
	s := parseSummary(t, r.stdout)
	n := s.int(t, "READ", "Operations")
	if math.Abs(float64(n)-2000)/2000 > 0.05 {
		t.Errorf("%d operations at -target 500 for 4 s, want 2000 ± 5%%; stderr: %s", n, r.stderr)
	}
	if _, ok := s["Intended-READ"]; !ok {
		t.Fatalf("no [Intended-READ] section with -target:\n%s", r.stdout)
	}
	res := readResults(t, out)
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
}
