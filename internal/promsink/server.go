package promsink

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Path is where the endpoint serves the metrics.
const Path = "/metrics"

// Server serves a Sink's metrics, with the process's own (CPU, memory,
// the Go runtime's), over HTTP.
type Server struct {
	sink *Sink
	ln   net.Listener
	srv  *http.Server
	done chan struct{}
}

// Listen starts serving on addr (HOST:PORT; port 0 picks a free one). The
// address is taken at once, so that one already in use is known before
// anything runs.
func Listen(addr string, opts Options) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	sink := New(opts)
	reg := prometheus.NewRegistry()
	reg.MustRegister(sink, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	mux := http.NewServeMux()
	mux.Handle(Path, promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	s := &Server{sink: sink, ln: ln, done: make(chan struct{}),
		srv: &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}}
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln)
	}()
	return s, nil
}

// Sink is the sink whose metrics the server serves.
func (s *Server) Sink() *Sink { return s.sink }

// URL is where the metrics are served.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() + Path }

// Close stops serving, letting a scrape under way finish within a few
// seconds.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	<-s.done
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// AddrExpected is what --metrics-addr accepts.
const AddrExpected = "expected HOST:PORT this machine can listen on, such as :9100 (every interface) or 127.0.0.1:0 (a free port)"

// ListenFlag starts the endpoint --metrics-addr names. Every error is an
// address that cannot be listened on, said with what is accepted: the
// user's to fix, found before anything runs.
func ListenFlag(addr string, opts Options) (*Server, error) {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		var ae *net.AddrError
		if errors.As(err, &ae) {
			err = errors.New(ae.Err)
		}
		return nil, fmt.Errorf("--metrics-addr %q: %v: %s", addr, err, AddrExpected)
	}
	srv, err := Listen(addr, opts)
	if err != nil {
		return nil, fmt.Errorf("--metrics-addr %s: %v: %s", addr, err, AddrExpected)
	}
	return srv, nil
}
