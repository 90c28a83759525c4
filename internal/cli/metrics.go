package cli

import (
	"errors"
	"fmt"
	"net"

	"github.com/mongobench/mongobench/internal/promsink"
)

const metricsAddrExpected = "expected HOST:PORT this machine can listen on, such as :9100 (every interface) or 127.0.0.1:0 (a free port)"

// serveMetrics starts the --metrics-addr endpoint. An address that cannot
// be listened on is bad input, found before anything runs.
func serveMetrics(addr string, part promsink.Options, env Env) (*promsink.Server, error) {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		var ae *net.AddrError
		if errors.As(err, &ae) {
			err = errors.New(ae.Err)
		}
		return nil, badInputf("--metrics-addr %q: %v: %s", addr, err, metricsAddrExpected)
	}
	srv, err := promsink.Listen(addr, part)
	if err != nil {
		return nil, badInputf("--metrics-addr %s: %v: %s", addr, err, metricsAddrExpected)
	}
	fmt.Fprintf(env.Stderr, "mongobench: serving metrics at %s\n", srv.URL())
	return srv, nil
}

// metricsPart is the part of a distributed run the endpoint labels its
// metrics with: part 0 of 1 when the run is not split.
func metricsPart(cfg *benchConfig) promsink.Options {
	if cfg.plan == nil || cfg.plan.Part.Whole() {
		return promsink.Options{Part: 0, Parts: 1}
	}
	return promsink.Options{Part: cfg.plan.Part.Index, Parts: cfg.plan.Part.Count}
}
