package bench

import (
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/selfmon"
)

// TestClientReport checks the [CLIENT] lines, the warning and the results
// fields against usages worked out by hand.
func TestClientReport(t *testing.T) {
	t.Parallel()
	twoCPUs := selfmon.Limits{NumCPU: 2, GOMAXPROCS: 2, Allowed: 2}
	oneOfTwo := selfmon.Limits{NumCPU: 2, GOMAXPROCS: 1, Allowed: 1}
	tests := []struct {
		name    string
		report  ClientReport
		lines   []string
		warning string // a fragment; "" for none
		bound   bool
	}{
		{
			// 3 CPU-s over 10 s on 2 CPUs is 15%; 3 s / 60,000 ops = 50 µs.
			name:   "idle client",
			report: ClientReport{Usage: synthUsage(10*time.Second, 2*time.Second, time.Second, twoCPUs, 50<<20), Operations: 60000},
			lines: []string{
				"[CLIENT], CPUPerOperation(us), 50.0",
				"[CLIENT], AllowedCPUs, 2",
				"[CLIENT], CPUUtilization(%), 15.0",
				"[CLIENT], PeakRSS(MB), 50.0",
				"[CLIENT], ClientBound, false",
			},
		},
		{
			// 9 CPU-s over 10 s with GOMAXPROCS=1: 90% of what it may use,
			// though only 45% of the host.
			name:   "starved by GOMAXPROCS",
			report: ClientReport{Usage: synthUsage(10*time.Second, 6*time.Second, 3*time.Second, oneOfTwo, 3<<19), Operations: 100000},
			lines: []string{
				"[CLIENT], CPUPerOperation(us), 90.0",
				"[CLIENT], AllowedCPUs, 1",
				"[CLIENT], CPUUtilization(%), 90.0",
				"[CLIENT], PeakRSS(MB), 1.5",
				"[CLIENT], ClientBound, true",
			},
			warning: "the client used 90% of the 1 CPUs it may use (0.90 CPU-seconds per second): the run was client-bound",
			bound:   true,
		},
		{
			// 6 CPU-s over 10 s on 1 CPU is 60%, and 3 s more of waiting
			// for a CPU is 30%: 90% of what it may use wanted by the client.
			name: "starved by another process",
			report: ClientReport{Usage: func() selfmon.Usage {
				u := synthUsage(10*time.Second, 5*time.Second, time.Second, oneOfTwo, 1<<20)
				u.RunQueueWait, u.Waiting, u.RunQueueWaitAvailable = 3*time.Second, 0.3, true
				return u
			}(), Operations: 100000},
			lines: []string{
				"[CLIENT], CPUPerOperation(us), 60.0",
				"[CLIENT], AllowedCPUs, 1",
				"[CLIENT], CPUUtilization(%), 60.0",
				"[CLIENT], WaitingForCPU(%), 30.0",
				"[CLIENT], PeakRSS(MB), 1.0",
				"[CLIENT], ClientBound, true",
			},
			warning: "the client used 60% of the 1 CPUs it may use (0.60 CPU-seconds per second) and waited for a CPU another 30% of the time: the run was client-bound",
			bound:   true,
		},
		{
			// With the embedded server in the process no verdict is given,
			// but a saturated process is still said.
			name:    "embedded server, saturated",
			report:  ClientReport{Usage: synthUsage(10*time.Second, 15*time.Second, 4*time.Second, twoCPUs, 0), Operations: 0, SharesProcess: true},
			lines:   []string{"[CLIENT], AllowedCPUs, 2", "[CLIENT], CPUUtilization(%), 95.0", "[CLIENT], IncludesEmbeddedServer, true"},
			warning: "the client and the embedded server together used 95% of the CPUs",
			bound:   false,
		},
		{
			name:   "no getrusage",
			report: ClientReport{Usage: selfmon.Usage{Wall: time.Second, Limits: twoCPUs, PeakRSS: 1 << 20}, Operations: 10},
			lines:  []string{"[CLIENT], PeakRSS(MB), 1.0"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := strings.Join(tc.report.SummaryLines(), "\n"); got != strings.Join(tc.lines, "\n") {
				t.Errorf("lines:\n%s\nwant:\n%s", got, strings.Join(tc.lines, "\n"))
			}
			w := tc.report.Warning()
			if (tc.warning == "") != (w == "") || !strings.Contains(w, tc.warning) {
				t.Errorf("warning %q, want one containing %q", w, tc.warning)
			}
			sec := tc.report.Section()
			u := tc.report.Usage
			if sec.Bound != tc.bound || sec.IncludesEmbeddedServer != tc.report.SharesProcess ||
				sec.AllowedCPUs != u.Limits.Allowed || sec.HostCPUs != u.Limits.NumCPU || sec.PeakRSSBytes != u.PeakRSS {
				t.Errorf("results section %+v, usage %+v", sec, u)
			}
			if wantPerOp := tc.report.Operations > 0 && u.CPUTimeAvailable; (sec.CPUPerOpUs != nil) != wantPerOp {
				t.Errorf("client_cpu_per_op_us %v, want one: %v", sec.CPUPerOpUs, wantPerOp)
			}
		})
	}
}

func synthUsage(wall, user, sys time.Duration, l selfmon.Limits, peak int64) selfmon.Usage {
	u := selfmon.Usage{Wall: wall, User: user, System: sys, Limits: l, PeakRSS: peak, CPUTimeAvailable: true}
	u.Utilization = (user + sys).Seconds() / (wall.Seconds() * l.Allowed)
	return u
}
