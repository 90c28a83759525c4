package generator

import "fmt"

// NewHistogram returns a Histogram of the given bucket counts.
func NewHistogram(blockSize int64, counts []int64) (*Histogram, error) {
	h, err := newHistogram(blockSize, counts)
	if err != nil {
		return nil, fmt.Errorf("histogram: %w", err)
	}
	return h, nil
}
