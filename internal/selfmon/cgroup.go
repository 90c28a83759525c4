package selfmon

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"strconv"
	"strings"
)

// cgroupCPULimit returns the CPU quota of the process's cgroup in CPUs,
// from a file system rooted at "/" (a parameter so tests can give a fake
// one). A quota set on an ancestor cgroup limits its children too, so the
// least quota from the process's cgroup up to the root wins. Cgroup v2
// (cpu.max) and v1 (cpu.cfs_quota_us over cpu.cfs_period_us) are read;
// anything unreadable counts as no quota.
func cgroupCPULimit(fsys fs.FS) (float64, bool) {
	data, err := fs.ReadFile(fsys, "proc/self/cgroup")
	if err != nil {
		return 0, false
	}
	v2, v1 := parseProcCgroup(string(data))
	best, found := math.Inf(1), false
	note := func(cpus float64, ok bool) {
		if ok && cpus < best {
			best, found = cpus, true
		}
	}
	if v2 != "" {
		for _, dir := range upwards(v2) {
			b, err := fs.ReadFile(fsys, path.Join("sys/fs/cgroup", dir, "cpu.max"))
			if err != nil {
				continue
			}
			cpus, limited, err := ParseCPUMax(string(b))
			note(cpus, limited && err == nil)
		}
	}
	if v1 != "" {
		// The cpu controller is mounted alone or together with cpuacct,
		// under either name order.
		for _, mount := range []string{"cpu", "cpu,cpuacct", "cpuacct,cpu"} {
			for _, dir := range upwards(v1) {
				base := path.Join("sys/fs/cgroup", mount, dir)
				q, err1 := fs.ReadFile(fsys, path.Join(base, "cpu.cfs_quota_us"))
				p, err2 := fs.ReadFile(fsys, path.Join(base, "cpu.cfs_period_us"))
				if err1 != nil || err2 != nil {
					continue
				}
				cpus, limited, err := ParseCFSQuota(string(q), string(p))
				note(cpus, limited && err == nil)
			}
		}
	}
	return best, found
}

// parseProcCgroup returns the process's cgroup v2 path (the "0::" line) and
// its cgroup v1 path for the cpu controller, each "" when absent.
func parseProcCgroup(s string) (v2, v1 string) {
	for line := range strings.Lines(s) {
		id, rest, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		controllers, p, ok := strings.Cut(rest, ":")
		if !ok || !strings.HasPrefix(p, "/") {
			continue
		}
		if id == "0" && controllers == "" {
			v2 = p
			continue
		}
		for c := range strings.SplitSeq(controllers, ",") {
			if c == "cpu" {
				v1 = p
			}
		}
	}
	return v2, v1
}

// upwards returns p and each of its ancestors up to "/". Inside a cgroup
// namespace or a container the process's own path may not exist under the
// mount point; its ancestors, down to the mount's root, still do.
func upwards(p string) []string {
	p = path.Clean("/" + p)
	dirs := []string{p}
	for p != "/" {
		p = path.Dir(p)
		dirs = append(dirs, p)
	}
	return dirs
}

// ParseCPUMax parses cgroup v2's cpu.max ("$MAX $PERIOD", MAX being "max"
// for no limit) and returns the quota in CPUs. limited is false when no
// quota is set.
func ParseCPUMax(s string) (cpus float64, limited bool, err error) {
	fields := strings.Fields(s)
	if len(fields) == 0 || len(fields) > 2 {
		return 0, false, fmt.Errorf("cpu.max %q: expected \"MAX [PERIOD]\"", s)
	}
	period := "100000" // the kernel's default when only MAX is written
	if len(fields) == 2 {
		period = fields[1]
	}
	if _, err := parsePositive(period); err != nil {
		return 0, false, fmt.Errorf("cpu.max %q: period: %w", s, err)
	}
	if fields[0] == "max" {
		return 0, false, nil
	}
	return ParseCFSQuota(fields[0], period)
}

// ParseCFSQuota parses cgroup v1's cpu.cfs_quota_us and cpu.cfs_period_us
// (microseconds; a negative quota means no limit) and returns the quota in
// CPUs.
func ParseCFSQuota(quota, period string) (cpus float64, limited bool, err error) {
	q, err := strconv.ParseInt(strings.TrimSpace(quota), 10, 64)
	if err != nil {
		return 0, false, fmt.Errorf("cfs quota %q: not a whole number", strings.TrimSpace(quota))
	}
	p, err := parsePositive(period)
	if err != nil {
		return 0, false, fmt.Errorf("cfs period: %w", err)
	}
	if q < 0 {
		return 0, false, nil
	}
	if q == 0 {
		return 0, false, errors.New("cfs quota 0: a quota must be positive")
	}
	return float64(q) / float64(p), true, nil
}

func parsePositive(s string) (int64, error) {
	s = strings.TrimSpace(s)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a whole number > 0", s)
	}
	return n, nil
}
