package export

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSummaryGoldensHaveThreeFields reads every golden summary of the
// packages that make summary lines (the text exporter, the server and host
// metrics, the sharding and replication lines, the diagnosis) and checks
// that each line in YCSB's shape splits on commas into exactly three
// fields: the field reports' authors read summaries with awk -F', ' and CSV
// readers, which a fourth field breaks.
func TestSummaryGoldensHaveThreeFields(t *testing.T) {
	t.Parallel()
	var files []string
	for _, pattern := range []string{
		"testdata/text.golden",
		"testdata/export_text.golden",
		"../metrics/testdata/summary/*.txt",
		"../diagnosis/testdata/diagnosis.golden",
	} {
		m, err := filepath.Glob(pattern)
		if err != nil || len(m) == 0 {
			t.Fatalf("no golden summary matches %s (%v): the test would check nothing", pattern, err)
		}
		files = append(files, m...)
	}
	lines := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(b), "\n") {
			if !strings.HasPrefix(l, "[") {
				continue
			}
			lines++
			if bad := threeFieldsProblem(l); bad != "" {
				t.Errorf("%s:%d: %s", f, i+1, bad)
			}
		}
	}
	if lines < 100 {
		t.Errorf("only %d summary lines in %d files: the goldens moved?", lines, len(files))
	}
}

func TestThreeFieldsProblem(t *testing.T) {
	t.Parallel()
	tests := []struct {
		line string
		ok   bool
	}{
		{"[READ], Operations, 100", true},
		{"[HOST], Disk(vda).IOPS, 1671.7", true},
		{"[HOST], Disk(vda), IOPS=1671.7, r/s=0.0", false},
		{"[DIAGNOSIS], Evidence(server CPU), busy (user 70.1%, system 26.0%)", false},
		{"[SERVER], Topology", false},
		{"[SERVER], , standalone", false},
		{"[SERVER], Topology, ", false},
		{"SERVER, Topology, standalone", false},
	}
	for _, tt := range tests {
		if got := threeFieldsProblem(tt.line) == ""; got != tt.ok {
			t.Errorf("threeFieldsProblem(%q) = %q", tt.line, threeFieldsProblem(tt.line))
		}
	}
}

// threeFieldsProblem says what is wrong with a summary line that a reader
// splitting on commas would not read as `[SECTION], name, value`, or ""
// when it is one: three fields, the first in brackets, none empty. Every
// line mongobench adds to YCSB's summary keeps to it (one figure per line,
// no comma inside a value), and the tests of each producer check it.
func threeFieldsProblem(line string) string {
	f := strings.Split(line, ",")
	if len(f) != 3 {
		return fmt.Sprintf("%q has %d comma-separated fields, want 3", line, len(f))
	}
	if !strings.HasPrefix(f[0], "[") || !strings.HasSuffix(f[0], "]") {
		return fmt.Sprintf("%q does not open with [SECTION]", line)
	}
	if strings.TrimSpace(f[1]) == "" || strings.TrimSpace(f[2]) == "" {
		return fmt.Sprintf("%q has an empty name or value", line)
	}
	return ""
}
