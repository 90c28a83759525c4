package generator

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/inputfile"
)

// Histogram is YCSB's HistogramGenerator (fieldlengthdistribution=
// histogram): bucket i of the histogram stands for the sizes in
// (i*blockSize, (i+1)*blockSize], and a draw picks a bucket with probability
// proportional to its count and returns the largest size in it,
// (i+1)*blockSize. The smallest value is therefore blockSize, never 0. It is
// immutable and safe to share.
//
// That is the behaviour YCSB documents. Its code differs by a hair: bucket 0
// gets one draw in area more than its count, and the last bucket returns the
// size of the one before it (so a one-bucket histogram yields 0). Those are
// off-by-one slips, not something a histogram file relies on.
type Histogram struct {
	blockSize int64
	// cum[i] is the sum of the counts of buckets 0..i.
	cum []int64
}

var _ Chooser = (*Histogram)(nil)

func newHistogram(blockSize int64, counts []int64) (*Histogram, error) {
	if blockSize <= 0 {
		return nil, fmt.Errorf("block size %d is not positive", blockSize)
	}
	if int64(len(counts)) > math.MaxInt64/blockSize {
		return nil, fmt.Errorf("%d buckets of block size %d overflow a 64-bit size", len(counts), blockSize)
	}
	h := &Histogram{blockSize: blockSize, cum: make([]int64, len(counts))}
	var area int64
	for i, c := range counts {
		if c < 0 {
			return nil, fmt.Errorf("bucket %d has a negative count (%d)", i, c)
		}
		if c > math.MaxInt64-area {
			return nil, errors.New("the counts add up to more than 2^63-1")
		}
		area += c
		h.cum[i] = area
	}
	if area == 0 {
		return nil, errors.New("no bucket has a positive count")
	}
	return h, nil
}

// LoadHistogram reads a histogram file in YCSB's format (see
// ParseHistogram).
func LoadHistogram(path string) (*Histogram, error) {
	f, err := inputfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading histogram: %w", err)
	}
	defer f.Close()
	return ParseHistogram(f, path)
}

// ParseHistogram reads a histogram in YCSB's file format: a first line
// "BlockSize<TAB><n>", then one line "<bucket><TAB><count>" per bucket,
// buckets numbered 0, 1, 2, ... in order. name is used in error messages,
// which give the line at fault. Line ends may be "\n" or "\r\n" and blank
// lines are skipped.
func ParseHistogram(r io.Reader, name string) (*Histogram, error) {
	sc := bufio.NewScanner(r)
	line := 0
	fail := func(format string, args ...any) error {
		return fmt.Errorf("histogram %s, line %d: %s", name, line, fmt.Sprintf(format, args...))
	}
	var blockSize int64 = -1
	var counts []int64
	var area int64
	for sc.Scan() {
		line++
		text := strings.TrimSuffix(sc.Text(), "\r")
		if line == 1 {
			text = strings.TrimPrefix(text, "\uFEFF") // a byte-order mark
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		a, b, ok := strings.Cut(text, "\t")
		a, b = strings.TrimSpace(a), strings.TrimSpace(b)
		if blockSize < 0 {
			if !ok || a != "BlockSize" {
				return nil, fail("expected \"BlockSize<TAB><n>\" first, got %q", text)
			}
			n, err := strconv.ParseInt(b, 10, 64)
			if err != nil || n <= 0 {
				return nil, fail("block size %q is not a positive integer", b)
			}
			blockSize = n
			continue
		}
		if !ok {
			return nil, fail("expected \"<bucket><TAB><count>\", got %q", text)
		}
		bucket, err := strconv.ParseInt(a, 10, 64)
		if err != nil {
			return nil, fail("bucket %q is not an integer", a)
		}
		if bucket != int64(len(counts)) {
			return nil, fail("bucket %d out of order: expected bucket %d", bucket, len(counts))
		}
		count, err := strconv.ParseInt(b, 10, 64)
		if err != nil || count < 0 {
			return nil, fail("count %q is not a non-negative integer", b)
		}
		if count > math.MaxInt64-area {
			return nil, fail("the counts add up to more than 2^63-1")
		}
		if bucket >= math.MaxInt64/blockSize {
			return nil, fail("bucket %d of block size %d overflows a 64-bit size", bucket, blockSize)
		}
		area += count
		counts = append(counts, count)
	}
	if err := sc.Err(); err != nil {
		line++
		return nil, fail("%v", err)
	}
	if blockSize < 0 {
		return nil, fmt.Errorf("histogram %s is empty: expected \"BlockSize<TAB><n>\" on its first line", name)
	}
	h, err := newHistogram(blockSize, counts)
	if err != nil {
		return nil, fmt.Errorf("histogram %s: %w", name, err)
	}
	return h, nil
}

// Next returns the next size.
func (h *Histogram) Next(r *rand.Rand) int64 {
	n := r.Int64N(h.cum[len(h.cum)-1])
	// Binary search for the first bucket whose cumulative count passes n;
	// written out because sort.Search's closure would cost a call per step.
	lo, hi := 0, len(h.cum)-1
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if h.cum[mid] > n {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return int64(lo+1) * h.blockSize
}

// Max returns the largest size Next can return: that of the last bucket
// with a positive count.
func (h *Histogram) Max() int64 {
	total := h.cum[len(h.cum)-1]
	last := len(h.cum) - 1
	for last > 0 && h.cum[last-1] == total {
		last--
	}
	return int64(last+1) * h.blockSize
}
