package bench

import (
	"strings"
	"testing"
)

func TestPreloadCutLines(t *testing.T) {
	t.Parallel()
	c := &PreloadCut{Acknowledged: 40, InFlight: 3, Records: 100, Table: "usertable"}
	got := strings.Join(c.Lines("/data"), "\n")
	want := "loading the embedded server was interrupted: the server acknowledged 40 of the 100 records for usertable; 3 more were in flight and may be stored too\n" +
		"a later run with --data-dir /data finds usertable not empty and will not load it again: give it an empty --data-dir to load all 100 records"
	if got != want {
		t.Errorf("lines\n%s\nwant\n%s", got, want)
	}
	c.InFlight = 0
	if got := c.Lines(""); len(got) != 1 || strings.Contains(got[0], "in flight") {
		t.Errorf("no data dir, nothing in flight: %q", got)
	}
}
