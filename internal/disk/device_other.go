//go:build !linux

package disk

import (
	"fmt"
	"os"
)

// Device names the block device dir lives on; only Linux says, elsewhere
// it is "" and a run's disks are judged by their utilisation.
func Device(dir string) (string, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return "", fmt.Errorf("%s: %w", dir, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s: not a directory", dir)
	}
	return "", nil
}
