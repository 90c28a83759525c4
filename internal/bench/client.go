package bench

import (
	"fmt"
	"strconv"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/selfmon"
)

// ClientReport is what the client's self-monitoring says of one phase.
type ClientReport struct {
	Usage      selfmon.Usage
	Operations int64
	// SharesProcess is true when the embedded server ran inside the
	// client's process: the CPU figures are then the two together, and
	// whether the client alone was the bottleneck cannot be told.
	SharesProcess bool
}

// Bound reports whether the client was the bottleneck of the run. Only a
// client alone in its process can be judged.
func (c ClientReport) Bound() bool {
	return !c.SharesProcess && c.Usage.CPUTimeAvailable && c.Usage.ClientBound()
}

// SummaryLines are the [CLIENT] lines of the text summary. The process's
// CPU seconds and share of the host are [HOST]'s already; these say what
// they mean for the run: the cost per operation, the share of the CPUs the
// client may use (GOMAXPROCS and a cgroup quota included), and the verdict.
func (c ClientReport) SummaryLines() []string {
	u := c.Usage
	var lines []string
	add := func(name, value string) { lines = append(lines, "[CLIENT], "+name+", "+value) }
	if u.CPUTimeAvailable {
		if c.Operations > 0 {
			add("CPUPerOperation(us)", strconv.FormatFloat(float64(u.CPUPerOp(c.Operations))/1e3, 'f', 1, 64))
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
	if c.SharesProcess {
		add("IncludesEmbeddedServer", "true")
	} else if u.CPUTimeAvailable {
		add("ClientBound", strconv.FormatBool(c.Bound()))
	}
	return lines
}

// Warning is the stderr sentence for a client-bound run, or "".
func (c ClientReport) Warning() string {
	if c.Bound() {
		return c.Usage.Warning()
	}
	if c.SharesProcess && c.Usage.CPUTimeAvailable && c.Usage.ClientBound() {
		return fmt.Sprintf("the client and the embedded server together used %.0f%% of the CPUs this process may use: the figures measure this machine's CPU, not the server; give a mongodb.url to benchmark a server of its own",
			100*c.Usage.Utilization)
	}
	return ""
}

// Section is the results file's figures of the client: selfmon's, the CPU
// per operation, and the verdict.
func (c ClientReport) Section() *results.Client {
	u := c.Usage
	sec := &results.Client{
		CPUUserS:               u.User.Seconds(),
		CPUSystemS:             u.System.Seconds(),
		WallS:                  u.Wall.Seconds(),
		Utilization:            u.Utilization,
		RunQueueWaitS:          u.RunQueueWait.Seconds(),
		Waiting:                u.Waiting,
		Bound:                  c.Bound(),
		AllowedCPUs:            u.Limits.Allowed,
		GOMAXPROCS:             u.Limits.GOMAXPROCS,
		CgroupCPUs:             u.Limits.CgroupCPUs,
		HostCPUs:               u.Limits.NumCPU,
		RSSBytes:               u.RSS,
		PeakRSSBytes:           u.PeakRSS,
		MaxRSSBytes:            u.MaxRSS,
		IncludesEmbeddedServer: c.SharesProcess,
	}
	if c.Operations > 0 && u.CPUTimeAvailable {
		perOp := float64(u.CPUPerOp(c.Operations)) / 1e3
		sec.CPUPerOpUs = &perOp
	}
	return sec
}
