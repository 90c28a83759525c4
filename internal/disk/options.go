package disk

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Tests is how many tests Measure runs for o, one after the other: random
// reads and writes at each queue depth, then a sequential read and write
// (the jobs of Args).
func (o Options) Tests() int { return 2*len(o.QueueDepths) + 2 }

// CheckDir is the directory fio is to measure the disk of: dir ("" for
// the current one) made absolute, refused when it is no directory or
// holds ':', which fio takes for a separator of several.
func CheckDir(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("%s: %v: expected a directory", dir, err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("%s is not a directory: expected an existing directory on the disk to measure", dir)
	}
	if strings.Contains(abs, ":") {
		return "", fmt.Errorf("%s holds ':', which fio takes for a list of directories: expected a directory whose path has no ':'", dir)
	}
	return abs, nil
}

// LookFio finds fio in the directories of path, a $PATH; "" when none
// holds it.
func LookFio(path string) string {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		p := filepath.Join(dir, "fio")
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// DeviceName names a baseline's device in a message.
func DeviceName(d string) string {
	if strings.TrimSpace(d) == "" {
		return "an unnamed device"
	}
	return d
}
