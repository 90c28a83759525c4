package selfmon

import (
	"hash/fnv"
	"math"
	"os"
	"runtime"
	"sync"
	"testing"
	"testing/fstest"
	"time"
)

func TestUtilization(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		cpu     time.Duration
		wall    time.Duration
		allowed float64
		want    float64
	}{
		// One CPU busy for the whole time on a 2-CPU allowance.
		{"half", time.Second, time.Second, 2, 0.5},
		// Both CPUs busy.
		{"full", 4 * time.Second, 2 * time.Second, 2, 1},
		// A fractional cgroup quota.
		{"quota", 750 * time.Millisecond, time.Second, 1.5, 0.5},
		// No wall time yet: nothing to divide by.
		{"no wall", time.Second, 0, 2, 0},
		// No allowance known.
		{"no allowance", time.Second, time.Second, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := utilization(c.cpu, c.wall, c.allowed); math.Abs(got-c.want) > 1e-12 {
				t.Errorf("utilization(%v, %v, %g) = %g, want %g", c.cpu, c.wall, c.allowed, got, c.want)
			}
		})
	}
}

func TestAllowedCPUs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		numCPU     int
		gomaxprocs int
		cgroup     float64
		want       float64
	}{
		{"host only", 8, 8, 0, 8},
		// GOMAXPROCS=2 on an 8-CPU host.
		{"gomaxprocs", 8, 2, 0, 2},
		// GOMAXPROCS above the CPUs cannot add CPUs.
		{"gomaxprocs above host", 2, 16, 0, 2},
		// A container with 1.5 CPUs of quota.
		{"cgroup", 8, 8, 1.5, 1.5},
		// A quota larger than the host does not add CPUs either.
		{"cgroup above host", 4, 4, 16, 4},
		// Unknown CPU count still yields one CPU.
		{"nothing known", 0, 0, 0, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := allowedCPUs(c.numCPU, c.gomaxprocs, c.cgroup); got != c.want {
				t.Errorf("allowedCPUs(%d, %d, %g) = %g, want %g", c.numCPU, c.gomaxprocs, c.cgroup, got, c.want)
			}
		})
	}
}

func TestUsageFigures(t *testing.T) {
	t.Parallel()
	limits := Limits{NumCPU: 4, GOMAXPROCS: 4, CgroupCPUs: 2, Allowed: 2}
	cases := []struct {
		name      string
		user, sys time.Duration
		wall      time.Duration
		ops       int64
		util      float64
		perOp     time.Duration
	}{
		// 1.6 CPU-s in a second of the 2 CPUs the cgroup allows.
		{"most of its CPUs", 1200 * time.Millisecond, 400 * time.Millisecond, time.Second, 1000, 0.8, 1600 * time.Microsecond},
		{"nearly all", 1500 * time.Millisecond, 300 * time.Millisecond, time.Second, 100_000, 0.9, 18 * time.Microsecond},
		{"idle", 10 * time.Millisecond, 0, time.Second, 0, 0.005, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			u := Usage{Wall: c.wall, User: c.user, System: c.sys, Limits: limits, CPUTimeAvailable: true}
			u.Utilization = utilization(u.CPU(), u.Wall, limits.Allowed)
			if math.Abs(u.Utilization-c.util) > 1e-9 {
				t.Errorf("Utilization = %g, want %g", u.Utilization, c.util)
			}
			if got := u.CPUPerOp(c.ops); got != c.perOp {
				t.Errorf("CPUPerOp(%d) = %v, want %v", c.ops, got, c.perOp)
			}
		})
	}
}

func TestParseCPUMax(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in      string
		cpus    float64
		limited bool
		wantErr bool
	}{
		{"max 100000\n", 0, false, false},
		{"max", 0, false, false},
		{"200000 100000\n", 2, true, false},
		{"150000 100000", 1.5, true, false},
		// MAX alone keeps the default period of 100 ms.
		{"50000", 0.5, true, false},
		{"", 0, false, true},
		{"max 0", 0, false, true},
		{"abc 100000", 0, false, true},
		{"0 100000", 0, false, true},
		{"1 2 3", 0, false, true},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			t.Parallel()
			cpus, limited, err := ParseCPUMax(c.in)
			if (err != nil) != c.wantErr || cpus != c.cpus || limited != c.limited {
				t.Errorf("ParseCPUMax(%q) = %g, %v, %v; want %g, %v, error %v", c.in, cpus, limited, err, c.cpus, c.limited, c.wantErr)
			}
		})
	}
}

func TestParseCFSQuota(t *testing.T) {
	t.Parallel()
	cases := []struct {
		quota, period string
		cpus          float64
		limited       bool
		wantErr       bool
	}{
		{"-1\n", "100000\n", 0, false, false},
		{"300000\n", "100000\n", 3, true, false},
		{"25000", "50000", 0.5, true, false},
		{"x", "100000", 0, false, true},
		{"100000", "0", 0, false, true},
		{"0", "100000", 0, false, true},
	}
	for _, c := range cases {
		t.Run(c.quota+"/"+c.period, func(t *testing.T) {
			t.Parallel()
			cpus, limited, err := ParseCFSQuota(c.quota, c.period)
			if (err != nil) != c.wantErr || cpus != c.cpus || limited != c.limited {
				t.Errorf("ParseCFSQuota(%q, %q) = %g, %v, %v; want %g, %v, error %v", c.quota, c.period, cpus, limited, err, c.cpus, c.limited, c.wantErr)
			}
		})
	}
}

