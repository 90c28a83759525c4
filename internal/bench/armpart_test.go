package bench

import (
	"testing"

	"github.com/mongobench/mongobench/internal/partition"
)

func TestArmPart(t *testing.T) {
	t.Parallel()
	p := &partition.Plan{Part: partition.Part{Index: 1, Count: 2}}
	var target Target
	var exec Execution
	ArmPart(p, &target, &exec, func(string) {})
	if target.PhaseSeed == nil || target.BeforePhase == nil || exec.BeforeClose == nil {
		t.Fatal("the part's seed, barrier or release is not armed")
	}
	if got, want := target.PhaseSeed(7), p.Part.Seed(7); got != want {
		t.Errorf("phase seed %d, want the part's %d", got, want)
	}
	exec.BeforeClose() // before the barrier: nothing to release
}
