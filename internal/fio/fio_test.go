package fio

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/golden"
)

// TestDecodeRecorded decodes a report fio 3.33 wrote and prints what was
// read, checked against a golden file.
func TestDecodeRecorded(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/fio-3.33.json")
	if err != nil {
		t.Fatal(err)
	}
	// fio's warnings come before the report on the same output.
	r, err := Decode(append([]byte("fio: this platform does not support process shared mutexes, forcing use of threads\n"), b...))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	fmt.Fprintf(&out, "version %s, %d jobs\n", r.Version, len(r.Jobs))
	for _, j := range r.Jobs {
		fmt.Fprintf(&out, "%s rw=%s bs=%s iodepth=%s error=%d\n", j.Name, j.Options["rw"], j.Options["bs"], j.Options["iodepth"], j.Error)
		for _, d := range []struct {
			name string
			d    Direction
		}{{"read", j.Read}, {"write", j.Write}} {
			if d.d.TotalIOs == 0 {
				continue
			}
			p50, _ := d.d.Clat.At(50)
			p99, _ := d.d.Clat.At(99)
			p999, _ := d.d.Clat.At(99.9)
			fmt.Fprintf(&out, "  %s: %d ios, %.3f iops, %.0f B/s, clat mean %.1f ns, p50 %d, p99 %d, p99.9 %d, max %d ns\n",
				d.name, d.d.TotalIOs, d.d.IOPS, d.d.BWBytes, d.d.Clat.Mean, p50, p99, p999, d.d.Clat.Max)
		}
	}
	for _, u := range r.DiskUtil {
		fmt.Fprintf(&out, "disk %s util %.2f%%\n", u.Name, u.Util)
	}
	golden.Check(t, "fio-3.33.golden", out.String())
}

func TestDecodeRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, out, want string
	}{
		{"no report", "fio: pid=0, err=22/file:filesetup.c:805, func=open(x), error=Invalid argument\n", "holds no JSON report"},
		{"cut short", `{"fio version": "fio-3.33", "jobs": [{"jobname": "a"`, "fio's JSON report: unexpected end"},
		{"no jobs", `{"fio version": "fio-3.33", "jobs": []}`, "lists no jobs"},
		{"negative", `{"jobs": [{"jobname": "a", "read": {"iops": -1}}]}`, `job "a" has negative figures`},
		{"wrong type", `{"jobs": [{"jobname": "a", "read": {"iops": "fast"}}]}`, "cannot unmarshal string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Decode([]byte(tt.out))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

func FuzzDecode(f *testing.F) {
	b, err := os.ReadFile("testdata/fio-3.33.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`fio: warning\n{"jobs": [{"jobname": "a", "read": {"iops": 1, "clat_ns": {"percentile": {"99.000000": 5}}}}]}`))
	f.Fuzz(func(t *testing.T, out []byte) {
		r, err := Decode(out)
		if err != nil {
			return
		}
		if len(r.Jobs) == 0 {
			t.Fatal("a report without jobs was accepted")
		}
		for _, j := range r.Jobs {
			if j.Read.IOPS < 0 || j.Write.IOPS < 0 {
				t.Fatalf("negative IOPS accepted in job %q", j.Name)
			}
		}
	})
}
