package generator

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestHistogramDistribution(t *testing.T) {
	t.Parallel()
	// testdata/hist.txt: block size 10, bucket counts 1, 0, 3.
	h, err := LoadHistogram(filepath.Join("testdata", "hist.txt"))
	if err != nil {
		t.Fatal(err)
	}
	const draws = 200_000
	r := newRand(20)
	counts := map[int64]int{}
	for range draws {
		counts[h.Next(r)]++
	}
	// Bucket i yields (i+1)*blockSize with probability count/area.
	want := map[int64]float64{10: 0.25, 30: 0.75}
	for v, c := range counts {
		if _, ok := want[v]; !ok {
			t.Errorf("Next = %d (%d times), want only 10 and 30", v, c)
		}
	}
	for v, p := range want {
		within(t, "share of size", float64(counts[v])/draws, p, fiveSigma(p, draws))
	}
}

func TestHistogramSingleBucket(t *testing.T) {
	t.Parallel()
	h, err := NewHistogram(512, []int64{7})
	if err != nil {
		t.Fatal(err)
	}
	r := newRand(21)
	for range 100 {
		if got := h.Next(r); got != 512 {
			t.Fatalf("Next = %d, want 512 (the one bucket's upper end)", got)
		}
	}
}

func TestParseHistogram(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		wantErr string // empty: parses, with wantCum
		wantBS  int64
		wantCum []int64
	}{
		{name: "ycsb format", in: "BlockSize\t10\n0\t1\n1\t0\n2\t3\n", wantBS: 10, wantCum: []int64{1, 1, 4}},
		{name: "crlf, blank lines, no final newline", in: "BlockSize\t4\r\n\r\n0\t2\r\n\n1\t2", wantBS: 4, wantCum: []int64{2, 4}},
		{name: "byte-order mark", in: "\uFEFFBlockSize\t10\r\n0\t1\r\n", wantBS: 10, wantCum: []int64{1}},
		{name: "spaces around numbers", in: "BlockSize\t 8 \n0\t 5\n", wantBS: 8, wantCum: []int64{5}},
		{
			name:    "empty",
			in:      "",
			wantErr: `histogram h.txt is empty: expected "BlockSize<TAB><n>" on its first line`,
		},
		{
			name:    "only blank lines",
			in:      "\n\n",
			wantErr: `histogram h.txt is empty: expected "BlockSize<TAB><n>" on its first line`,
		},
		{
			name:    "missing block size line",
			in:      "0\t5\n",
			wantErr: `histogram h.txt, line 1: expected "BlockSize<TAB><n>" first, got "0\t5"`,
		},
		{
			name:    "block size with a space",
			in:      "BlockSize 10\n0\t5\n",
			wantErr: `histogram h.txt, line 1: expected "BlockSize<TAB><n>" first, got "BlockSize 10"`,
		},
		{
			name:    "block size not a number",
			in:      "BlockSize\tten\n0\t5\n",
			wantErr: `histogram h.txt, line 1: block size "ten" is not a positive integer`,
		},
		{
			name:    "zero block size",
			in:      "BlockSize\t0\n0\t5\n",
			wantErr: `histogram h.txt, line 1: block size "0" is not a positive integer`,
		},
		{
			name:    "bucket line without a tab",
			in:      "BlockSize\t10\n0\t5\n1 5\n",
			wantErr: `histogram h.txt, line 3: expected "<bucket><TAB><count>", got "1 5"`,
		},
		{
			name:    "bucket not a number",
			in:      "BlockSize\t10\nx\t5\n",
			wantErr: `histogram h.txt, line 2: bucket "x" is not an integer`,
		},
		{
			name:    "gap in buckets",
			in:      "BlockSize\t10\n0\t5\n2\t5\n",
			wantErr: `histogram h.txt, line 3: bucket 2 out of order: expected bucket 1`,
		},
		{
			name:    "buckets not from 0",
			in:      "BlockSize\t10\n\n1\t5\n",
			wantErr: `histogram h.txt, line 3: bucket 1 out of order: expected bucket 0`,
		},
		{
			name:    "negative count",
			in:      "BlockSize\t10\n0\t-5\n",
			wantErr: `histogram h.txt, line 2: count "-5" is not a non-negative integer`,
		},
		{
			name:    "count not a number",
			in:      "BlockSize\t10\n0\t5.5\n",
			wantErr: `histogram h.txt, line 2: count "5.5" is not a non-negative integer`,
		},
		{
			name:    "counts overflow",
			in:      "BlockSize\t10\n0\t9223372036854775807\n1\t1\n",
			wantErr: `histogram h.txt, line 3: the counts add up to more than 2^63-1`,
		},
		{
			name:    "sizes overflow",
			in:      "BlockSize\t4611686018427387904\n0\t1\n1\t1\n",
			wantErr: `histogram h.txt, line 3: bucket 1 of block size 4611686018427387904 overflows a 64-bit size`,
		},
		{
			name:    "no counts",
			in:      "BlockSize\t10\n0\t0\n1\t0\n",
			wantErr: `histogram h.txt: no bucket has a positive count`,
		},
		{
			name:    "no buckets",
			in:      "BlockSize\t10\n",
			wantErr: `histogram h.txt: no bucket has a positive count`,
		},
		{
			name:    "line too long",
			in:      "BlockSize\t10\n0\t" + strings.Repeat("1", 70_000) + "\n",
			wantErr: `histogram h.txt, line 2: bufio.Scanner: token too long`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h, err := ParseHistogram(strings.NewReader(tt.in), "h.txt")
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error = %v\nwant    %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if h.blockSize != tt.wantBS || !slices.Equal(h.cum, tt.wantCum) {
				t.Errorf("block size %d, cumulative counts %v; want %d, %v", h.blockSize, h.cum, tt.wantBS, tt.wantCum)
			}
		})
	}
}

func TestNewHistogramErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		blockSize int64
		counts    []int64
		wantErr   string
	}{
		{"zero block size", 0, []int64{1}, "histogram: block size 0 is not positive"},
		{"negative count", 1, []int64{1, -1}, "histogram: bucket 1 has a negative count (-1)"},
		{"overflowing counts", 1, []int64{math.MaxInt64, 1}, "histogram: the counts add up to more than 2^63-1"},
		{"overflowing sizes", math.MaxInt64, []int64{1, 1}, "histogram: 2 buckets of block size 9223372036854775807 overflow a 64-bit size"},
		{"no buckets", 1, nil, "histogram: no bucket has a positive count"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := NewHistogram(tt.blockSize, tt.counts); err == nil || err.Error() != tt.wantErr {
				t.Errorf("error = %v, want %s", err, tt.wantErr)
			}
		})
	}
}

func TestNewFieldLength(t *testing.T) {
	t.Parallel()
	hist := filepath.Join("testdata", "hist.txt")
	tests := []struct {
		name     string
		dist     string
		min, max int64
		file     string
		wantLo   int64 // every draw within [wantLo, wantHi]
		wantHi   int64
		wantMode int64 // the most frequent length
	}{
		{"constant uses fieldlength", "constant", 1, 100, "", 100, 100, 100},
		{"constant zero", "constant", 0, 0, "", 0, 0, 0},
		{"uniform", "uniform", 1, 100, "", 1, 100, -1},
		{"uniform single", "uniform", 7, 7, "", 7, 7, 7},
		{"zipfian favours short fields", "zipfian", 10, 100, "", 10, 100, 10},
		{"histogram", "histogram", 1, 100, hist, 10, 30, 30},
	}
	const draws = 50_000
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := NewFieldLength(tt.dist, tt.min, tt.max, tt.file)
			if err != nil {
				t.Fatal(err)
			}
			r := newRand(22)
			counts := map[int64]int{}
			for range draws {
				v := c.Next(r)
				if v < tt.wantLo || v > tt.wantHi {
					t.Fatalf("Next = %d, outside [%d, %d]", v, tt.wantLo, tt.wantHi)
				}
				counts[v]++
			}
			if counts[tt.wantLo] == 0 || counts[tt.wantHi] == 0 {
				t.Errorf("lengths %d and %d not both drawn", tt.wantLo, tt.wantHi)
			}
			if tt.wantMode >= 0 {
				for v, n := range counts {
					if n > counts[tt.wantMode] {
						t.Errorf("length %d drawn %d times, more than the expected mode %d (%d times)", v, n, tt.wantMode, counts[tt.wantMode])
					}
				}
			}
		})
	}
}

