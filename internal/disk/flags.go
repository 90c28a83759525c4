package disk

import (
	"fmt"
	"time"

	"github.com/mongobench/mongobench/internal/cmdflag"
	"github.com/mongobench/mongobench/internal/workload"
)

// The bounds of --runtime: fio needs some hundred milliseconds for a
// figure, and a test of over an hour measures nothing more.
const (
	minRuntime = 100 * time.Millisecond
	maxRuntime = time.Hour
)

// DefaultOptions are the disk command's options before its flags.
func DefaultOptions() Options {
	return Options{SizeBytes: DefaultSizeBytes, Runtime: DefaultRuntime, QueueDepths: DefaultQueueDepths}
}

// Flags are the disk command's flags for o (--dir, --size, --runtime).
func (o *Options) Flags() []cmdflag.Def {
	return []cmdflag.Def{
		cmdflag.Text("dir", "D", "a directory on the disk to measure (default: the current one)", true, &o.Dir),
		cmdflag.Func("size", "S", "the test file's size (default 256M)", true, func(v string) error {
			n, err := ParseSize(v)
			if err != nil {
				return fmt.Errorf("disk: --size %q is invalid: expected %s", v, SizeAccepted)
			}
			o.SizeBytes = n
			return nil
		}),
		cmdflag.Func("runtime", "T", "each test's duration (default 5s)", true, func(v string) error {
			d, err := workload.ParseSeconds(v, minRuntime, maxRuntime)
			if err != nil {
				return fmt.Errorf("disk: --runtime %q is invalid: expected %s", v, workload.SecondsRange(minRuntime, maxRuntime))
			}
			o.Runtime = d
			return nil
		}),
	}
}
