package diagnosis

import (
	"testing"

	"github.com/mongobench/mongobench/internal/results"
)

func TestTallyAndBeyond(t *testing.T) {
	t.Parallel()
	cpu := &results.Diagnosis{Verdict: ServerCPU, Limits: []results.Limit{{Kind: ServerCPU}}}
	disk := &results.Diagnosis{Verdict: Disk + " (borderline)", Limits: []results.Limit{{Kind: Disk, Borderline: true}}}
	none := &results.Diagnosis{Verdict: results.NoLimitFound}
	unknown := &results.Diagnosis{Verdict: "cannot judge: the results hold no client, host or server metrics"}
	tally := []struct {
		ds   []*results.Diagnosis
		want string
	}{
		{nil, ""},
		{[]*results.Diagnosis{cpu, cpu}, "server CPU"},
		{[]*results.Diagnosis{none}, "none"},
		{[]*results.Diagnosis{unknown, nil}, "not judged"},
		{[]*results.Diagnosis{disk, cpu, cpu}, "server CPU (2 of 3), disk (borderline) (1 of 3)"},
		{[]*results.Diagnosis{none, cpu}, "none (1 of 2), server CPU (1 of 2)"},
	}
	for _, tt := range tally {
		if got := Tally(tt.ds); got != tt.want {
			t.Errorf("Tally(%d runs) = %q, want %q", len(tt.ds), got, tt.want)
		}
	}
	beyond := []struct {
		d    *results.Diagnosis
		want string
	}{
		{cpu, "beyond 10 threads the server host's CPU is saturated"},
		{disk, "beyond 10 threads the disk is saturated (borderline: near its threshold, not past it)"},
		{none, "beyond 10 threads no resource mongobench watches is saturated: the runs found none"},
		{&results.Diagnosis{Verdict: Target, Limits: []results.Limit{{Kind: Target}}}, "beyond 10 threads the runs held their -target: the target set the throughput, not a saturated resource"},
		{&results.Diagnosis{Verdict: HostBusy, Limits: []results.Limit{{Kind: HostBusy}}}, "beyond 10 threads the host is busy with other processes, not with the benchmark"},
		{unknown, ""},
		{nil, ""},
	}
	for _, tt := range beyond {
		if got := Beyond(10, "threads", tt.d); got != tt.want {
			t.Errorf("Beyond(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestBeyondMost(t *testing.T) {
	t.Parallel()
	cpu := &results.Diagnosis{Verdict: ServerCPU, Limits: []results.Limit{{Kind: ServerCPU}}}
	disk := &results.Diagnosis{Verdict: Disk, Limits: []results.Limit{{Kind: Disk}}}
	if got, want := BeyondMost(16, "threads", []*results.Diagnosis{disk, cpu, cpu}), "beyond 16 threads the server host's CPU is saturated"; got != want {
		t.Errorf("BeyondMost = %q, want %q", got, want)
	}
	if got, want := BeyondMost(16, "threads", []*results.Diagnosis{disk, cpu}), "beyond 16 threads the disk is saturated"; got != want {
		t.Errorf("BeyondMost on a tie = %q, want %q (the first)", got, want)
	}
	if got := BeyondMost(16, "threads", nil); got != "" {
		t.Errorf("BeyondMost of no trials = %q", got)
	}
	if got, want := BeyondMost(1, "threads", []*results.Diagnosis{cpu}), "beyond 1 thread the server host's CPU is saturated"; got != want {
		t.Errorf("BeyondMost at one thread = %q, want %q", got, want)
	}
}

func TestClientBound(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		d    *results.Diagnosis
		want bool
	}{
		{"client CPU", &results.Diagnosis{Verdict: ClientCPU, Limits: []results.Limit{{Kind: ClientCPU}}}, true},
		{"borderline", &results.Diagnosis{Verdict: ClientCPU + " (borderline)", Limits: []results.Limit{{Kind: ClientCPU, Borderline: true}}}, false},
		{"second", &results.Diagnosis{Verdict: ServerCPU, Limits: []results.Limit{{Kind: ServerCPU}, {Kind: ClientCPU}}}, false},
		{"host busy", &results.Diagnosis{Verdict: HostBusy, Limits: []results.Limit{{Kind: HostBusy}}}, false},
		{"none", &results.Diagnosis{Verdict: results.NoLimitFound}, false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		if got := ClientBound(tt.d); got != tt.want {
			t.Errorf("%s: ClientBound %v, want %v", tt.name, got, tt.want)
		}
	}
}
