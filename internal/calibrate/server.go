package calibrate

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/mongobench/mongobench/internal/nullserver"
	"github.com/mongobench/mongobench/internal/selfmon"
)

// serverStartTimeout bounds how long a child server may take to print its
// URI.
const serverStartTimeout = 15 * time.Second

// server is the null server a calibration runs against.
type server struct {
	mode  ServerMode
	uri   string
	pid   int // the child's process id; 0 otherwise
	close func()
}

// cpu returns the child server's CPU time so far; 0 when the server is not
// a child whose CPU can be read.
func (s *server) cpu() time.Duration {
	if s.pid == 0 {
		return 0
	}
	d, err := selfmon.ProcessCPU(s.pid)
	if err != nil {
		return 0
	}
	return d
}

func startServer(ctx context.Context, o *Options) (*server, error) {
	switch o.Server {
	case ServerExternal:
		return &server{mode: ServerExternal, uri: o.ServerURI, close: func() {}}, nil
	case ServerInProcess:
		s, err := nullserver.Start("127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("cannot start the null server: %w", err)
		}
		return &server{mode: ServerInProcess, uri: s.URI(), close: func() { _ = s.Close() }}, nil
	}
	cmdline := o.ServerCommand
	if len(cmdline) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("cannot find mongobench's executable to start the null server: %w", err)
		}
		cmdline = []string{exe, "server", "--null", "--addr", "127.0.0.1:0"}
	}
	return startChild(ctx, cmdline)
}

// startChild starts the null server as a child process, so that its CPU
// time is not in the client's getrusage figures, and reads its URI from the
// first line it prints.
func startChild(ctx context.Context, cmdline []string) (*server, error) {
	cmd := exec.Command(cmdline[0], cmdline[1:]...)
	setDeathSignal(cmd)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("cannot start the null server: %w", err)
	}
	stderr := &limitedBuffer{max: 4096}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot start the null server (%s): %w", strings.Join(cmdline, " "), err)
	}
	exited := make(chan struct{})
	var waitErr error
	go func() {
		waitErr = cmd.Wait()
		close(exited)
	}()
	stop := func() {
		// An interrupt lets the server close its connections and say how
		// many requests it served; a kill follows if it does not go.
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	}

	lines := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		line, _ := r.ReadString('\n')
		lines <- strings.TrimSpace(line)
		// Keep reading so the child never blocks on a full pipe.
		_, _ = io.Copy(io.Discard, r)
	}()
	timer := time.NewTimer(serverStartTimeout)
	defer timer.Stop()
	select {
	case line := <-lines:
		if line == "" {
			// Standard output closed: the child is exiting; say why.
			select {
			case <-exited:
				return nil, fmt.Errorf("the null server (%s) exited before it was ready: %v: %s", strings.Join(cmdline, " "), waitErr, stderr.oneLine())
			case <-time.After(5 * time.Second):
			}
		}
		if !strings.HasPrefix(line, "mongodb://") {
			stop()
			return nil, fmt.Errorf("the null server (%s) printed %q instead of its URI: %s", strings.Join(cmdline, " "), line, stderr.oneLine())
		}
		return &server{mode: ServerChild, uri: line, pid: cmd.Process.Pid, close: stop}, nil
	case <-exited:
		return nil, fmt.Errorf("the null server (%s) exited before it was ready: %v: %s", strings.Join(cmdline, " "), waitErr, stderr.oneLine())
	case <-timer.C:
		stop()
		return nil, fmt.Errorf("the null server (%s) did not print its URI within %s: %s", strings.Join(cmdline, " "), serverStartTimeout, stderr.oneLine())
	case <-ctx.Done():
		stop()
		return nil, ctx.Err()
	}
}

// limitedBuffer keeps the first max bytes written to it, for error messages.
type limitedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (b *limitedBuffer) oneLine() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := strings.Join(strings.Fields(b.buf.String()), " ")
	if s == "" {
		return "no message"
	}
	return s
}
