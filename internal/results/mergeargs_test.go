package results

import (
	"testing"

	"github.com/mongobench/mongobench/internal/cmdflag"
)

// TestMergeOutFlag: -o and --out name the same file.
func TestMergeOutFlag(t *testing.T) {
	t.Parallel()
	for _, spelled := range []string{"-o", "--out"} {
		var out string
		if err := cmdflag.NewSet("merge", []cmdflag.Def{MergeOutFlag(&out)}).Parse([]string{spelled, "whole.json"}); err != nil || out != "whole.json" {
			t.Errorf("%s whole.json: %q, %v", spelled, out, err)
		}
	}
}
