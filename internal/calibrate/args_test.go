package calibrate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/output"
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

// TestCheckOutputs: --json is refused over a -P file or the store, and
// nothing is checked without it.
func TestCheckOutputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	wl := filepath.Join(dir, "wl")
	if err := os.WriteFile(wl, []byte("recordcount=1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	store := []output.Named{{Flag: "results store", Path: filepath.Join(dir, "mongobench.db")}}
	for _, tt := range []struct {
		name string
		a    Args
		ok   bool
	}{
		{"no --json", Args{Files: []string{wl}}, true},
		{"a new file", Args{JSONPath: filepath.Join(dir, "c.json"), Files: []string{wl}}, true},
		{"over -P", Args{JSONPath: wl, Files: []string{wl}}, false},
		{"over the store", Args{JSONPath: store[0].Path}, false},
	} {
		if err := tt.a.CheckOutputs(store); (err == nil) != tt.ok {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}
