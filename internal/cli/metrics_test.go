package cli

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMetricsAddr runs part 1 of 3 of a benchmark with --metrics-addr
// and scrapes it while it runs. The endpoint's sink is fed each interval before the
// status line's, so once a status line says N operations the endpoint
// counts at least N; and the summary, written after the interrupt, counts
// at least what the endpoint did.
func TestMetricsAddr(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	if r := mongobench(t, "load", "mongodb", "-P", "workloadc", "-p", "mongodb.url="+url, "-p", "recordcount=100"); r.code != 0 {
		t.Fatalf("load: %s", r.stderr)
	}
	stderr := newStderrWatch()
	var stdout bytes.Buffer
	interrupt := make(chan int, 1)
	exited := make(chan int)
	go func() {
		exited <- Main(context.Background(), []string{"run", "mongodb", "-s", "-P", "workloadc", "-p", "mongodb.url=" + url,
			"-p", "recordcount=100", "-p", "operationcount=0", "-p", "maxexecutiontime=120", "-p", "status.interval=0.1",
			"--metrics-addr", "127.0.0.1:0", "--no-store",
			// A part, started at once rather than at a barrier with the
			// other two, which never come.
			"--part", "1/3", "--start-at", time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)},
			Env{Stdout: &stdout, Stderr: stderr, Getenv: testEnv, Interrupt: interrupt})
		stderr.end()
	}()
	// A status line with operations done, and the endpoint said before it.
	var endpoint, runID string
	var done int64
	stderr.waitFor(t, "a status line with operations", func(lines []string) bool {
		for _, l := range lines {
			if m := servingMetrics.FindStringSubmatch(l); m != nil {
				endpoint, runID = m[1], m[2]
			}
			if m := statusLineOps.FindStringSubmatch(l); m != nil {
				done, _ = strconv.ParseInt(m[1], 10, 64)
			}
		}
		return done > 0
	})
	if endpoint == "" {
		interrupt <- ExitSIGINT
		<-exited
		t.Fatalf("no endpoint said on stderr:\n%s", stderr.String())
	}
	scraped, err := scrapeText(endpoint)
	interrupt <- ExitSIGINT
	if code := <-exited; code != ExitSIGINT {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, ExitSIGINT, stderr.String())
	}
	if err != nil {
		t.Fatal(err)
	}
	// Every series names its run: the part's run id (the hash of the
	// command's properties here), its workload file and its part.
	run := `label="",part="1",run_id="` + runID + `"`
	reads := scraped[`mongobench_operations_total{command="run",label="",op="READ",part="1",run_id="`+runID+`",status="OK",workload="workloadc"}`]
	if reads < float64(done) {
		t.Errorf("the endpoint counts %v reads; the status line before said %d operations", reads, done)
	}
	if got := scraped[`mongobench_phase_running{command="run",`+run+`,workload="workloadc"}`]; got != 1 {
		t.Errorf("phase running = %v during the run, want 1", got)
	}
	if got := scraped[`mongobench_operation_latency_seconds_count{command="run",label="",op="READ",outcome="ok",part="1",run_id="`+runID+`",workload="workloadc"}`]; got != reads {
		t.Errorf("the READ latency histogram holds %v values, the counter %v", got, reads)
	}
	if part, parts := scraped[`mongobench_part{`+run+`,workload="workloadc"}`], scraped[`mongobench_parts{`+run+`,workload="workloadc"}`]; part != 1 || parts != 3 {
		t.Errorf("part %v of %v, want 1 of 3", part, parts)
	}
	s := parseSummary(t, stdout.String())
	if final := s.int(t, "READ", "Operations"); float64(final) < reads {
		t.Errorf("the summary counts %d reads, fewer than the endpoint's %v during the run", final, reads)
	}
}

// servingMetrics is what a run says of its endpoint: its URL and run id.
var servingMetrics = regexp.MustCompile(`^mongobench: serving metrics at (\S+) \(run_id "([^"]+)"\)$`)

// scrapeText reads the endpoint in the text format: each series, as
// written, to its value.
func scrapeText(url string) (map[string]float64, error) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %q: %v", url, line, err)
		}
		out[line[:i]] = v
	}
	return out, sc.Err()
}