func TestNewFieldLengthErrors(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "nope.txt")
	bad := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(bad, []byte("BlockSize\t10\n0\tmany\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		dist     string
		min, max int64
		file     string
		wantErr  string
	}{
		{"unknown", "gaussian", 1, 100, "", `fieldlengthdistribution="gaussian" is unknown: accepted values are constant, uniform, zipfian, histogram`},
		{"names are case-sensitive as in YCSB", "Uniform", 1, 100, "", `fieldlengthdistribution="Uniform" is unknown: accepted values are constant, uniform, zipfian, histogram`},
		{"negative constant", "constant", 1, -1, "", "fieldlength=-1 is negative"},
		{"uniform min above max", "uniform", 10, 5, "", "fieldlengthdistribution=uniform needs 0 <= minfieldlength <= fieldlength, got minfieldlength=10 fieldlength=5"},
		{"zipfian negative min", "zipfian", -1, 5, "", "fieldlengthdistribution=zipfian needs 0 <= minfieldlength <= fieldlength, got minfieldlength=-1 fieldlength=5"},
		{"missing histogram file", "histogram", 1, 100, missing, "fieldlengthhistogram: reading histogram: open " + missing + ": no such file or directory"},
		{"malformed histogram file", "histogram", 1, 100, bad, "fieldlengthhistogram: histogram " + bad + `, line 2: count "many" is not a non-negative integer`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := NewFieldLength(tt.dist, tt.min, tt.max, tt.file); err == nil || err.Error() != tt.wantErr {
				t.Errorf("error = %v\nwant    %s", err, tt.wantErr)
			}
		})
	}
}

func FuzzParseHistogram(f *testing.F) {
	for _, name := range []string{"hist.txt", "hist_crlf.txt"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("BlockSize\t1\n0\t0\n1\t9223372036854775807\n"))
	f.Add([]byte("BlockSize\t-3\n"))
	f.Add([]byte("\uFEFFBlockSize\t2\n0\t1\n"))
	f.Add([]byte("\n\nBlockSize\t7\n0\t1\n\n1\t2"))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := ParseHistogram(strings.NewReader(string(data)), "fuzz")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "histogram fuzz") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if h.blockSize <= 0 || len(h.cum) == 0 || h.cum[len(h.cum)-1] <= 0 {
			t.Fatalf("accepted a histogram that cannot draw: block size %d, cumulative counts %v", h.blockSize, h.cum)
		}
		r := newRand(23)
		top := int64(len(h.cum)) * h.blockSize
		for range 50 {
			v := h.Next(r)
			if v < h.blockSize || v > top || v%h.blockSize != 0 {
				t.Fatalf("Next = %d, want a multiple of %d in [%d, %d]", v, h.blockSize, h.blockSize, top)
			}
			// A bucket with no count is never drawn.
			i := v/h.blockSize - 1
			prev := int64(0)
			if i > 0 {
				prev = h.cum[i-1]
			}
			if h.cum[i] == prev {
				t.Fatalf("Next = %d, from bucket %d which has count 0", v, i)
			}
		}
	})
}
