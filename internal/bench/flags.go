package bench

import (
	"fmt"
	"math"

	"github.com/mongobench/mongobench/internal/cmdflag"
	"github.com/mongobench/mongobench/internal/workload"
)

// Flags are the flags of the limits a phase stops at (--max-errors,
// --max-error-rate), bound to l.
func (l *Limits) Flags() []cmdflag.Def {
	return []cmdflag.Def{
		cmdflag.Func("max-errors", "N", "stop once N operations have failed (default: never; failures are counted)", true, func(v string) error {
			n, err := workload.ParseInt(v, 0, math.MaxInt64)
			if err != nil {
				return fmt.Errorf("--max-errors %q is invalid: expected a whole number >= 0 (0 = never stop on errors)", v)
			}
			l.MaxErrors = n
			return nil
		}),
		cmdflag.Func("max-error-rate", "F", "stop once more than the fraction F (0 < F <= 1, e.g. 0.5) of the\noperations failed: judged at the end of each whole status interval\nover the operations finished since the last verdict, once at least\n20 have finished (default: never)", true, func(v string) error {
			f, err := workload.ParseFloat(v, 0, 1)
			if err != nil || f == 0 {
				return fmt.Errorf("--max-error-rate %q is invalid: expected a fraction of failed operations greater than 0 and at most 1, such as 0.5", v)
			}
			l.MaxErrorRate = f
			return nil
		}),
	}
}
