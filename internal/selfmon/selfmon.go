// Package selfmon watches the benchmark client itself: the CPU time its
// process used, what share of the CPUs it may use that was, how long its
// threads waited for a CPU, and its memory. A client that keeps nearly all
// of its CPUs busy is the bottleneck of the run, and the server figures it
// reports are then understated: that is how a YCSB client sharing a 4-core
// host with mongod misled the first round of a published comparison. The
// figures are measured here; whether the client limited the run is judged
// by the diagnosis package, which weighs them with the host's CPUs (a
// client that waits for CPUs other processes keep busy is not the limit).
package selfmon

import (
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Limits are the CPUs the process may use.
type Limits struct {
	// NumCPU is runtime.NumCPU: the CPUs of the host that the process's
	// affinity mask allows, as seen at start-up.
	NumCPU int
	// GOMAXPROCS is how many threads may run Go code at once.
	GOMAXPROCS int
	// CgroupCPUs is the cgroup CPU quota in CPUs (cpu.max, or cfs_quota_us
	// over cfs_period_us in cgroup v1); 0 when no quota is set or none could
	// be read.
	CgroupCPUs float64
	// Allowed is the least of the three: the CPU time per wall second the
	// process can get at most.
	Allowed float64
}

// ReadLimits returns the CPUs this process may use now.
func ReadLimits() Limits {
	l := Limits{NumCPU: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0)}
	if q, ok := cgroupCPULimit(os.DirFS("/")); ok {
		l.CgroupCPUs = q
	}
	l.Allowed = allowedCPUs(l.NumCPU, l.GOMAXPROCS, l.CgroupCPUs)
	return l
}

func allowedCPUs(numCPU, gomaxprocs int, cgroup float64) float64 {
	a := float64(max(numCPU, 1))
	if gomaxprocs > 0 {
		a = min(a, float64(gomaxprocs))
	}
	if cgroup > 0 {
		a = min(a, cgroup)
	}
	return a
}

// Usage is what the process used between Start and Stop.
type Usage struct {
	Wall   time.Duration
	User   time.Duration // user CPU time of the whole process (getrusage RUSAGE_SELF)
	System time.Duration // system CPU time of the whole process
	Limits Limits
	// Utilization is CPU ÷ (Wall × Limits.Allowed): 1 means every CPU the
	// process may use was busy with it for the whole time.
	Utilization float64
	// RunQueueWait is how long the process's threads were ready to run
	// but waited for a CPU, summed over threads (Linux schedstat), and
	// Waiting that time ÷ (Wall × Limits.Allowed). A client whose CPUs
	// another process (the server, on a shared host) keeps busy waits
	// instead of running: it is CPU-starved all the same, and its latencies
	// include the wait.
	RunQueueWait          time.Duration
	Waiting               float64
	RunQueueWaitAvailable bool
	// RSS is the resident set size at Stop, from /proc/self/statm; 0 where
	// that file does not exist.
	RSS int64
	// PeakRSS is the largest resident set size seen between Start and Stop:
	// the samples of StartSampling, and the readings at Start and Stop.
	PeakRSS int64
	// MaxRSS is getrusage's ru_maxrss in bytes: the high-water mark of the
	// process's whole life so far, not of this probe alone.
	MaxRSS int64
	// CPUTimeAvailable is false where getrusage is not available; the CPU
	// figures are then zero.
	CPUTimeAvailable bool
}

// CPU returns the user plus system CPU time.
func (u Usage) CPU() time.Duration { return u.User + u.System }

// CPUPerOp returns the CPU time per operation; 0 when ops is not positive.
func (u Usage) CPUPerOp(ops int64) time.Duration {
	if ops <= 0 {
		return 0
	}
	return u.CPU() / time.Duration(ops)
}

// utilization is cpu ÷ (wall × allowed), 0 when either is not positive.
func utilization(cpu, wall time.Duration, allowed float64) float64 {
	if wall <= 0 || allowed <= 0 {
		return 0
	}
	return cpu.Seconds() / (wall.Seconds() * allowed)
}

// sources are where a probe reads the time, its CPU time and its wait for
// a CPU: the system's, or a test's.
type sources struct {
	now  func() time.Time
	cpu  func() cpuTimes
	wait func() (time.Duration, bool)
}

var system = sources{now: time.Now, cpu: readCPUTimes, wait: runQueueWait}

// Probe measures the process from Start to Stop.
type Probe struct {
	src      sources
	start    time.Time
	cpu0     cpuTimes
	wait0    time.Duration
	waitOK   bool
	limits   Limits
	peakRSS  atomic.Int64
	stopOnce sync.Once
	stopReq  chan struct{}
	done     chan struct{}
	usage    Usage
}

// Start starts measuring now. It costs two system calls and a few small
// file reads; nothing runs until Stop.
func Start() *Probe { return startWith(system) }

func startWith(src sources) *Probe {
	p := &Probe{src: src, limits: ReadLimits()}
	p.notePeak(currentRSS())
	p.cpu0 = src.cpu()
	p.wait0, p.waitOK = src.wait()
	p.start = src.now()
	return p
}

// StartSampling starts measuring now and also reads the resident set size
// every period until Stop, so that PeakRSS covers the whole span rather
// than its two ends. One small file read per period.
func StartSampling(period time.Duration) *Probe {
	p := Start()
	if period <= 0 {
		return p
	}
	p.stopReq = make(chan struct{})
	p.done = make(chan struct{})
	go func() {
		defer close(p.done)
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-p.stopReq:
				return
			case <-t.C:
				p.notePeak(currentRSS())
			}
		}
	}()
	return p
}

func (p *Probe) notePeak(rss int64) {
	for {
		old := p.peakRSS.Load()
		if rss <= old || p.peakRSS.CompareAndSwap(old, rss) {
			return
		}
	}
}

// Stop ends the measurement and returns the usage. Later calls return the
// same usage.
func (p *Probe) Stop() Usage {
	p.stopOnce.Do(func() {
		wall := p.src.now().Sub(p.start)
		cpu1 := p.src.cpu()
		wait1, waitOK := p.src.wait()
		if p.stopReq != nil {
			close(p.stopReq)
			<-p.done
		}
		rss := currentRSS()
		p.notePeak(rss)
		u := Usage{
			Wall:             wall,
			User:             max(cpu1.user-p.cpu0.user, 0),
			System:           max(cpu1.system-p.cpu0.system, 0),
			Limits:           p.limits,
			RSS:              rss,
			PeakRSS:          p.peakRSS.Load(),
			MaxRSS:           cpu1.maxRSS,
			CPUTimeAvailable: cpu1.ok,
		}
		u.Utilization = utilization(u.CPU(), wall, p.limits.Allowed)
		if p.waitOK && waitOK {
			u.RunQueueWait = max(wait1-p.wait0, 0)
			u.Waiting = utilization(u.RunQueueWait, wall, p.limits.Allowed)
			u.RunQueueWaitAvailable = true
		}
		p.usage = u
	})
	return p.usage
}

// cpuTimes is one getrusage reading.
type cpuTimes struct {
	user, system time.Duration
	maxRSS       int64 // bytes
	ok           bool
}
