//go:build !linux

package calibrate

import "os/exec"

// setDeathSignal does nothing where the kernel cannot kill a child when its
// parent dies; the child is stopped by the calibration's own clean-up.
func setDeathSignal(*exec.Cmd) {}
