package disk

import (
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/cmdflag"
)

func TestFlags(t *testing.T) {
	t.Parallel()
	o := DefaultOptions()
	if err := cmdflag.NewSet("disk", o.Flags()).Parse(strings.Fields("--dir /d --size 1G --runtime 2s")); err != nil {
		t.Fatal(err)
	}
	if o.Dir != "/d" || o.SizeBytes != 1<<30 || o.Runtime != 2*time.Second || len(o.QueueDepths) != 3 {
		t.Errorf("options %+v", o)
	}
	for _, tt := range []struct{ args, want string }{
		{"--size 1k", `disk: --size "1k" is invalid: expected ` + SizeAccepted},
		{"--runtime 1ms", `disk: --runtime "1ms" is invalid: expected `},
		{"--runtime 2h", `disk: --runtime "2h" is invalid: expected `},
	} {
		o := DefaultOptions()
		if err := cmdflag.NewSet("disk", o.Flags()).Parse(strings.Fields(tt.args)); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.args, err, tt.want)
		}
	}
}
