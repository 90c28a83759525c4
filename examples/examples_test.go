package examples

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/pagecheck"
)

// examples are the scripts and what each page must show besides its
// conclusion: the sections its study is about.
var examples = []struct {
	name     string
	sections []string
	// minCharts is the fewest charts the page must hold.
	minCharts int
	// has and hasNot are what the page must and must not say: what the
	// field report's study is about, and the mistakes it once made. An
	// entry of has may give alternatives, separated by " | ".
	has, hasNot []string
}{
	{"ssd-vs-essd", []string{"study", "sizes", "comparison"}, 3, nil, nil},
	// A disk baseline, or the reason there is none (fio missing).
	{"working-set", []string{"sweep"}, 3, []string{"The baseline of | No disk baseline:"}, nil},
	// Repeated cells have verdicts; an insert study counts documents.
	{"insert-matrix", []string{"study", "comparison"}, 3,
		[]string{"Throughput (docs/s)", "documents per second"}, []string{"no verdict possible", "Throughput (ops/s)"}},
	// The native insert benchmark: its named operation compared per instance.
	{"insert-1k", []string{"study", "comparison"}, 3,
		[]string{"<td>insert</td>"}, []string{"no verdict possible", "INSERT"}},
	// Without SHARDED_URL the sharding is simulated, and the page says so.
	{"sharded-vs-not", []string{"study", "comparison"}, 3, []string{"Simulated:"}, nil},
	// The native task study: each task a kind of its own, the sizes
	// allowed to differ, every delete finding its post.
	{"tasks", []string{"tasks", "sizes", "comparison"}, 3,
		[]string{"native.task=insert", "native.task=query", "native.task=delete", "native.text 20 vs 2000", ">run: delete</td>"},
		[]string{"NOT_FOUND", "No verdicts on the page"}},
	// The shop: each of its operations compared server against server.
	{"shop", []string{"tasks", "sizes", "comparison"}, 3,
		[]string{"run phase order-history latency", "run phase checkout latency", "run phase sales-report latency", ">load: load-shop</td>"},
		[]string{"No verdicts on the page", "Return=ERROR"}},
	// Each engine compared with A task by task and mix by mix; deletes
	// that each found their document.
	{"engines", []string{"study", "tasks", "sizes", "comparison", "comparison-2"}, 4,
		[]string{"Per-point detail: B against A", "Per-point detail: C against A", "deleteproportion=1",
			"insertproportion=0.05 readproportion=0.95", "insertproportion=0.10 readproportion=0.90"},
		[]string{"No verdicts on the page", "NOT_FOUND"}},
	// TPC-C's transactions as the operations, batching off compared with
	// on point by point; no CoreWorkload operation among them.
	{"tpcc-threads", []string{"study", "comparison"}, 3,
		[]string{"<td>NewOrder</td>", "<td>Payment</td>", "Per-point detail: batch-false against batch-true",
			`<figure id="study-tpmc">`, "tpmC against client threads", "tpmC</td>"},
		[]string{"<td>READ</td>", "<td>UPDATE</td>"}},
}

// singleRuns are the examples whose studies are of single runs, no
// sweep: no regime at each point, their sizes in the sizes section.
var singleRuns = map[string]bool{"tasks": true, "shop": true}

var (
	chartRE   = regexp.MustCompile(`<svg class="chart"`)
	findingRE = regexp.MustCompile(`<p class="finding">|<ul class="verdicts">`)
	// regimeRE is a regime table's row with a data size in it.
	regimeRE = regexp.MustCompile(`<h3>Regime at each point</h3>(?s:.*?)<td>[0-9.,]+ (KiB|MiB|GiB)</td>`)
)

// TestExamples runs every example at SCALE=small against embedded servers
// and checks its page: the conclusion with a finding, the study's
// sections, its charts, and the page in a browser (charts drawn, no table
// cut off), with a screenshot kept in $MONGOBENCH_ARTIFACTS.
func TestExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("the examples run studies: not in -short")
	}
	browser := pagecheck.Browser(t)
	bin := filepath.Join(t.TempDir(), "mongobench")
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go not on the PATH to build mongobench: %v", err)
	}
	build := exec.Command(gobin, "build", "-o", bin, "../cmd/mongobench")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	scripts, _ := filepath.Glob("*.sh")
	if len(scripts) != len(examples)+1 { // and lib.sh
		t.Errorf("%d scripts beside lib.sh, %d examples checked: check every one", len(scripts)-1, len(examples))
	}
	for _, ex := range examples {
		// One at a time: each starts servers and runs sweeps, and CI
		// machines are small.
		t.Run(ex.name, func(t *testing.T) {
			out := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "bash", ex.name+".sh")
			cmd.Env = append(cleanEnv(), "SCALE=small", "MONGOBENCH="+bin, "OUT="+out)
			cmd.WaitDelay = 10 * time.Second
			log, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s.sh: %v\n%s", ex.name, err, log)
			}
			b, err := os.ReadFile(filepath.Join(out, ex.name+".html"))
			if err != nil {
				t.Fatalf("no page: %v\n%s", err, log)
			}
			page := string(b)
			if !strings.Contains(page, `<section id="conclusion">`) || !findingRE.MatchString(page) {
				t.Errorf("the page has no conclusion with a finding")
			}
			for _, s := range ex.sections {
				if !strings.Contains(page, `<section id="`+s+`">`) {
					t.Errorf("the page has no %q section", s)
				}
			}
			if n := len(chartRE.FindAllString(page, -1)); n < ex.minCharts {
				t.Errorf("%d charts, want at least %d", n, ex.minCharts)
			}
			if !singleRuns[ex.name] && !regimeRE.MatchString(page) {
				t.Errorf("the page has no regime table with the data's size")
			}
			for _, s := range ex.has {
				if !slices.ContainsFunc(strings.Split(s, " | "), func(alt string) bool { return strings.Contains(page, alt) }) {
					t.Errorf("the page does not say %q", s)
				}
			}
			for _, s := range ex.hasNot {
				if strings.Contains(page, s) {
					t.Errorf("the page says %q", s)
				}
			}
			pagecheck.Check(t, browser, page, "example-"+ex.name+".png")
		})
	}
}

// cleanEnv is the test's environment without the servers' URLs and the
// store a caller may have set: the examples start their own.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasSuffix(k, "_URL") || k == "MONGOBENCH_STORE" || k == "SCALE" || k == "OUT" || k == "MONGOBENCH" {
			continue
		}
		env = append(env, kv)
	}
	return env
}
