package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestProgressOnTerminal runs with stderr taken for a terminal: the live
// display replaces the status lines and ends on the full count.
func TestProgressOnTerminal(t *testing.T) {
	t.Parallel()
	url := freshURL(t)
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"load", "mongodb", "-s", "-P", "workloada", "-p", "mongodb.url=" + url,
		"-p", "recordcount=300", "-p", "status.interval=1"}, Env{Stdout: &out, Stderr: &errb, StderrIsTerminal: true, Getenv: testEnv})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "load: 300/300 records") || !strings.Contains(errb.String(), "100%") {
		t.Errorf("the progress display does not end at 300/300:\n%q", errb.String())
	}
	if strings.Contains(errb.String(), " current ops/sec") {
		t.Errorf("status lines printed beside the progress display:\n%s", errb.String())
	}
}
