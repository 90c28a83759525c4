package bench

import (
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/selfmon"
)

// TestClientReport checks the [CLIENT] lines, the warning and the results
// fields against usages worked out by hand.
func TestClientReport(t *testing.T) {
	t.Parallel()
	twoCPUs := selfmon.Limits{NumCPU: 2, GOMAXPROCS: 2, Allowed: 2}
	oneOfTwo := selfmon.Limits{NumCPU: 2, GOMAXPROCS: 1, Allowed: 1}
	clientCPU := &results.Diagnosis{Verdict: diagnosis.ClientCPU, Limits: []results.Limit{{Kind: diagnosis.ClientCPU,
		Evidence: []string{"the client used 90.0% of the 1 CPUs it may use, threshold 80.0%"}}}}
	hostBusy := &results.Diagnosis{Verdict: diagnosis.HostBusy, Limits: []results.Limit{{Kind: diagnosis.HostBusy,
		Evidence: []string{"the client's host CPUs were 99.6% busy", "other processes used 95.6% of the client's host CPUs"}}}}
	serverCPU := &results.Diagnosis{Verdict: diagnosis.ServerCPU, Limits: []results.Limit{{Kind: diagnosis.ServerCPU, Evidence: []string{"the server's host CPUs were 98.0% busy"}}}}
	target := &results.Diagnosis{Verdict: diagnosis.Target, Limits: []results.Limit{{Kind: diagnosis.Target, Evidence: []string{"the run held its -target of 20 ops/s"}}}}
	none := &results.Diagnosis{Verdict: results.NoLimitFound}
	tests := []struct {
		name    string
		report  ClientReport
		d       *results.Diagnosis
		lines   []string
		warning string // a fragment; "" for none
	}{
		{
			// 3 CPU-s over 10 s on 2 CPUs is 15%; 3 s / 60,000 ops = 50 µs.
			name:   "idle client",
			report: ClientReport{Usage: synthUsage(10*time.Second, 2*time.Second, time.Second, twoCPUs, 50<<20), Operations: 60000},
			d:      none,
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
			// though only 45% of the host; the diagnosis names the client.
			name:   "starved by GOMAXPROCS",
			report: ClientReport{Usage: synthUsage(10*time.Second, 6*time.Second, 3*time.Second, oneOfTwo, 3<<19), Operations: 100000},
			d:      clientCPU,
			lines: []string{
				"[CLIENT], CPUPerOperation(us), 90.0",
				"[CLIENT], AllowedCPUs, 1",
				"[CLIENT], CPUUtilization(%), 90.0",
				"[CLIENT], PeakRSS(MB), 1.5",
				"[CLIENT], ClientBound, true",
			},
			warning: "the run was client-bound and the server figures are understated: the client used 90.0% of the 1 CPUs it may use, threshold 80.0%",
		},
		{
			// 4% of its CPUs used and 84% of the time waiting for one: the
			// diagnosis found others kept the host busy. Not client-bound,
			// and the warning says whose the load was.
			name: "starved by other processes",
			report: ClientReport{Usage: func() selfmon.Usage {
				u := synthUsage(10*time.Second, 600*time.Millisecond, 200*time.Millisecond, twoCPUs, 1<<20)
				u.RunQueueWait, u.Waiting, u.RunQueueWaitAvailable = 16800*time.Millisecond, 0.84, true
				return u
			}(), Operations: 100000},
			d: hostBusy,
			lines: []string{
				"[CLIENT], CPUPerOperation(us), 8.0",
				"[CLIENT], AllowedCPUs, 2",
				"[CLIENT], CPUUtilization(%), 4.0",
				"[CLIENT], WaitingForCPU(%), 84.0",
				"[CLIENT], PeakRSS(MB), 1.0",
				"[CLIENT], ClientBound, false",
			},
			warning: "the host was busy with other processes, so the figures describe a shared machine: the client's host CPUs were 99.6% busy; other processes used 95.6% of the client's host CPUs",
		},
		{
			// A run held by its target says nothing, whatever its figures.
			name:   "held by its target",
			report: ClientReport{Usage: synthUsage(10*time.Second, 6*time.Second, 3*time.Second, oneOfTwo, 0), Operations: 200},
			d:      target,
			lines: []string{
				"[CLIENT], CPUPerOperation(us), 45000.0",
				"[CLIENT], AllowedCPUs, 1",
				"[CLIENT], CPUUtilization(%), 90.0",
				"[CLIENT], ClientBound, false",
			},
		},
		{
			// With the embedded server in the process no client verdict is
			// given, but a saturated machine is still said.
			name:    "embedded server, saturated",
			report:  ClientReport{Usage: synthUsage(10*time.Second, 15*time.Second, 4*time.Second, twoCPUs, 0), Operations: 0, SharesProcess: true},
			d:       serverCPU,
			lines:   []string{"[CLIENT], AllowedCPUs, 2", "[CLIENT], CPUUtilization(%), 95.0", "[CLIENT], IncludesEmbeddedServer, true"},
			warning: "the client and the embedded server together used 95% of the CPUs",
		},
		{
			// A separate server's CPU is no client's warning.
			name:   "server CPU",
			report: ClientReport{Usage: synthUsage(10*time.Second, 2*time.Second, time.Second, twoCPUs, 0), Operations: 0},
			d:      serverCPU,
			lines:  []string{"[CLIENT], AllowedCPUs, 2", "[CLIENT], CPUUtilization(%), 15.0", "[CLIENT], ClientBound, false"},
		},
		{
			name:   "no getrusage",
			report: ClientReport{Usage: selfmon.Usage{Wall: time.Second, Limits: twoCPUs, PeakRSS: 1 << 20}, Operations: 10},
			d:      clientCPU,
			lines:  []string{"[CLIENT], PeakRSS(MB), 1.0"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := strings.Join(tc.report.SummaryLines(tc.d), "\n"); got != strings.Join(tc.lines, "\n") {
				t.Errorf("lines:\n%s\nwant:\n%s", got, strings.Join(tc.lines, "\n"))
			}
			w := tc.report.Warning(tc.d)
			if (tc.warning == "") != (w == "") || !strings.Contains(w, tc.warning) {
				t.Errorf("warning %q, want one containing %q", w, tc.warning)
			}
			sec := tc.report.Section()
			u := tc.report.Usage
			if sec.Bound || sec.IncludesEmbeddedServer != tc.report.SharesProcess ||
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
