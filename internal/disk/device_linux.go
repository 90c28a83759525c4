package disk

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// Device names the block device dir's file system lives on as
// /proc/diskstats names it, the whole disk rather than a partition
// (host metrics count a partition's I/O in its disk's): "vda" for a file
// system on vda1, "dm-0" for one on LVM. It returns "" for a file system
// on no block device (tmpfs, overlay).
func Device(dir string) (string, error) {
	var st unix.Stat_t
	if err := unix.Stat(dir, &st); err != nil {
		return "", fmt.Errorf("%s: %w", dir, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return "", fmt.Errorf("%s: not a directory", dir)
	}
	sys := fmt.Sprintf("/sys/dev/block/%d:%d", unix.Major(st.Dev), unix.Minor(st.Dev))
	real, err := filepath.EvalSymlinks(sys)
	if err != nil {
		return "", nil
	}
	if _, err := os.Stat(filepath.Join(real, "partition")); err == nil {
		return filepath.Base(filepath.Dir(real)), nil
	}
	return filepath.Base(real), nil
}
