//go:build unix

package main

import (
	"os"
	"syscall"
)

// reexec starts this program again in place (same process, arguments and
// files) with stackSetting in GODEBUG, unless GODEBUG already decides it.
// When the executable cannot be found or executed it returns, and the
// program runs with the runtime's default: the setting saves memory, it
// changes no result.
func reexec() {
	env := stackEnv(os.Environ())
	if env == nil {
		return
	}
	// /proc/self/exe is the file this process runs even if its path now
	// names another; where there is no /proc, the path it was started by.
	_ = syscall.Exec("/proc/self/exe", os.Args, env)
	if exe, err := os.Executable(); err == nil {
		_ = syscall.Exec(exe, os.Args, env)
	}
}
