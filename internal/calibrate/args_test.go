package calibrate

import (
	"strings"
	"testing"
)

func TestArgsOptions(t *testing.T) {
	t.Parallel()
	a := &Args{Repeat: 3, NoExtras: true, InProcess: true, URLOptions: "retryReads=false", Files: []string{"workloada", "workloads/workloadb"}}
	a.Threads = "2,4"
	o, err := a.Options()
	if err != nil {
		t.Fatal(err)
	}
	if o.Repeats != 3 || !o.SkipExtras || o.Server != ServerInProcess || o.URLOptions != "retryReads=false" || o.Workload != "workloada+workloadb" {
		t.Errorf("options %+v", o)
	}
	if len(o.Threads) != 2 || o.Threads[0] != 2 || o.Threads[1] != 4 {
		t.Errorf("threads %v, want [2 4]", o.Threads)
	}
	if v, _ := o.Properties.Get("readproportion"); v != "0.95" {
		t.Errorf("readproportion %q: workloadb, the later -P, does not win", v)
	}
	if _, err := (&Args{Repeat: 1, Files: []string{"nosuch"}}).Options(); err == nil || !strings.Contains(err.Error(), "cannot read workload file nosuch") {
		t.Errorf("a missing -P: %v", err)
	}
}

func FuzzCalibrateThreads(f *testing.F) {
	for _, s := range []string{"1,16,64", "4", " 2 , 3", "", ",", "0", "-1", "1,,2", "99999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := (&Args{Given: Given{Threads: s}, Repeat: 1}).Options()
		if err != nil {
			if !strings.Contains(err.Error(), "-threads") {
				t.Fatalf("-threads %q: error %q does not name the flag", s, err)
			}
			return
		}
		if s != "" && len(o.Threads) == 0 {
			t.Fatalf("-threads %q accepted with no thread counts", s)
		}
		for _, n := range o.Threads {
			if n < 1 || n > 1<<20 {
				t.Fatalf("-threads %q accepted %d", s, n)
			}
		}
	})
}
