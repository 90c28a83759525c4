package cli

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// commandStall forwards TCP to a server until a client sends the command
// it waits for: that connection then stays open and nothing more passes on
// it, as with a server that hangs in that command. With no command it
// forwards nothing at all: a server that accepts and never answers.
// reached is closed when the stall begins, so a test knows which step the
// client is blocked in without guessing at times.
type commandStall struct {
	ln      net.Listener
	target  string
	command string
	reached chan struct{}
	once    sync.Once
	mu      sync.Mutex
	conns   []net.Conn
}

func newCommandStall(t *testing.T, target, command string) *commandStall {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &commandStall{ln: ln, target: target, command: command, reached: make(chan struct{})}
	go p.accept()
	t.Cleanup(p.close)
	return p
}

func (p *commandStall) keep(c net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.conns = append(p.conns, c)
}

func (p *commandStall) stall() { p.once.Do(func() { close(p.reached) }) }

func (p *commandStall) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.keep(c)
		if p.command == "" {
			p.stall()
			continue
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.keep(s)
		go func() { _, _ = io.Copy(c, s) }()
		go p.forward(s, c)
	}
}

// forward passes whole wire messages from the client on to the server
// until one is an OP_MSG whose command is p.command.
func (p *commandStall) forward(dst, src net.Conn) {
	for {
		var hdr [4]byte
		if _, err := io.ReadFull(src, hdr[:]); err != nil {
			return
		}
		n := int(binary.LittleEndian.Uint32(hdr[:]))
		if n < 16 || n > 48<<20 {
			return
		}
		msg := make([]byte, n)
		copy(msg, hdr[:])
		if _, err := io.ReadFull(src, msg[4:]); err != nil {
			return
		}
		if commandOf(msg) == p.command {
			p.stall()
			return // the connection stays open, and silent
		}
		if _, err := dst.Write(msg); err != nil {
			return
		}
	}
}

// commandOf is the command an OP_MSG carries: the first key of its body
// (flags, then a kind-0 section holding the body document).
func commandOf(msg []byte) string {
	const opMsg = 2013
	if len(msg) < 27 || binary.LittleEndian.Uint32(msg[12:16]) != opMsg || msg[20] != 0 {
		return ""
	}
	key := msg[26:] // after the body's length and its first element's type
	if i := bytes.IndexByte(key, 0); i >= 0 {
		return string(key[:i])
	}
	return ""
}

func (p *commandStall) close() {
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
}

// signalAt is a stderr that closes reached when a line holding text is
// written: the embedded server's preload announces itself so.
type signalAt struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	text    string
	reached chan struct{}
	once    sync.Once
}

func (w *signalAt) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(b)
	if strings.Contains(w.buf.String(), w.text) {
		w.once.Do(func() { close(w.reached) })
	}
	return len(b), nil
}

