package report

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/golden"
	"github.com/mongobench/mongobench/internal/results"
)

// ranOnInput is a study of two configurations that differ in their
// server's version and engine at once, with the warnings the caller
// derives from them, and a data size that grew along the sweep.
func ranOnInput() *Input {
	in := studyInput()
	in.RanOn = &RanOn{
		Names: []string{"ssd", "essd"},
		Rows: []RanOnRow{
			{"server", []string{"MongoDB 7.0.42", "MongoDB 6.0.5"}},
			{"storage engine", []string{"wiredTiger", "inMemory"}},
			{"topology", []string{"replica set rs0, 3 members", "replica set rs0, 3 members"}},
			{"WiredTiger cache size", []string{"8 GiB", ""}},
			{"mongobench's host: CPUs", []string{"2", "2"}},
		},
		Differ: []RanOnRow{
			{"server", []string{"MongoDB 7.0.42", "MongoDB 6.0.5"}},
			{"storage engine", []string{"wiredTiger", "inMemory"}},
		},
		Varied: []RanOnRow{{"threadcount", []string{"1, 4, 16", "1, 4, 16"}}},
	}
	in.Warnings = []string{
		"The configurations differ in 2 things at once: server (ssd MongoDB 7.0.42, essd MongoDB 6.0.5), storage engine (ssd wiredTiger, essd inMemory); whichever the study meant to compare, the others are mixed into every difference it shows.",
		"ssd: the data size at the start changed from 976 KiB at threadcount=1 to 1.9 MiB at threadcount=16 along the sweep (2×) while only threadcount was varied: the points are not comparable in data size; sweep with --reload so that every trial starts from the same data.",
	}
	return in
}

func TestRanOnGolden(t *testing.T) {
	t.Parallel()
	golden.Check(t, "ranon.golden.html", withoutStyle(t, render(t, ranOnInput())))
}

// TestRanOnPage checks where the page says what each configuration ran
// on: its warnings at the top, before the conclusion, and its tables
// right after the conclusion, before any chart.
func TestRanOnPage(t *testing.T) {
	t.Parallel()
	out := render(t, ranOnInput())
	banner := strings.Index(out, `<div class="banner" role="alert">The configurations differ in 2 things at once`)
	confound := strings.Index(out, `<div class="banner" role="alert">ssd: the data size at the start changed from 976 KiB`)
	conclusion := strings.Index(out, `<section id="conclusion">`)
	ranOn := strings.Index(out, `<section id="ran-on">`)
	study := strings.Index(out, `<section id="study">`)
	if banner < 0 || confound < 0 || !(banner < conclusion && confound < conclusion && conclusion < ranOn && ranOn < study) {
		t.Errorf("banners at %d and %d, conclusion at %d, ran-on at %d, study at %d: want the banners first, then conclusion, ran-on and study", banner, confound, conclusion, ranOn, study)
	}
	sec := section(out, "ran-on")
	for _, want := range []string{
		"<h3>What each configuration ran on</h3>",
		`<tr><td class="text">WiredTiger cache size</td><td>8 GiB</td><td>not recorded</td></tr>`,
		"<h3>How these configurations differ</h3>",
		`<tr><td class="text">threadcount</td><td>1, 4, 16</td><td>1, 4, 16</td></tr>`,
	} {
		if !strings.Contains(sec, want) {
			t.Errorf("the section lacks %q:\n%s", want, sec)
		}
	}
	if !strings.Contains(out, `<a href="#ran-on">Ran on</a>`) {
		t.Error("no link to the section")
	}

	// Configurations that differ in nothing recorded say so, and still
	// table what their sweeps vary.
	in := ranOnInput()
	in.RanOn.Differ = nil
	sec = section(render(t, in), "ran-on")
	if !strings.Contains(sec, "In nothing recorded: the same server, engine, topology and hosts. The table gives the properties the sweeps vary") ||
		!strings.Contains(sec, `<tr><td class="text">threadcount</td>`) {
		t.Errorf("no difference not said:\n%s", sec)
	}
	in.RanOn.Varied = nil
	if sec := section(render(t, in), "ran-on"); !strings.Contains(sec, "In nothing recorded: the same server, engine, topology and hosts, and no property varied or allowed to differ.") {
		t.Errorf("no difference at all not said:\n%s", sec)
	}
	// One configuration has no differences to table.
	in.RanOn = &RanOn{Names: []string{"sweep"}, Rows: []RanOnRow{{"server", []string{"MongoDB 7.0.42"}}}}
	if sec := section(render(t, in), "ran-on"); !strings.Contains(sec, "<h3>What the runs ran on</h3>") || strings.Contains(sec, "How these configurations differ") {
		t.Errorf("one configuration:\n%s", sec)
	}
	in.RanOn = &RanOn{Names: []string{"sweep"}}
	if strings.Contains(render(t, in), `<section id="ran-on">`) {
		t.Error("a section with nothing recorded")
	}
}

// TestRegimeFindingOnlyWhenSizesChange checks that the sweep's regime
// sentence speaks of the data only when its size changed by more than
// the limit, and says nothing when nothing else changed either.
func TestRegimeFindingOnlyWhenSizesChange(t *testing.T) {
	t.Parallel()
	w := sweepWords{varied: "threadcount"}
	point := func(x, tput float64, r *results.Results) SweepPoint {
		return SweepPoint{X: x, Throughput: tput, Trials: 1, Runs: []*results.Results{r}}
	}
	sizeOnly := func(mb float64) *results.Results {
		r := regimeRun(mb, 0.2, [3]float64{}, [3]float64{}, [3]float64{})
		r.Extra.ServerMetrics, r.Extra.HostMetrics = nil, nil
		return r
	}
	tests := []struct {
		name string
		a, b *results.Results
		want string
	}{
		{"1 MiB to 1.04 MiB, nothing else", sizeOnly(1), sizeOnly(1.04), ""},
		{"1 MiB to 1.9 MiB", sizeOnly(1), sizeOnly(1.9),
			"From 1 to 4 threads, the data at the end of the runs went from 1 MiB to 1.9 MiB, and throughput went from 1,000 to 1,500 ops/s (means over the trials)."},
		{"the same size, the cache changed",
			regimeRun(1, 0.2, [3]float64{0.99, 0.99, 0.99}, [3]float64{0, 0, 0}, [3]float64{5, 5, 5}),
			regimeRun(1.04, 0.2, [3]float64{0.5, 0.5, 0.5}, [3]float64{1, 1, 1}, [3]float64{5, 5, 5}),
			"From 1 to 4 threads, the cache hit ratio went from 99% to 50%, the data read into the cache went from 0 to 3 MB, the busiest disk stayed at 5 IOPS, and throughput went from 1,000 to 1,500 ops/s (means over the trials)."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := regimeFinding(w, []SweepPoint{point(1, 1000, tt.a), point(4, 1500, tt.b)}); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