func FuzzParseCPUMax(f *testing.F) {
	for _, s := range []string{"max 100000", "200000 100000", "50000", "", "max", "-5 10", "9223372036854775807 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cpus, limited, err := ParseCPUMax(s)
		if err != nil && (limited || cpus != 0) {
			t.Fatalf("ParseCPUMax(%q) = %g, %v with error %v", s, cpus, limited, err)
		}
		if limited && (cpus <= 0 || math.IsInf(cpus, 0) || math.IsNaN(cpus)) {
			t.Fatalf("ParseCPUMax(%q) = %g CPUs, limited", s, cpus)
		}
	})
}

func TestCgroupCPULimit(t *testing.T) {
	t.Parallel()
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	cases := []struct {
		name  string
		fs    fstest.MapFS
		cpus  float64
		found bool
	}{
		{"no proc", fstest.MapFS{}, 0, false},
		{"v2 no quota", fstest.MapFS{
			"proc/self/cgroup":                 file("0::/user.slice/session-1.scope\n"),
			"sys/fs/cgroup/user.slice/cpu.max": file("max 100000\n"),
		}, 0, false},
		// The parent's quota is lower than the child's: it wins.
		{"v2 nested", fstest.MapFS{
			"proc/self/cgroup":                       file("0::/kubepods/pod1/c1\n"),
			"sys/fs/cgroup/kubepods/pod1/c1/cpu.max": file("400000 100000\n"),
			"sys/fs/cgroup/kubepods/pod1/cpu.max":    file("150000 100000\n"),
			"sys/fs/cgroup/kubepods/cpu.max":         file("max 100000\n"),
		}, 1.5, true},
		// A cgroup namespace: the process sees "/" and its quota at the root.
		{"v2 namespace", fstest.MapFS{
			"proc/self/cgroup":      file("0::/\n"),
			"sys/fs/cgroup/cpu.max": file("200000 100000\n"),
		}, 2, true},
		// A container without a cgroup namespace: its path is not under the
		// mount, whose root is the container's own cgroup.
		{"v1 container", fstest.MapFS{
			"proc/self/cgroup":                            file("12:pids:/docker/abc\n4:cpu,cpuacct:/docker/abc\n1:name=systemd:/docker/abc\n"),
			"sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us":  file("50000\n"),
			"sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us": file("100000\n"),
		}, 0.5, true},
		{"v1 unlimited", fstest.MapFS{
			"proc/self/cgroup":                    file("1:cpu:/\n2:cpuacct:/\n0::/\n"),
			"sys/fs/cgroup/cpu/cpu.cfs_quota_us":  file("-1\n"),
			"sys/fs/cgroup/cpu/cpu.cfs_period_us": file("100000\n"),
		}, 0, false},
		{"garbage", fstest.MapFS{
			"proc/self/cgroup":      file("0::/\n"),
			"sys/fs/cgroup/cpu.max": file("lots\n"),
		}, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cpus, found := cgroupCPULimit(c.fs)
			if found != c.found || (found && cpus != c.cpus) {
				t.Errorf("cgroupCPULimit = %g, %v; want %g, %v", cpus, found, c.cpus, c.found)
			}
		})
	}
}

func TestParseStatm(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in      string
		pages   int64
		wantErr bool
	}{
		{"765 435 406 5 0 123 0\n", 435, false},
		{"1 2", 2, false},
		{"1", 0, true},
		{"1 x 3", 0, true},
		{"1 -4 3", 0, true},
	}
	for _, c := range cases {
		pages, err := parseStatm([]byte(c.in))
		if (err != nil) != c.wantErr || pages != c.pages {
			t.Errorf("parseStatm(%q) = %d, %v; want %d, error %v", c.in, pages, err, c.pages, c.wantErr)
		}
	}
}

// burn keeps every allowed processor busy for a fixed amount of work, not
// a fixed time, so that a loaded machine makes it slower, never wrong.
func burn(iterations int) uint64 {
	procs := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	sums := make([]uint64, procs)
	for g := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := fnv.New64a()
			var buf [8]byte
			for i := range iterations {
				buf[0], buf[1] = byte(i), byte(i>>8)
				_, _ = h.Write(buf[:])
			}
			sums[g] = h.Sum64()
		}()
	}
	wg.Wait()
	var s uint64
	for _, v := range sums {
		s ^= v
	}
	return s
}

