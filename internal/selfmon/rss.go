package selfmon

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/prometheus/procfs"
)

// currentRSS returns the resident set size from /proc/self/statm, or 0
// where it cannot be read. statm is one short line: cheaper than
// /proc/self/status, and exact where getrusage only keeps the high-water
// mark.
func currentRSS() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	pages, err := parseStatm(b)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}

// parseStatm returns the resident pages, statm's second field.
func parseStatm(b []byte) (int64, error) {
	fields := bytes.Fields(b)
	if len(fields) < 2 {
		return 0, fmt.Errorf("statm %q: expected at least 2 fields", b)
	}
	n, err := strconv.ParseInt(string(fields[1]), 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("statm %q: resident pages %q is not a count", b, fields[1])
	}
	return n, nil
}

// ErrUnsupported is returned where another process's CPU time cannot be
// read (no /proc).
var ErrUnsupported = errors.New("selfmon: not supported on this system")

// ProcessCPU returns the user plus system CPU time process pid has used so
// far, from /proc/PID/stat (at the kernel's clock-tick resolution, 10 ms on
// most systems). It is how a parent measures a server it started.
func ProcessCPU(pid int) (time.Duration, error) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		return 0, ErrUnsupported
	}
	p, err := procfs.NewProc(pid)
	if err != nil {
		return 0, fmt.Errorf("process %d: %w", pid, err)
	}
	st, err := p.Stat()
	if err != nil {
		return 0, fmt.Errorf("process %d: %w", pid, err)
	}
	return time.Duration(st.CPUTime() * float64(time.Second)), nil
}
