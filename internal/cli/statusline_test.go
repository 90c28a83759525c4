package cli

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestStatusLineCounts: with -s, each status line's "N operations" is the
// operations done so far, as in YCSB: the sum of every earlier line's
// interval counts, and at the end the summary's total.
func TestStatusLineCounts(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	if r := mongobench(t, "load", "mongodb", "-P", "workloada", "-p", "mongodb.url="+url, "-p", "recordcount=100"); r.code != 0 {
		t.Fatalf("load: %s", r.stderr)
	}
	r := mongobench(t, "run", "mongodb", "-s", "-P", "workloada", "-p", "mongodb.url="+url, "-p", "recordcount=100",
		"-p", "operationcount=0", "-p", "maxexecutiontime=3", "-p", "status.interval=1", "-target", "300", "-threads", "4", "--no-store")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	head := regexp.MustCompile(` sec: (\d+) operations;`)
	// Service-latency sections only: [Intended-READ: ...] counts the same
	// operations again.
	section := regexp.MustCompile(`\[(READ|UPDATE|READ-FAILED|UPDATE-FAILED): Count=(\d+)`)
	var lines, sum, last int64
	for _, line := range strings.Split(r.stderr, "\n") {
		m := head.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, s := range section.FindAllStringSubmatch(line, -1) {
			n, _ := strconv.ParseInt(s[2], 10, 64)
			sum += n
		}
		last, _ = strconv.ParseInt(m[1], 10, 64)
		if last != sum {
			t.Errorf("status line says %d operations, its intervals so far count %d: %s", last, sum, line)
		}
		lines++
	}
	if lines < 3 {
		t.Fatalf("%d status lines in a 3 s run at status.interval=1:\n%s", lines, r.stderr)
	}
	s := parseSummary(t, r.stdout)
	total := s.int(t, "READ", "Operations") + s.int(t, "READ-FAILED", "Operations") + s.int(t, "UPDATE", "Operations") + s.int(t, "UPDATE-FAILED", "Operations")
	if last != total {
		t.Errorf("the last status line says %d operations, the summary %d", last, total)
	}
}

// TestStatusLineEstimate: as in YCSB, a run bounded by its operation count
// estimates the time left while operations remain, and says nothing of it
// once none do.
func TestStatusLineEstimate(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	if r := mongobench(t, "load", "mongodb", "-P", "workloadc", "-p", "mongodb.url="+url, "-p", "recordcount=100"); r.code != 0 {
		t.Fatalf("load: %s", r.stderr)
	}
	r := mongobench(t, "run", "mongodb", "-s", "-P", "workloadc", "-p", "mongodb.url="+url, "-p", "recordcount=100",
		"-p", "operationcount=600", "-p", "status.interval=1", "-target", "300", "--no-store")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	head := regexp.MustCompile(` sec: (\d+) operations;`)
	lines := 0
	for _, line := range strings.Split(r.stderr, "\n") {
		m := head.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		lines++
		done, _ := strconv.Atoi(m[1])
		if estimated := strings.Contains(line, "est completion in"); estimated != (done > 0 && done < 600) {
			t.Errorf("%d of 600 operations done, estimate printed: %v: %s", done, estimated, line)
		}
	}
	if lines < 2 {
		t.Fatalf("%d status lines in a 2 s run at status.interval=1:\n%s", lines, r.stderr)
	}
}