func TestProbeSeesCPU(t *testing.T) {
	if !readCPUTimes().ok {
		t.Skip("getrusage is not available here")
	}
	p := Start()
	_ = burn(5_000_000)
	u := p.Stop()
	if u.CPU() <= 0 || u.User <= 0 {
		t.Fatalf("after burning CPU on %d processors: CPU %v (user %v)", runtime.GOMAXPROCS(0), u.CPU(), u.User)
	}
	// How much of the machine the burn got depends on what else runs:
	// only that the figure is made of what was read is checked here, the
	// figure itself on a fake clock and CPU below.
	if want := utilization(u.CPU(), u.Wall, u.Limits.Allowed); u.Utilization <= 0 || u.Utilization != want {
		t.Fatalf("utilization %g (CPU %v over %v wall × %g CPUs): want %g", u.Utilization, u.CPU(), u.Wall, u.Limits.Allowed, want)
	}
	if u.Limits.Allowed < 1 || u.Limits.GOMAXPROCS != runtime.GOMAXPROCS(0) {
		t.Fatalf("limits %+v", u.Limits)
	}
	if u.MaxRSS <= 0 {
		t.Errorf("MaxRSS = %d, want > 0", u.MaxRSS)
	}
	if again := p.Stop(); again != u {
		t.Errorf("second Stop = %+v, want the first %+v", again, u)
	}
}

func TestProbeSamplesRSS(t *testing.T) {
	if _, err := os.Stat("/proc/self/statm"); err != nil {
		t.Skip("no /proc/self/statm here")
	}
	p := StartSampling(time.Millisecond)
	// Touch memory so there is something resident to see.
	buf := make([]byte, 8<<20)
	for i := 0; i < len(buf); i += 4096 {
		buf[i] = 1
	}
	u := p.Stop()
	runtime.KeepAlive(buf)
	if u.RSS < 8<<20 || u.PeakRSS < u.RSS {
		t.Fatalf("RSS %d, PeakRSS %d: want RSS ≥ 8 MiB just touched and PeakRSS ≥ RSS", u.RSS, u.PeakRSS)
	}
}

func TestProcessCPU(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc here")
	}
	_ = burn(2_000_000)
	d, err := ProcessCPU(os.Getpid())
	if err != nil || d <= 0 {
		t.Fatalf("ProcessCPU(self) = %v, %v; want > 0 after burning CPU", d, err)
	}
	if _, err := ProcessCPU(-1); err == nil {
		t.Fatal("ProcessCPU(-1) succeeded")
	}
}

// fakeSources are a probe's readings, set by the test between Start and
// Stop.
type fakeSources struct {
	now    time.Time
	cpu    cpuTimes
	wait   time.Duration
	waitOK bool
}

func (f *fakeSources) sources() sources {
	return sources{
		now:  func() time.Time { return f.now },
		cpu:  func() cpuTimes { return f.cpu },
		wait: func() (time.Duration, bool) { return f.wait, f.waitOK },
	}
}

// TestProbeFigures: the probe's wall time, CPU, run-queue wait and the
// shares they make of the allowed CPUs, from a fake clock and fake
// readings: a process that runs on all its CPUs and waits as long again,
// one that uses a quarter of them, one whose wait cannot be read.
func TestProbeFigures(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	allowed := ReadLimits().Allowed
	cpuFor := func(share float64, wall time.Duration) time.Duration {
		return time.Duration(share * allowed * float64(wall))
	}
	tests := []struct {
		name      string
		wall      time.Duration
		user, sys time.Duration
		wait      time.Duration
		waitOK    bool
		util      float64
		waiting   float64
	}{
		{"twice its CPUs", 2 * time.Second, cpuFor(0.75, 2*time.Second), cpuFor(0.25, 2*time.Second), cpuFor(1, 2*time.Second), true, 1, 1},
		{"a quarter", 4 * time.Second, cpuFor(0.25, 4*time.Second), 0, 0, true, 0.25, 0},
		{"busy without wait figures", time.Second, cpuFor(0.9, time.Second), 0, 0, false, 0.9, 0},
	}
	for _, tt := range tests {
		f := &fakeSources{now: t0, cpu: cpuTimes{user: time.Second, system: time.Second, ok: true}, wait: time.Second, waitOK: tt.waitOK}
		p := startWith(f.sources())
		f.now = t0.Add(tt.wall)
		f.cpu = cpuTimes{user: time.Second + tt.user, system: time.Second + tt.sys, maxRSS: 1 << 20, ok: true}
		f.wait = time.Second + tt.wait
		u := p.Stop()
		if u.Wall != tt.wall || u.User != tt.user || u.System != tt.sys || u.RunQueueWait != tt.wait || u.RunQueueWaitAvailable != tt.waitOK {
			t.Errorf("%s: wall %v, user %v, system %v, wait %v (%v); want %v, %v, %v, %v (%v)", tt.name, u.Wall, u.User, u.System, u.RunQueueWait, u.RunQueueWaitAvailable, tt.wall, tt.user, tt.sys, tt.wait, tt.waitOK)
		}
		// Whether that makes the client the limit is the diagnosis's to
		// say (diagnosis's tests); selfmon only measures.
		if math.Abs(u.Utilization-tt.util) > 1e-9 || math.Abs(u.Waiting-tt.waiting) > 1e-9 {
			t.Errorf("%s: utilization %g, waiting %g; want %g, %g", tt.name, u.Utilization, u.Waiting, tt.util, tt.waiting)
		}
	}
}
