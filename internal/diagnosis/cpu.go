package diagnosis

import (
	"fmt"

	"github.com/mongobench/mongobench/internal/results"
)

// cpu judges the CPUs: the client's own use of those it may use, then the
// host's, and names whose work kept them busy. The host's CPU time is
// split into mongobench's own process (the client, and the embedded server
// when there is one), a local server's own process when its CPU time could
// be read, and the rest: other processes'. A local server whose process
// could not be read is not told apart from the others, and the evidence
// says so. docs/explanation/diagnosis.md states the rules.
func (j *judge) cpu() bool {
	f := j.f
	c := f.client
	if c != nil && c.WallS <= 0 {
		c = nil
	}
	embedded := c != nil && c.IncludesEmbeddedServer
	judged := c != nil
	if c != nil && !embedded {
		j.add(ClientCPU, level(c.Utilization, ClientCPUShare, ClientCPUBorderlineShare), c.Utilization/ClientCPUShare, fmt.Sprintf(
			"the client used %s of the %s CPUs it may use, threshold %s",
			pct(100*c.Utilization), num(c.AllowedCPUs, -1), pct(100*ClientCPUShare)))
	}

	hostOK := f.cpu.user.ok()
	if !hostOK && (f.hostSamples > 0 || f.serverSeen) {
		j.d.CannotJudge = append(j.d.CannotJudge, "host CPU: the host's CPU times could not be read")
	}
	if hostOK && !f.serverLocal {
		j.d.CannotJudge = append(j.d.CannotJudge,
			"server CPU and disk: the server is on another host and only its serverStatus is read; watch its host (top, iostat) or run mongobench there")
	}
	judged = judged || hostOK

	// Saturation: the CPUs busy, or mongobench's threads waiting for one
	// (CPUs that idle while threads wait are out of reach all the same).
	var lvl int
	var severity, busy float64
	var evidence []string
	if hostOK {
		busy = f.cpu.user.v() + f.cpu.system.v() + f.cpu.steal.v()
		lvl, severity = level(busy, HostCPUBusyPct, HostCPUBorderlineBusyPct), busy/HostCPUBusyPct
		whose := "the server's host CPUs"
		if !f.serverLocal {
			whose = "the client's host CPUs"
		}
		evidence = append(evidence, fmt.Sprintf("%s were %s busy (user %s, system %s, steal %s; iowait %s and idle %s), threshold %s",
			whose, pct(busy), pct(f.cpu.user.v()), pct(f.cpu.system.v()), pct(f.cpu.steal.v()), pct(f.cpu.iowait.v()), pct(f.cpu.idle.v()), pct(HostCPUBusyPct)))
	}
	if c != nil {
		if wl := level(c.Waiting, RunQueueWaitShare, RunQueueWaitBorderlineShare); wl > 0 {
			lvl, severity = max(lvl, wl), max(severity, c.Waiting/RunQueueWaitShare)
			if !embedded {
				evidence = append(evidence, fmt.Sprintf("the client's threads waited for a CPU %s of the time, threshold %s: more work was ready than the CPUs could run",
					pct(100*c.Waiting), pct(100*RunQueueWaitShare)))
			}
		}
	}
	if lvl == 0 {
		return judged
	}
	if f.cpu.steal.v() >= 10 {
		evidence = append(evidence, fmt.Sprintf("the hypervisor took %s of the CPU time (steal): the machine gets less CPU than it shows", pct(f.cpu.steal.v())))
	}

	kind, whose := j.whose(c, embedded, hostOK, busy)
	j.add(kind, lvl, severity, append(evidence, whose...)...)
	return true
}

// whose names whose work kept the CPUs busy: mongobench's own process
// (the client, with the embedded server when there is one), a local
// server's own process, or other processes; it returns the verdict's kind
// and the evidence that decided it.
func (j *judge) whose(c *results.Client, embedded, hostOK bool, busy float64) (string, []string) {
	f := j.f
	var evidence []string
	own, ownOK := f.cpu.process.v(), f.cpu.process.ok()
	if !ownOK && c != nil && c.HostCPUs > 0 {
		own, ownOK = 100*c.Utilization*c.AllowedCPUs/float64(c.HostCPUs), true
	}
	var others, othersShare float64
	split := hostOK && ownOK && busy > 0
	if split {
		others = max(busy-own, 0)
		othersShare = others / busy
	}
	kind := ServerCPU
	switch {
	case embedded:
		// One process holds the client and the server: the rest of the
		// busy time is other processes'.
		evidence = append(evidence, fmt.Sprintf(
			"the client and the embedded server, one process, used %s of the %s CPUs it may use and waited for a CPU %s of the time (threshold %s)",
			pct(100*c.Utilization), num(c.AllowedCPUs, -1), pct(100*c.Waiting), pct(100*RunQueueWaitShare)))
		switch {
		case split && othersShare >= OthersShare:
			kind = HostBusy
			evidence = append(evidence, fmt.Sprintf(
				"other processes used %s of the CPUs, %s of their busy time (threshold %s), against %s for mongobench's process, client and server together: most of the load was not the server's",
				pct(others), pct(100*othersShare), pct(100*OthersShare), pct(own)))
		case split && othersShare >= OthersNoteShare:
			evidence = append(evidence, fmt.Sprintf("other processes used %s of the CPUs, %s of their busy time: the machine is shared, and alone it would have gone faster",
				pct(others), pct(100*othersShare)))
		}
	case !f.serverLocal:
		// The host figures are the client's machine.
		kind = ClientCPU
		if split {
			evidence = append(evidence, fmt.Sprintf("of that, the client's own process used %s", pct(own)))
			if othersShare >= OthersShare {
				kind = HostBusy
				evidence = append(evidence, fmt.Sprintf("other processes used %s of the client's host CPUs, %s of their busy time (threshold %s): most of the load was not the client's",
					pct(others), pct(100*othersShare), pct(100*OthersShare)))
			}
		}
	default:
		// A local server in a process of its own.
		if !split {
			break
		}
		evidence = append(evidence, fmt.Sprintf("of that, the client's own process used %s", pct(own)))
		if !f.cpu.server.ok() {
			// Its share and other processes' cannot be told apart.
			if othersShare < 1-OthersShare {
				kind = ClientCPU
				evidence = append(evidence, fmt.Sprintf("the client took most of the CPUs it shares with the server: %s of their busy time", pct(100*(1-othersShare))))
			} else {
				evidence = append(evidence, fmt.Sprintf("the server's own CPU time is not reported: the other %s is the server's and any other processes' together", pct(others)))
			}
			break
		}
		server := f.cpu.server.v()
		others = max(busy-own-server, 0)
		othersShare = others / busy
		evidence = append(evidence, fmt.Sprintf("the server's own process used %s", pct(server)))
		switch {
		case othersShare >= OthersShare:
			kind = HostBusy
			evidence = append(evidence, fmt.Sprintf("other processes used %s of the CPUs, %s of their busy time (threshold %s), against %s for the client and %s for the server: most of the load was neither's",
				pct(others), pct(100*othersShare), pct(100*OthersShare), pct(own), pct(server)))
		case own > server:
			kind = ClientCPU
			evidence = append(evidence, fmt.Sprintf("the client took more of the CPUs it shares with the server than the server did: %s against %s", pct(own), pct(server)))
		case othersShare >= OthersNoteShare:
			evidence = append(evidence, fmt.Sprintf("other processes used %s of the CPUs, %s of their busy time: the machine is shared", pct(others), pct(100*othersShare)))
		}
	}
	return kind, evidence
}
