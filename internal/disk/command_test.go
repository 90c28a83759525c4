package disk

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/results"
)

type fakeKeeper struct {
	err  error
	kept *results.DiskBaseline
}

func (k *fakeKeeper) SaveDiskBaseline(_ context.Context, b *results.DiskBaseline) (int64, error) {
	k.kept = b
	return 7, k.err
}

func (k *fakeKeeper) Path() string { return "runs.db" }

// TestRun checks what disk says and keeps: the table on stdout, the
// baseline handed to the store with its id said on stderr, and a store
// that refuses it is an error saying the measurement was lost.
func TestRun(t *testing.T) {
	fio := LookFio(os.Getenv("PATH"))
	if fio == "" {
		t.Skip("fio is not installed")
	}
	dir := t.TempDir()
	if d, _ := Device(dir); d == "" {
		var err error
		if dir, err = os.MkdirTemp(".", "disk-"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.RemoveAll(dir) })
	}
	o := DefaultOptions()
	o.Dir, o.Fio, o.SizeBytes, o.Runtime, o.QueueDepths = dir, fio, 4<<20, 200*time.Millisecond, []int{1}
	for _, tt := range []struct {
		name    string
		keepErr error
		wantErr string
	}{
		{"kept", nil, ""},
		{"refused", errors.New("disk full"), "the baseline was measured but not kept: disk full"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			k := &fakeKeeper{err: tt.keepErr}
			var out, errb bytes.Buffer
			err := Run(context.Background(), o, k, &out, &errb)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if k.kept == nil || out.String() != Table(k.kept) {
				t.Errorf("stdout %q is not the table of the baseline kept", out.String())
			}
			if !strings.Contains(errb.String(), "with fio: 4 tests of 200ms each") {
				t.Errorf("stderr %q", errb.String())
			}
			saved := strings.Contains(errb.String(), "saved as disk baseline 7 of ")
			if saved != (tt.keepErr == nil) {
				t.Errorf("stderr %q: saved said %v", errb.String(), saved)
			}
		})
	}
}
