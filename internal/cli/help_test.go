package cli

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/golden"
)

// TestHelpEverywhere: every command answers -h, and help names every
// command, with exit status 0 and the usage on stdout.
func TestHelpEverywhere(t *testing.T) {
	t.Parallel()
	commands := []string{"load", "run", "server", "sweep", "merge", "compare", "history", "report", "calibrate", "version", "help"}
	for _, cmd := range commands {
		for _, args := range [][]string{{cmd, "-h"}, {"help", cmd}, {cmd, "--help"}} {
			r := mongobench(t, args...)
			if r.code != 0 || r.stderr != "" || !strings.Contains(r.stdout, "usage:") {
				t.Errorf("mongobench %s: exit %d, stderr %q, stdout %q", strings.Join(args, " "), r.code, r.stderr, r.stdout)
			}
		}
	}
	r := mongobench(t, "version")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "mongobench ") || strings.Count(r.stdout, "\n") != 1 {
		t.Errorf("mongobench version: exit %d, %q", r.code, r.stdout)
	}
}

// TestHelpGolden pins every command's help; go test -run TestHelpGolden
// -update rewrites it.
func TestHelpGolden(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"load", "run", "sweep", "calibrate", "compare", "history", "report", "server", "merge", "k8s"} {
		r := mongobench(t, "help", cmd)
		if r.code != 0 || r.stderr != "" {
			t.Fatalf("help %s: exit %d, stderr %q", cmd, r.code, r.stderr)
		}
		golden.Check(t, "help_"+cmd+".golden", r.stdout)
	}
}
