//go:build !unix

package selfmon

// readCPUTimes reports no CPU time where getrusage does not exist; Usage
// says so in CPUTimeAvailable.
func readCPUTimes() cpuTimes { return cpuTimes{} }
