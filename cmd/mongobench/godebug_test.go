package main

import (
	"slices"
	"testing"
)

func TestStackEnv(t *testing.T) {
	tests := []struct {
		name string
		env  []string
		want []string // nil: no re-execution
	}{
		{"no GODEBUG", []string{"HOME=/h", "PATH=/bin"}, []string{"HOME=/h", "PATH=/bin", "GODEBUG=adaptivestackstart=0"}},
		{"empty environment", nil, []string{"GODEBUG=adaptivestackstart=0"}},
		{"empty GODEBUG", []string{"GODEBUG=", "X=1"}, []string{"GODEBUG=adaptivestackstart=0", "X=1"}},
		{"other settings kept", []string{"GODEBUG=gctrace=1,madvdontneed=1"}, []string{"GODEBUG=gctrace=1,madvdontneed=1,adaptivestackstart=0"}},
		{"already set by the second start", []string{"GODEBUG=adaptivestackstart=0"}, nil},
		{"the user's choice stands", []string{"GODEBUG=gctrace=1,adaptivestackstart=1"}, nil},
		{"a key that only contains the name", []string{"GODEBUG=xadaptivestackstart=1"}, []string{"GODEBUG=xadaptivestackstart=1,adaptivestackstart=0"}},
		{"the first GODEBUG is the one read", []string{"GODEBUG=adaptivestackstart=1", "GODEBUG=gctrace=1"}, nil},
		{"a later GODEBUG is not read", []string{"GODEBUG=gctrace=1", "GODEBUG=adaptivestackstart=1"}, []string{"GODEBUG=gctrace=1,adaptivestackstart=0", "GODEBUG=adaptivestackstart=1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := slices.Clone(tt.env)
			got := stackEnv(tt.env)
			if !slices.Equal(got, tt.want) || (got == nil) != (tt.want == nil) {
				t.Errorf("stackEnv(%q) = %q, want %q", tt.env, got, tt.want)
			}
			if !slices.Equal(tt.env, before) {
				t.Errorf("stackEnv changed its argument: %q, was %q", tt.env, before)
			}
		})
	}
}