func (w *signalAt) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestInterruptBeforeThePhase interrupts each step that comes before a
// phase while it waits on a server that does not answer: the command must
// end with the signal's exit code and say which step it stopped, not wait
// out the connect timeout or the operation timeout and then fail with
// exit 1. Those timeouts are an hour here: a command that waits them out
// never ends within watchTimeout, so what decides is whether it ends, and
// with what code and words, not how fast.
func TestInterruptBeforeThePhase(t *testing.T) {
	t.Parallel()
	slow := []string{"-p", "mongodb.connecttimeout=3600", "-p", "optimeout=3600", "--no-store"}
	tests := []struct {
		name    string
		command string // the command the server hangs in; "" = it never answers at all
		args    []string
		code    int
		step    string // what the last line of stderr starts with
		sweep   bool   // a sweep, whose message and table differ
	}{
		{"connecting, SIGINT", "", []string{"run", "mongodb", "-P", "workloadc", "-p", "recordcount=10", "-p", "operationcount=10"}, ExitSIGINT,
			"interrupted while connecting to mongodb://", false},
		{"connecting, SIGTERM", "", []string{"load", "mongodb", "-P", "workloada", "-p", "recordcount=10"}, ExitSIGTERM,
			"interrupted while connecting to mongodb://", false},
		{"dropping", "drop", []string{"load", "mongodb", "-P", "workloada", "-p", "recordcount=10", "--drop"}, ExitSIGINT,
			"interrupted while dropping ", false},
		{"counting", "count", []string{"run", "mongodb", "-P", "workloadc", "-p", "recordcount=10", "-p", "operationcount=10"}, ExitSIGINT,
			"interrupted while counting the documents in ", false},
		{"finding where inserts ended", "find", []string{"run", "mongodb", "-P", "workloadd", "-p", "recordcount=10", "-p", "operationcount=10"}, ExitSIGTERM,
			"interrupted while finding where earlier inserts ended", false},
		{"a sweep counting between runs", "count", []string{"sweep", "-P", "workloadc", "--vary", "threadcount=1,2", "-p", "recordcount=10", "-p", "operationcount=10"}, ExitSIGTERM,
			"interrupted: the sweep stopped", true},
		{"a sweep connecting", "", []string{"sweep", "load", "-P", "workloada", "--vary", "threadcount=1,2", "-p", "recordcount=10"}, ExitSIGINT,
			"interrupted: the sweep stopped", true},
		// The warm-up is a phase of its own, stopped gracefully (its stuck
		// reads get stopGrace); what follows it must not run.
		{"warming up", "find", []string{"run", "mongodb", "-P", "workloadc", "-p", "recordcount=10", "-p", "operationcount=10", "--warmup", "60s"}, ExitSIGINT,
			"interrupted while warming up", false},
		{"reading the topology", "buildInfo", []string{"run", "mongodb", "-P", "workloadc", "-p", "recordcount=10", "-p", "operationcount=10"}, ExitSIGINT,
			"interrupted while reading the server's topology and sizes", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := newCommandStall(t, hostPort(t, testServer.URI()), tt.command)
			url := "mongodb://" + p.ln.Addr().String() + freshURL(t)[len(testServer.URI())-1:]
			args := append(append(tt.args, "-p", "mongodb.url="+url), slow...)
			if tt.sweep {
				args = append(args, "--out-dir", t.TempDir())
			}
			interrupt := make(chan int, 1)
			var stdout bytes.Buffer
			stderr := &signalAt{reached: make(chan struct{})}
			done := make(chan int, 1)
			go func() {
				done <- Main(context.Background(), args, Env{Stdout: &stdout, Stderr: stderr, Getenv: testEnv, Interrupt: interrupt})
			}()
			select {
			case <-p.reached:
			case code := <-done:
				t.Fatalf("exit %d before the server stalled; stderr: %s", code, stderr)
			}
			interrupt <- tt.code
			sent := time.Now()
			var code int
			select {
			case code = <-done:
			case <-time.After(watchTimeout):
				t.Fatalf("still running %s after the interrupt; stderr: %s", watchTimeout, stderr)
			}
			t.Logf("ended %v after the interrupt", time.Since(sent).Round(time.Millisecond))
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tt.code, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			if last := lines[len(lines)-1]; !strings.HasPrefix(last, "mongobench: "+tt.step) || !tt.sweep && !strings.HasSuffix(last, ": nothing was measured") {
				t.Errorf("last line of stderr %q, want it to say %q", last, tt.step)
			}
			if stdout.Len() != 0 && !tt.sweep {
				t.Errorf("a summary for a run that never started:\n%s", stdout.String())
			}
		})
	}
}

// TestInterruptDuringPreload interrupts the embedded server's preload of
// a large data set: the command ends with 130 without claiming that the
// records were loaded, and runs nothing.
func TestInterruptDuringPreload(t *testing.T) {
	t.Parallel()
	interrupt := make(chan int, 1)
	var stdout bytes.Buffer
	stderr := &signalAt{text: "the embedded server is empty: loading", reached: make(chan struct{})}
	done := make(chan int, 1)
	go func() {
		done <- Main(context.Background(), []string{"run", "mongodb", "-P", "workloadc", "-p", "recordcount=100000000", "-p", "operationcount=10",
			"--data-dir", t.TempDir(), "--no-store"}, Env{Stdout: &stdout, Stderr: stderr, Getenv: testEnv, Interrupt: interrupt})
	}()
	select {
	case <-stderr.reached:
	case code := <-done:
		t.Fatalf("exit %d before the preload; stderr: %s", code, stderr)
	}
	interrupt <- ExitSIGINT
	var code int
	select {
	case code = <-done:
	case <-time.After(watchTimeout):
		t.Fatalf("still loading %s after the interrupt; stderr: %s", watchTimeout, stderr)
	}
	if code != ExitSIGINT {
		t.Errorf("exit %d, want %d; stderr: %s", code, ExitSIGINT, stderr)
	}
	if strings.Contains(stderr.String(), "loaded ") {
		t.Errorf("claims a load the interrupt cut short:\n%s", stderr)
	}
	if !strings.Contains(stderr.String(), "mongobench: interrupted while loading the embedded server: nothing was measured") {
		t.Errorf("stderr does not say what was interrupted:\n%s", stderr)
	}
	if stdout.Len() != 0 {
		t.Errorf("a summary for a run that never started:\n%s", stdout.String())
	}
}
