package calibrate

import (
	"os/exec"
	"syscall"
)

// setDeathSignal has the kernel kill the child server if mongobench dies
// without stopping it, so no null server is left listening.
func setDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
