//go:build !linux

package selfmon

import "time"

// runQueueWait is not known outside Linux.
func runQueueWait() (time.Duration, bool) { return 0, false }
