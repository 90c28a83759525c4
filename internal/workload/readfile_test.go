package workload

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	own := filepath.Join(dir, "workloada")
	if err := os.WriteFile(own, []byte("recordcount=7\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, key, want, wantErr string
	}{
		{"workloada", "readproportion", "0.5", ""},
		{"workloads/workloadc", "readproportion", "1", ""},
		{own, "recordcount", "7", ""}, // a file on disk wins over the built-in
		{"elsewhere/workloada", "", "", "cannot read workload file elsewhere/workloada: no such file (built in: "},
		{"workloadz", "", "", "cannot read workload file workloadz"},
	}
	for _, tt := range tests {
		p, err := ReadFile(tt.name)
		if tt.wantErr != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
				t.Errorf("%s: %v, want %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if v, _ := p.Get(tt.key); v != tt.want {
			t.Errorf("%s: %s=%q, want %q", tt.name, tt.key, v, tt.want)
		}
	}
}
