package cli

import (
	"fmt"
	"io"
	"net"
	"path/filepath"
	"regexp"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// stallProxy forwards TCP to a server until it is stalled: then it keeps
// every connection open and accepts new ones, but passes no byte on, as a
// server that hangs does.
type stallProxy struct {
	ln      net.Listener
	target  string
	stalled atomic.Bool
	mu      sync.Mutex
	conns   []net.Conn
}

// url is dbURL, a URL of the test server with a database of its own, sent
// through the proxy.
func (p *stallProxy) url(dbURL string) string {
	return "mongodb://" + p.ln.Addr().String() + dbURL[len(testServer.URI())-1:]
}

func newStallProxy(t *testing.T, target string) *stallProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &stallProxy{ln: ln, target: target}
	go p.accept()
	t.Cleanup(p.close)
	return p
}

func (p *stallProxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		go p.pipe(c, s)
		go p.pipe(s, c)
	}
}

func (p *stallProxy) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		for p.stalled.Load() {
			time.Sleep(5 * time.Millisecond)
		}
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			if err != io.EOF {
				dst.Close()
			}
			return
		}
	}
}

func (p *stallProxy) close() {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
}

// TestStalledServer stalls the server in the middle of a 6 s open-loop
// run, from its first status line until operations have timed out:
// operations time out one by one after optimeout, and intended latency
// shows the stall that service latency hides.
func TestStalledServer(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	if r := mongobench(t, "load", "mongodb", "-P", "workloadc", "-p", "mongodb.url="+url, "-p", "recordcount=100"); r.code != 0 {
		t.Fatalf("load: %s", r.stderr)
	}
	p := newStallProxy(t, hostPort(t, testServer.URI()))
	proxied := p.url(url)
	out := filepath.Join(t.TempDir(), "stall.json")
	run := startBackground(t, "run", "mongodb", "-s", "-P", "workloadc", "-p", "mongodb.url="+proxied, "-p", "recordcount=100",
		"-p", "operationcount=0", "-p", "maxexecutiontime=6", "-p", "optimeout=0.5", "-p", "status.interval=1",
		"-threads", "4", "-target", "100", "--out", out)
	run.stderr.waitStatusLines(t, 1)
	p.stalled.Store(true)
	// Failed reads in an interval: the stall outlasted optimeout.
	run.stderr.waitStatus(t, 1, "failed reads while the server stalls", func(_, line string) bool {
		return hasSection(line, "READ-FAILED")
	})
	p.stalled.Store(false)
	r := run.wait(t)
	if r.code != 0 {
		t.Fatalf("run exit %d: %s", r.code, r.stderr)
	}
	s := parseSummary(t, r.stdout)
	if s.int(t, "READ", "Return=TIMEOUT") == 0 {
		t.Errorf("no TIMEOUT while the server stalled:\n%s", r.stdout)
	}
	// Operations waited for the stalled ones: intended p99 is far above
	// service p99 for the reads that succeeded.
	svc, intended := s.int(t, "READ", "99thPercentileLatency(us)"), s.int(t, "Intended-READ", "99thPercentileLatency(us)")
	if intended <= svc {
		t.Errorf("intended p99 %d µs is not above service p99 %d µs: the stall is hidden", intended, svc)
	}
	// Threads stuck behind the stall fell behind the schedule: stderr says
	// how many, as the results file does.
	m := regexp.MustCompile(`mongobench: (\d+) operations? started over 1 ms behind schedule; (\d+) (?:was|were) cut short by the end of the phase and not counted`).FindStringSubmatch(r.stderr)
	if m == nil {
		t.Fatalf("no late-start line after a stall at -target 100:\n%s", r.stderr)
	}
	res := readResults(t, out)
	if res.Extra == nil || res.Extra.Runner == nil {
		t.Fatal("no runner counts in the results file")
	}
	if rc := res.Extra.Runner; m[1] == "0" || m[1] != fmt.Sprint(rc.LateStarts) || m[2] != fmt.Sprint(rc.AbandonedAtStop) {
		t.Errorf("stderr says %s late, %s cut short; the results file %v and %v", m[1], m[2], rc.LateStarts, rc.AbandonedAtStop)
	}
}

// TestStalledServerEndsOnTime stalls the server for good while operations
// may wait for it 120 s (optimeout): the phase still ends at
// maxexecutiontime=3, cutting them short, instead of waiting them out.
// Decided on what the run did, not on how long it took: its runner says
// the time limit ended it, the stuck operations were cut short, and none
// ran into its timeout (as they would have, waited out).
func TestStalledServerEndsOnTime(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	if r := mongobench(t, "load", "mongodb", "-P", "workloadc", "-p", "mongodb.url="+url, "-p", "recordcount=100"); r.code != 0 {
		t.Fatalf("load: %s", r.stderr)
	}
	p := newStallProxy(t, hostPort(t, testServer.URI()))
	out := filepath.Join(t.TempDir(), "stalled.json")
	run := startBackground(t, "run", "mongodb", "-s", "-P", "workloadc", "-p", "mongodb.url="+p.url(url), "-p", "recordcount=100",
		"-p", "operationcount=0", "-p", "maxexecutiontime=3", "-p", "optimeout=120", "-p", "status.interval=1",
		"-threads", "2", "--out", out, "--no-store")
	run.stderr.waitStatusLines(t, 1)
	p.stalled.Store(true)
	r := run.wait(t)
	if r.code != 0 {
		t.Fatalf("run exit %d: %s", r.code, r.stderr)
	}
	s := parseSummary(t, r.stdout)
	// The stuck operations were cut short by the time limit, not counted
	// as failures.
	res := readResults(t, out)
	if res.Extra == nil || res.Extra.Runner == nil || !res.Extra.StoppedByTime {
		t.Fatalf("the phase was not ended by maxexecutiontime: %+v", res.Extra)
	}
	if res.Extra.AbandonedAtStop == 0 {
		t.Errorf("no operation cut short by the end of the phase, though both threads were stuck:\n%s", r.stderr)
	}
	if n := s.int(t, "READ", "Return=TIMEOUT") + s.int(t, "READ", "Return=ERROR"); n != 0 {
		t.Errorf("%d reads failed: the operations the phase's end cut short are not the server's failures", n)
	}
}
