package bench

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/diagnosis"

	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/selfmon"
)

// ClientReport is what the client's self-monitoring says of one phase:
// figures only. Whether the client limited the run is the diagnosis's
// verdict (internal/diagnosis), which weighs them with the host's CPUs;
// the lines and warning here take that verdict, so that no output can
// say otherwise.
type ClientReport struct {
	Usage      selfmon.Usage
	Operations int64
	// SharesProcess is true when the embedded server ran inside the
	// client's process: the CPU figures are then the two together.
	SharesProcess bool
}

// Bound reports whether the diagnosis d found the client to be the
// limit of the run. Only a client alone in its process can be.
func (c ClientReport) Bound(d *results.Diagnosis) bool {
	return !c.SharesProcess && c.Usage.CPUTimeAvailable && diagnosis.ClientBound(d)
}

// SummaryLines are the [CLIENT] lines of the text summary. The process's
// CPU seconds and share of the host are [HOST]'s already; these say what
// they mean for the run: the cost per operation, the share of the CPUs the
// client may use (GOMAXPROCS and a cgroup quota included), and whether the
// run's diagnosis d found it client-bound.
func (c ClientReport) SummaryLines(d *results.Diagnosis) []string {
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
		add("ClientBound", strconv.FormatBool(c.Bound(d)))
	}
	return lines
}

// Warning is the stderr sentence for a run whose diagnosis d says its
// figures describe something other than the server: the client's CPU,
// a host busy with other processes, or the machine the embedded server
// shares with the client; "" otherwise.
func (c ClientReport) Warning(d *results.Diagnosis) string {
	if d == nil || len(d.Limits) == 0 || d.Limits[0].Borderline {
		return ""
	}
	switch l := d.Limits[0]; l.Kind {
	case diagnosis.ClientCPU:
		if c.Bound(d) {
			return "the run was client-bound and the server figures are understated: " + strings.Join(l.Evidence, "; ")
		}
	case diagnosis.HostBusy:
		return "the host was busy with other processes, so the figures describe a shared machine: " + strings.Join(l.Evidence, "; ")
	case diagnosis.ServerCPU:
		if c.SharesProcess && c.Usage.CPUTimeAvailable {
			return fmt.Sprintf("the client and the embedded server together used %.0f%% of the CPUs this process may use: the figures measure this machine's CPU, not the server; give a mongodb.url to benchmark a server of its own",
				100*c.Usage.Utilization)
		}
	}
	return ""
}

// MachineSaturated is whether the warning for d is the embedded server's
// saturated machine, which is the same at every point of a sweep.
func (c ClientReport) MachineSaturated(d *results.Diagnosis) bool {
	return c.SharesProcess && diagnosis.Leading(d) == diagnosis.ServerCPU && c.Warning(d) != ""
}

// Section is the results file's figures of the client: selfmon's and the
// CPU per operation. Bound is left for Outcome.Results to set from the
// diagnosis, which these figures are an input to.
func (c ClientReport) Section() *results.Client {
	u := c.Usage
	sec := &results.Client{
		CPUUserS:               u.User.Seconds(),
		CPUSystemS:             u.System.Seconds(),
		WallS:                  u.Wall.Seconds(),
		Utilization:            u.Utilization,
		RunQueueWaitS:          u.RunQueueWait.Seconds(),
		Waiting:                u.Waiting,
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
