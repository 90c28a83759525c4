package selfmon

import (
	"os"
	"time"

	"github.com/prometheus/procfs"
)

// runQueueWait returns how long the process's threads have so far been
// ready to run but waiting for a CPU (each thread's schedstat run_delay,
// summed), and false where the kernel does not say. A thread that exits
// between two readings takes its share with it, so a difference of two
// readings can only understate the wait.
func runQueueWait() (time.Duration, bool) {
	threads, err := procfs.AllThreads(os.Getpid())
	if err != nil {
		return 0, false
	}
	var total uint64
	read := 0
	for _, t := range threads {
		s, err := t.Schedstat()
		if err != nil {
			continue // the thread ended after the listing
		}
		total += s.WaitingNanoseconds
		read++
	}
	return time.Duration(total), read > 0
}
