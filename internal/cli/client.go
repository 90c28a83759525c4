package cli

import (
	"fmt"
	"strconv"
	"sync/atomic"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/selfmon"
)

// saidOnce holds what one command has said already, however many phases
// it runs (a sweep runs many): it belongs to the command, not the process,
// so that commands run one after another in one process each say it.
type saidOnce struct {
	embeddedSaturation atomic.Bool
}

// clientWarning is the client's warning to print after a phase, or "". A
// saturated embedded server is the machine's limit, the same at every
// point of a sweep: said once per command, not per phase.
func (s *saidOnce) clientWarning(c clientReport) string {
	w := c.warning()
	if w == "" || (c.sharesProcess && s.embeddedSaturation.Swap(true)) {
		return ""
	}
	return w
}

// clientReport is what the client's self-monitoring says of one phase.
type clientReport struct {
	usage      selfmon.Usage
	operations int64
	// sharesProcess is true when the embedded server ran inside the
	// client's process: the CPU figures are then the two together, and
	// whether the client alone was the bottleneck cannot be told.
	sharesProcess bool
}

// bound reports whether the client was the bottleneck of the run. Only a
// client alone in its process can be judged.
func (c clientReport) bound() bool {
	return !c.sharesProcess && c.usage.CPUTimeAvailable && c.usage.ClientBound()
}

// summaryLines are the [CLIENT] lines of the text summary. The process's
// CPU seconds and share of the host are [HOST]'s already; these say what
// they mean for the run: the cost per operation, the share of the CPUs the
// client may use (GOMAXPROCS and a cgroup quota included), and the verdict.
func (c clientReport) summaryLines() []string {
	u := c.usage
	var lines []string
	add := func(name, value string) { lines = append(lines, "[CLIENT], "+name+", "+value) }
	if u.CPUTimeAvailable {
		if c.operations > 0 {
			add("CPUPerOperation(us)", strconv.FormatFloat(float64(u.CPUPerOp(c.operations))/1e3, 'f', 1, 64))
		}
		add("AllowedCPUs", strconv.FormatFloat(u.Limits.Allowed, 'f', -1, 64))
		add("CPUUtilization(%)", strconv.FormatFloat(100*u.Utilization, 'f', 1, 64))
	}
	if u.RunQueueWaitAvailable {
		add("WaitingForCPU(%)", strconv.FormatFloat(100*u.Waiting, 'f', 1, 64))
	}
	if u.PeakRSS > 0 {
		add("PeakRSS(MB)", strconv.FormatFloat(float64(u.PeakRSS)/(1<<20), 'f', 1, 64))
	}
	if c.sharesProcess {
		add("IncludesEmbeddedServer", "true")
	} else if u.CPUTimeAvailable {
		add("ClientBound", strconv.FormatBool(c.bound()))
	}
	return lines
}

// warning is the stderr sentence for a client-bound run, or "".
func (c clientReport) warning() string {
	if c.bound() {
		return c.usage.Warning()
	}
	if c.sharesProcess && c.usage.CPUTimeAvailable && c.usage.ClientBound() {
		return fmt.Sprintf("the client and the embedded server together used %.0f%% of the CPUs this process may use: the figures measure this machine's CPU, not the server; give a mongodb.url to benchmark a server of its own",
			100*c.usage.Utilization)
	}
	return ""
}

// section is the results file's figures of the client: selfmon's, the CPU
// per operation, and the verdict.
func (c clientReport) section() *results.Client {
	u := c.usage
	sec := &results.Client{
		CPUUserS:               u.User.Seconds(),
		CPUSystemS:             u.System.Seconds(),
		WallS:                  u.Wall.Seconds(),
		Utilization:            u.Utilization,
		RunQueueWaitS:          u.RunQueueWait.Seconds(),
		Waiting:                u.Waiting,
		Bound:                  c.bound(),
		AllowedCPUs:            u.Limits.Allowed,
		GOMAXPROCS:             u.Limits.GOMAXPROCS,
		CgroupCPUs:             u.Limits.CgroupCPUs,
		HostCPUs:               u.Limits.NumCPU,
		RSSBytes:               u.RSS,
		PeakRSSBytes:           u.PeakRSS,
		MaxRSSBytes:            u.MaxRSS,
		IncludesEmbeddedServer: c.sharesProcess,
	}
	if c.operations > 0 && u.CPUTimeAvailable {
		perOp := float64(u.CPUPerOp(c.operations)) / 1e3
		sec.CPUPerOpUs = &perOp
	}
	return sec
}
