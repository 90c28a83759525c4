package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/export"
)

type exportedFigure struct {
	Metric      string          `json:"metric"`
	Measurement string          `json:"measurement"`
	Value       json.RawMessage `json:"value"`
}

// TestSummaryExport: as in YCSB's Client, the summary goes to exportfile
// when it is set, else to stdout, in the format of the exporter property;
// the JSON results file is --out's alone, and records the
// measurement.interval the run used (both, with -target).
func TestSummaryExport(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	if r := mongobench(t, "load", "mongodb", "-P", "workloadc", "-p", "mongodb.url="+url, "-p", "recordcount=50"); r.code != 0 {
		t.Fatalf("load: %s", r.stderr)
	}
	tests := []struct {
		name     string
		exporter string // "" for the default
		toFile   bool
	}{
		{"text to stdout", "", false},
		{"text to exportfile", "", true},
		{"JSON to exportfile", export.JSONExporter, true},
		{"JSON array to stdout", export.JSONArrayExporter, false},
		{"JSON array by its pre-0.17 name", "com.yahoo.ycsb.measurements.exporter.JSONArrayMeasurementsExporter", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			resultsFile, exportFile := filepath.Join(dir, "results.json"), filepath.Join(dir, "summary")
			args := []string{"run", "mongodb", "-P", "workloadc", "-p", "mongodb.url=" + url, "-p", "recordcount=50",
				"-p", "operationcount=40", "-target", "1000", "--out", resultsFile, "--no-store"}
			if tt.exporter != "" {
				args = append(args, "-p", "exporter="+tt.exporter)
			}
			if tt.toFile {
				args = append(args, "-p", "exportfile="+exportFile)
			}
			r := mongobench(t, args...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			summary := []byte(r.stdout)
			if tt.toFile {
				if r.stdout != "" {
					t.Errorf("the summary went to exportfile, yet stdout holds:\n%s", r.stdout)
				}
				var err error
				if summary, err = os.ReadFile(exportFile); err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(r.stderr, "summary written to "+exportFile) {
					t.Errorf("stderr does not say where the summary went:\n%s", r.stderr)
				}
			} else if _, err := os.Stat(exportFile); err == nil {
				t.Errorf("exportfile written though not asked for")
			}
			var figures []exportedFigure
			switch tt.exporter {
			case "":
				s := parseSummary(t, string(summary))
				for metric, lines := range s {
					for name, v := range lines {
						figures = append(figures, exportedFigure{Metric: metric, Measurement: name, Value: json.RawMessage(v)})
					}
				}
			case export.JSONExporter:
				dec := json.NewDecoder(bytes.NewReader(summary))
				for dec.More() {
					var f exportedFigure
					if err := dec.Decode(&f); err != nil {
						t.Fatalf("%v in\n%s", err, summary)
					}
					figures = append(figures, f)
				}
			default:
				if err := json.Unmarshal(summary, &figures); err != nil {
					t.Fatalf("not one JSON array: %v\n%s", err, summary)
				}
			}
			got := map[string]string{}
			for _, f := range figures {
				got[f.Metric+"/"+f.Measurement] = string(f.Value)
			}
			for _, k := range []string{"OVERALL/RunTime(ms)", "OVERALL/Throughput(ops/sec)", "READ/Operations", "READ/99thPercentileLatency(us)", "Intended-READ/Operations"} {
				if _, ok := got[k]; !ok {
					t.Errorf("the summary has no %s:\n%s", k, summary)
				}
			}
			if got["READ/Return=OK"] != "40" {
				t.Errorf("READ Return=OK is %s, want 40:\n%s", got["READ/Return=OK"], summary)
			}
			if _, ok := got["OVERALL/Partial"]; ok {
				t.Errorf("a run that ended by itself is marked partial:\n%s", summary)
			}
			res := readResults(t, resultsFile)
			if res.Operations != 40 {
				t.Errorf("results file: %d operations, want 40", res.Operations)
			}
			if mi := res.Config["measurement.interval"]; mi != "both" {
				t.Errorf("results record measurement.interval=%q, want both (the default with -target)", mi)
			}
		})
	}
}

// TestShortCollection: a run on a collection holding fewer records than
// recordcount says so in one line before the run, with the share of reads
// that will find nothing.
func TestShortCollection(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	if r := mongobench(t, "load", "mongodb", "-P", "workloadc", "-p", "mongodb.url="+url, "-p", "recordcount=30"); r.code != 0 {
		t.Fatalf("load: %s", r.stderr)
	}
	r := mongobench(t, "run", "mongodb", "-P", "workloadc", "-p", "mongodb.url="+url, "-p", "recordcount=100",
		"-p", "operationcount=20", "--no-store")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	dbName := url[strings.LastIndexByte(url, '/')+1:]
	want := "mongobench: warning: " + dbName + ".usertable holds 30 documents, recordcount is 100: about 70% of reads will be NOT_FOUND; " +
		`run "mongobench load" with the same properties first, or set recordcount=30` + "\n"
	if strings.Count(r.stderr, want) != 1 {
		t.Errorf("stderr lacks, once, the line\n%s\ngot:\n%s", want, r.stderr)
	}
	if s := parseSummary(t, r.stdout); s.int(t, "READ", "Return=NOT_FOUND") == 0 {
		t.Errorf("no NOT_FOUND reads on a collection of 30 of 100 records:\n%s", r.stdout)
	}
}

// TestAllNotFound: a run whose key lookups all found nothing (a collection
// never loaded) measured answers about missing documents: it says so on
// stderr and as the summary's last line, keeps its results, and exits 1.
// TestShortCollection is the other side: 70% NOT_FOUND is an answer.
func TestAllNotFound(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	out := filepath.Join(t.TempDir(), "r.json")
	r := mongobench(t, "run", "mongodb", "-P", "workloada", "-p", "mongodb.url="+url, "-p", "recordcount=50",
		"-p", "operationcount=40", "--no-store", "--out", out)
	if r.code != ExitFailed {
		t.Fatalf("exit %d, want %d: %s", r.code, ExitFailed, r.stderr)
	}
	const said = "every one of the 40 key lookups (READ/UPDATE) returned NOT_FOUND: the collection holds none of the keys looked up"
	if !strings.Contains(r.stderr, "mongobench: "+said) {
		t.Errorf("stderr does not say %q:\n%s", said, r.stderr)
	}
	checkThreeFields(t, r.stdout)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "[WARNING], AllNotFound, "+said) {
		t.Errorf("the summary's last line is %q, want the [WARNING], AllNotFound line", last)
	}
	s := parseSummary(t, r.stdout)
	if nf := s.int(t, "READ", "Return=NOT_FOUND") + s.int(t, "UPDATE", "Return=NOT_FOUND"); nf != 40 {
		t.Errorf("%d NOT_FOUND, want 40:\n%s", nf, r.stdout)
	}
	if res := readResults(t, out); res.Operations != 40 {
		t.Errorf("the results file holds %d operations, want 40", res.Operations)
	}
}
