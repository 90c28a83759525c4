//go:build unix

package selfmon

import (
	"runtime"
	"syscall"
	"time"
)

// readCPUTimes reads getrusage(RUSAGE_SELF): every thread of the process,
// the driver's, the runtime's and the garbage collector's included.
func readCPUTimes() cpuTimes {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return cpuTimes{}
	}
	maxRSS := int64(ru.Maxrss)
	// Darwin reports bytes, the other Unixes KiB.
	if runtime.GOOS != "darwin" && runtime.GOOS != "ios" {
		maxRSS *= 1024
	}
	return cpuTimes{
		user:   time.Duration(ru.Utime.Nano()),
		system: time.Duration(ru.Stime.Nano()),
		maxRSS: maxRSS,
		ok:     true,
	}
}
