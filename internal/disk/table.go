package disk

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/mongobench/mongobench/internal/results"
)

// Table is the baseline as mongobench disk prints it: one line per test,
// then the ceiling.
func Table(b *results.DiskBaseline) string {
	var sb strings.Builder
	device := b.Device
	if device == "" {
		device = "unknown device"
	}
	fmt.Fprintf(&sb, "disk baseline of %s (%s), %s, %s test file, %s per test\n",
		b.Dir, device, b.FioVersion, FormatSize(b.SizeBytes), strconv.FormatFloat(b.RuntimeS, 'f', -1, 64)+" s")
	tw := tabwriter.NewWriter(&sb, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "test\tblock\tdepth\tIOPS\tMB/s\tmean(us)\tp50(us)\tp99(us)\tp99.9(us)\tmax(us)\t")
	for _, t := range b.Tests {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", t.Name, FormatSize(t.BlockBytes), t.QueueDepth,
			Thousands(t.IOPS), strconv.FormatFloat(t.MBPerS, 'f', 1, 64),
			Thousands(t.LatMeanUs), Thousands(t.LatP50Us), Thousands(t.LatP99Us), Thousands(t.LatP999Us), Thousands(t.LatMaxUs))
	}
	_ = tw.Flush()
	c := b.Ceiling()
	fmt.Fprintf(&sb, "ceiling: %s random-read IOPS, %s random-write IOPS (4 KiB, best depth), %s MB/s sequential read, %s MB/s sequential write\n",
		Thousands(c.RandReadIOPS), Thousands(c.RandWriteIOPS), Thousands(c.SeqReadMBPerS), Thousands(c.SeqWriteMBPerS))
	return sb.String()
}

// Thousands rounds v to a whole number and groups its digits: 9,800.
func Thousands(v float64) string {
	s := strconv.FormatFloat(v, 'f', 0, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}
