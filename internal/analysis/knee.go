package analysis

import (
	"fmt"
	"slices"

	"github.com/mongobench/mongobench/internal/stats"
)

// KneeDims are the properties along which a knee means saturation, with
// how the knee's sentence names their values.
var KneeDims = map[string]string{"threadcount": "threads", "target": "ops/s target", "mongodb.maxconnections": "connections"}

// XDim picks, among the varied properties, the one the knee is sought
// along and that varies fastest: threads, else the target rate, else the
// first varied.
func XDim(varied []string) string {
	for _, n := range []string{"threadcount", "target", "mongodb.maxconnections"} {
		if slices.Contains(varied, n) {
			return n
		}
	}
	if len(varied) > 0 {
		return varied[0]
	}
	return ""
}

// Knee is the knee of one series, or why it has none.
type Knee struct {
	// Found is true when the series has a knee; Result says where.
	Found  bool
	Result stats.KneeResult
	// Text states the knee ("knee: …") or why there is none ("no knee: …"),
	// in lower case, without a full stop.
	Text string
}

// KneeOf seeks the knee of a series varied along x through pts (the
// points' KneePoint), with the thresholds of opts.
func KneeOf(x string, pts []stats.Point, opts stats.KneeOptions) Knee {
	xLabel, ok := KneeDims[x]
	if !ok {
		return Knee{Text: fmt.Sprintf("no knee: a knee is sought along threadcount, target or mongodb.maxconnections, and this sweep varies %s", orText(x, "nothing"))}
	}
	opts.XLabel = xLabel
	k := stats.Knee(pts, opts)
	if k.Found {
		return Knee{Found: true, Result: k, Text: "knee: " + k.Summary}
	}
	return Knee{Result: k, Text: k.String()}
}
