package cli

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/analysis"
	"github.com/mongobench/mongobench/internal/comparetext"
	htmlreport "github.com/mongobench/mongobench/internal/report"
	"github.com/mongobench/mongobench/internal/results"
	"github.com/mongobench/mongobench/internal/results/resultstest"
)

// aaStudy is an A/A study as a busy two-core machine records it: one
// configuration run as three labelled groups, each a thread sweep of six
// points with two trials, the server saturating at 4 threads. The trials
// scatter as such a machine's do: a few percent of noise, and now and then
// a run that another process slowed by a third. seed fixes the draw.
func aaStudy(t *testing.T, seed uint64) [][]analysis.Run {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0xa4a))
	noise := func() float64 {
		f := 1 + 0.06*rng.NormFloat64()
		if rng.Float64() < 0.08 {
			f *= 0.67
		}
		return math.Max(f, 0.2)
	}
	groups := make([][]analysis.Run, 3)
	for g := range groups {
		for _, th := range []float64{1, 2, 4, 8, 16, 32} {
			for trial := 1; trial <= 2; trial++ {
				f := noise()
				tput := 1000 * math.Min(th, 4) * f
				base := int64(math.Round(400 * th / math.Min(th, 4) / f))
				m := &results.SweepMark{ID: fmt.Sprintf("aa-%d-%d", seed, g), Varied: []string{"threadcount"},
					Point: map[string]string{"threadcount": strconv.FormatFloat(th, 'f', -1, 64)}, Trial: trial}
				res := resultstest.Results(t, resultstest.Spec{Throughput: tput, LatencyUs: map[string]int64{"READ": base}, Mark: m,
					Config: map[string]string{"threadcount": strconv.FormatFloat(th, 'f', -1, 64)}})
				groups[g] = append(groups[g], analysis.NewRun(res, "aa", 0))
			}
		}
	}
	return groups
}

// findingsRE are the sentences that state a difference between
// configurations: a headline verdict, a "best" line, a fastest task.
var findingsRE = regexp.MustCompile(`<li class="(better|worse)">|has the best|took the least time|significantly better in [1-9]|worse in [1-9]`)

// kneeSpanRE reads where a knee sentence puts the knee: "between 2 and 4
// threads", or up to "at or before 4" and "beyond 1".
var kneeSpanRE = regexp.MustCompile(`(?:between (\d+) and |at or before ()|does not rise beyond ())(\d+) thread`)

// TestAAStudyStatesNothing runs recorded A/A studies through compare and
// the report: the same configuration three times must not come out as
// different. Each study is some fifty tests per comparison, so chance
// alone would find a difference in most of them were the verdicts not
// corrected; corrected, at most one study in ten may state one (the
// study's α is 5%, the captions' share of it as much again).
func TestAAStudyStatesNothing(t *testing.T) {
	t.Parallel()
	refs := []string{"v1", "v2", "v3"}
	const studies = 20
	var stating []string
	kneesStated := 0
	var wrongKnees []string
	for seed := uint64(1); seed <= studies; seed++ {
		groups := aaStudy(t, seed)
		st, err := newStudy(refs, groups, 0, 0.05, nil)
		if err != nil {
			t.Fatal(err)
		}
		var text bytes.Buffer
		comparetext.Write(&text, textFormat, refs, st)
		in, _, err := reportPage(&reportOptions{refs: refs, opts: htmlreport.Options{Alpha: 0.05}}, groups)
		if err != nil {
			t.Fatal(err)
		}
		var page bytes.Buffer
		if err := htmlreport.Render(&page, in); err != nil {
			t.Fatal(err)
		}
		found := findingsRE.FindAllString(text.String()+page.String(), -1)
		if len(found) > 0 {
			stating = append(stating, fmt.Sprintf("seed %d: %q", seed, found))
		}
		// Every comparison says there is no difference, in those words,
		// unless it is one of the few that chance lets through.
		if len(found) == 0 && strings.Count(text.String(), "verdict: no significant difference between ") != 2 {
			t.Errorf("seed %d: compare does not say \"no significant difference\" for both comparisons:\n%s", seed, text.String())
		}
		if len(found) == 0 && !strings.Contains(page.String(), "No difference between v2 and v1 is significant") {
			t.Errorf("seed %d: the page does not say there is no significant difference", seed)
		}
		// A knee stated must hold the server's: it saturates at 4 threads.
		for _, s := range in.Study.Series {
			if s.Knee == nil {
				continue
			}
			kneesStated++
			m := kneeSpanRE.FindStringSubmatch(s.KneeSentence)
			if m == nil {
				t.Errorf("seed %d: %s: knee sentence %q names no span", seed, s.Name, s.KneeSentence)
				continue
			}
			lo, _ := strconv.ParseFloat(m[1], 64)
			hi, _ := strconv.ParseFloat(m[4], 64)
			if m[1] == "" {
				lo = 1
			}
			if !(lo <= 4 && 4 <= hi) {
				wrongKnees = append(wrongKnees, fmt.Sprintf("seed %d: %s: %s", seed, s.Name, s.KneeSentence))
			}
		}
	}
	t.Logf("%d of %d A/A studies stated a difference; %d of %d lines stated a knee, %d of them where the server does not saturate", len(stating), studies, kneesStated, 3*studies, len(wrongKnees))
	if len(wrongKnees) > studies/10 {
		t.Errorf("%d knees stated where the server does not saturate:\n%s", len(wrongKnees), strings.Join(wrongKnees, "\n"))
	}
	if len(stating) > studies/10 {
		t.Errorf("%d of %d A/A studies state a difference, want at most %d:\n%s", len(stating), studies, studies/10, strings.Join(stating, "\n"))
	}
}
