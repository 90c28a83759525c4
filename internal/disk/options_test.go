package disk

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckDir: the directory is made absolute, and what fio cannot
// measure is refused, named as given.
func TestCheckDir(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, d := range []string{"sub", "a:b"} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile("file", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir, want, refused string
	}{
		{dir: "", want: dir},
		{dir: "sub", want: filepath.Join(dir, "sub")},
		{dir: "file", refused: "file is not a directory: expected an existing directory on the disk to measure"},
		{dir: "none", refused: "none is not a directory"},
		{dir: "a:b", refused: "a:b holds ':', which fio takes for a list of directories"},
	} {
		got, err := CheckDir(tc.dir)
		if tc.refused != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.refused) {
				t.Errorf("CheckDir(%q) = %q, %v; want a refusal %q", tc.dir, got, err, tc.refused)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("CheckDir(%q) = %q, %v; want %q", tc.dir, got, err, tc.want)
		}
	}
}

// TestLookFio: fio is the first executable regular file of that name on
// the path; a directory or a file that does not run is passed over.
func TestLookFio(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dirs := make([]string, 4)
	for i := range dirs {
		dirs[i] = filepath.Join(root, string(rune('a'+i)))
		if err := os.Mkdir(dirs[i], 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dirs[0], "fio"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dirs[1], "fio"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs[2:] {
		if err := os.WriteFile(filepath.Join(d, "fio"), nil, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	path := strings.Join(append([]string{""}, dirs...), string(filepath.ListSeparator))
	if got, want := LookFio(path), filepath.Join(dirs[2], "fio"); got != want {
		t.Errorf("LookFio = %q, want %q", got, want)
	}
	if got := LookFio(strings.Join(dirs[:2], string(filepath.ListSeparator))); got != "" {
		t.Errorf("LookFio without an executable fio = %q, want none", got)
	}
}

// TestTestsCountsTheJobs: the count a user is told is the jobs fio runs.
func TestTestsCountsTheJobs(t *testing.T) {
	t.Parallel()
	o := Options{QueueDepths: DefaultQueueDepths}
	jobs := 0
	for _, a := range Args(o) {
		if strings.HasPrefix(a, "--name=") {
			jobs++
		}
	}
	if o.Tests() != jobs || jobs != 8 {
		t.Errorf("Tests() = %d, fio's jobs %d, want 8 each", o.Tests(), jobs)
	}
	if DeviceName(" ") != "an unnamed device" || DeviceName("nvme0n1") != "nvme0n1" {
		t.Errorf("DeviceName: %q, %q", DeviceName(" "), DeviceName("nvme0n1"))
	}
}
