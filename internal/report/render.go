package report

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mongobench/mongobench/internal/diagnosis"
	"github.com/mongobench/mongobench/internal/printable"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/results"
)

//go:embed report.html.tmpl
var pageSource string

//go:embed style.css
var styleSheet string

var pageTemplate = template.Must(template.New("report").Parse(pageSource))

// Render writes the report of in to w as one self-contained HTML page: no
// script, every style inlined, every chart an inline SVG. Nothing is written
// when the input is unusable.
func Render(w io.Writer, in *Input) error {
	p, err := build(in)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := pageTemplate.Execute(&buf, p); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	// Labels, titles, commands and messages come from users and servers:
	// a control character in any of them would be a parse error in the
	// page, an escape sequence a surprise in a terminal showing it.
	if _, err := io.WriteString(w, printable.Text(buf.String())); err != nil {
		return fmt.Errorf("report: write: %w", err)
	}
	return nil
}

// page is what the template shows.
type page struct {
	Title     string
	Generated string
	Version   string
	Source    string
	CSS       template.CSS
	Banners   []string
	Nav       []navItem
	RunRows   []runRow
	// RunLabels is set when several runs share a label (-l), as the runs
	// of a labelled sweep do: the runs table then shows the labels, which
	// is how the groups of a comparison are told apart.
	RunLabels   bool
	Conclusion  *conclusionView
	RanOn       *ranOnView
	Study       *studyView
	Sizes       *tableView
	Tasks       *tasksView
	Comparisons []*compView
	Sweep       *sweepView
	Config      *configView
	Runs        []runView
}

type navItem struct{ ID, Text string }

// figureView is one chart with its title, its one-sentence finding and a
// note on what exactly is plotted.
type figureView struct {
	ID       string
	Title    string
	Sentence string
	Note     string
	SVG      template.HTML
}

// runRow is a run's line in the table of runs.
type runRow struct {
	ID, Name, Label, Phase, Start, Duration, Operations, Throughput string
	// Limit is what limited the run (its diagnosis).
	Limit   string
	Partial bool
}

// runView is the section of one run.
type runView struct {
	ID      string
	Name    string
	Open    bool
	Partial bool
	Command string
	Overall string
	Summary []summaryRow
	Figures []figureView
	Metrics []metricsView
	Notes   []string
	// Diagnosis says what limited the run.
	Diagnosis *diagnosisView
	// Thresholds are its --threshold limits and their outcomes.
	Thresholds []thresholdRow
	// TPCC is a TPC-C run's retries, aborts and rollbacks per transaction.
	TPCC *tableView
}

// summaryRow is one line of a run's YCSB summary table.
type summaryRow struct {
	Name                                          string
	Count, Avg, P50, P95, P99, P999, Max, Returns string
	Failed, Intended                              bool
}

// metricsView is the server or host metrics of a run.
type metricsView struct {
	Title   string
	Figures []figureView
	Absent  string
	Notes   []string
}

// configView shows the resolved configuration and how runs differ.
type configView struct {
	Source   string
	Rows     [][2]string
	DiffHead []string
	DiffRows []diffRow
}

type diffRow struct {
	Key    string
	Values []string
}

// sweepView is the section of a sweep.
type sweepView struct {
	Title        string
	KneeSentence string
	KneeIsNote   bool
	Figures      []figureView
	Head         []string
	Rows         []sweepRow
	Regime       *tableView
}

type sweepRow struct {
	Cells []cell
	Knee  bool
}

// cell is a table cell: a value and, in small print under it, its
// confidence interval.
type cell struct{ V, Sub string }

// compView is the section of a comparison.
type compView struct {
	ID      string
	A, B    string
	Notes   []string
	Figures []figureView
	Rows    []compRow
}

type compRow struct {
	Name, Change, Verdict, Class string
	A, B                         cell
}

// build turns the input into the page the template shows.
// verdictBanner says, from the run's one diagnosis d, that its figures
// describe something other than the server: its client's CPU, or a host
// busy with other processes; "" otherwise. It repeats the verdict the
// runs table and the run's section give, so the page cannot contradict
// itself.
func verdictBanner(d *results.Diagnosis, name string) string {
	if d == nil || len(d.Limits) == 0 || d.Limits[0].Borderline {
		return ""
	}
	l := d.Limits[0]
	why := ""
	if n := len(l.Evidence); n > 0 {
		// The figure that decided it: the client's own use comes first,
		// the other processes' share last.
		why = l.Evidence[0]
		if l.Kind == diagnosis.HostBusy {
			why = l.Evidence[n-1]
		}
		why = " (" + why + ")"
	}
	switch l.Kind {
	case diagnosis.ClientCPU:
		return fmt.Sprintf("%s was limited by its client's CPU: its throughput and latencies describe the client more than the server%s.", capitalize(name), why)
	case diagnosis.HostBusy:
		return fmt.Sprintf("%s ran on a host busy with other processes: its figures describe a shared machine, not the server%s.", capitalize(name), why)
	}
	return ""
}

// verdictBanners are the banners of the runs whose verdict makes their
// figures describe something else than the server: one per run, or one
// per verdict naming its runs when several share it (a study on a busy
// machine would otherwise open with a banner per run).
func verdictBanners(diags []*results.Diagnosis, names []string) []string {
	var kinds []string
	byKind := map[string][]int{}
	for i, d := range diags {
		if verdictBanner(d, names[i]) == "" {
			continue
		}
		k := d.Limits[0].Kind
		if byKind[k] == nil {
			kinds = append(kinds, k)
		}
		byKind[k] = append(byKind[k], i)
	}
	var out []string
	for _, k := range kinds {
		runs := byKind[k]
		if len(runs) == 1 {
			out = append(out, verdictBanner(diags[runs[0]], names[runs[0]]))
			continue
		}
		list := make([]string, len(runs))
		for j, i := range runs {
			list[j] = names[i]
		}
		what := fmt.Sprintf("%d of the %d runs (%s)", len(runs), len(diags), joinList(list))
		switch k {
		case diagnosis.ClientCPU:
			out = append(out, fmt.Sprintf("%s were limited by their client's CPU: their throughput and latencies describe the client more than the server; each run's evidence is under \"What limited it\".", capitalize(what)))
		case diagnosis.HostBusy:
			out = append(out, fmt.Sprintf("%s ran on a host busy with other processes: their figures describe a shared machine, not the server; each run's evidence is under \"What limited it\".", capitalize(what)))
		}
	}
	return out
}

// joinList is "a, b and c".
func joinList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

func build(in *Input) (*page, error) {
	if err := checkInput(in); err != nil {
		return nil, err
	}
	p := &page{CSS: template.CSS(styleSheet)}
	p.header(in)
	// What makes the comparisons unsound comes before any figure.
	p.Banners = append(p.Banners, in.Warnings...)
	names := runNames(in.Runs, in.RunIDs)
	anchors := runAnchors(in.Runs, in.RunIDs)
	diags := make([]*results.Diagnosis, len(in.Runs))
	for i, r := range in.Runs {
		diags[i] = runDiagnosis(r, in.DiskBaselines)
	}
	p.runsTable(in.Runs, names, anchors, diags)
	// The page reads as a write-up does: the conclusion, the charts that
	// support it, the detail per point, and the runs and their
	// configuration last, for whoever checks the figures.
	if p.Conclusion = buildConclusion(in); p.Conclusion != nil {
		p.Nav = append(p.Nav, navItem{"conclusion", "Conclusion"})
	}
	if p.RanOn = buildRanOn(in.RanOn); p.RanOn != nil {
		p.Nav = append(p.Nav, navItem{"ran-on", "Ran on"})
	}
	if in.Study != nil && len(in.Study.Series) > 0 {
		p.Study = buildStudy(in.Study)
		p.Nav = append(p.Nav, navItem{"study", p.Study.Nav})
	}
	if len(in.Configurations) > 1 {
		p.configurations(in.Configurations, in.Alpha)
	}
	if in.Sweep != nil {
		p.Sweep = buildSweep(in.Sweep)
		p.Nav = append(p.Nav, navItem{"sweep", "Sweep"})
	}
	p.comparisons(in)
	if len(in.Runs) > 0 {
		p.Nav = append(p.Nav, navItem{"runs", "Runs"})
		p.Config = buildConfig(in.Runs, names)
		p.Nav = append(p.Nav, navItem{"config", "Configuration"})
	}
	for i, r := range in.Runs {
		rv := buildRun(anchors[i], r, names[i])
		rv.Diagnosis = buildDiagnosis(r, diags[i], in.DiskBaselines)
		rv.Thresholds = thresholdRows(r)
		rv.Open = len(in.Runs) == 1
		p.Runs = append(p.Runs, rv)
	}
	return p, nil
}

// checkInput refuses an input with nothing to report.
func checkInput(in *Input) error {
	if in == nil {
		return errors.New("report: no input")
	}
	if len(in.Runs) == 0 && in.Sweep == nil && len(in.comparisons()) == 0 {
		return errors.New("report: nothing to report: no runs, sweep or comparison")
	}
	for i, r := range in.Runs {
		if r == nil {
			return fmt.Errorf("report: run %d is nil", i+1)
		}
	}
	return nil
}

// header sets the page's title, when and by what it was made, and from
// how many files.
func (p *page) header(in *Input) {
	gen := in.Generated
	if gen.IsZero() {
		gen = time.Now()
	}
	p.Generated = gen.UTC().Format("2006-01-02 15:04:05 UTC")
	p.Version = in.Version
	if p.Version == "" && len(in.Runs) > 0 {
		p.Version = in.Runs[0].Tool.Version
	}
	if p.Version == "" {
		p.Version = "(unknown version)"
	}
	p.Title = in.Title
	if p.Title == "" {
		p.Title = defaultTitle(in)
	}
	switch n := len(in.Runs); n {
	case 0:
		p.Source = "no results file"
	case 1:
		p.Source = "1 results file"
	default:
		p.Source = formatInt(int64(n)) + " results files"
	}
}

// runsTable lists the runs, one row each, and raises the banners of the
// runs whose figures need a warning: cut short, found nothing, limited by
// something else than the server.
func (p *page) runsTable(runs []*results.Results, names, anchors []string, diags []*results.Diagnosis) {
	labels := labelCounts(runs)
	for i, r := range runs {
		p.RunRows = append(p.RunRows, runRow{
			ID: anchors[i], Name: names[i], Label: r.Label, Phase: r.Phase, Limit: limitCell(diags[i]),
			Start:      r.Start.UTC().Format("2006-01-02 15:04:05"),
			Duration:   formatSeconds(float64(r.RuntimeMs) / 1000),
			Operations: formatInt(r.Operations),
			Throughput: rateUnitOf([]*results.Results{r}).format(r.ThroughputOpsSec),
			Partial:    r.Partial,
		})
		// A label that names one run is in its name already (runNames).
		p.RunLabels = p.RunLabels || r.Label != "" && labels[r.Label] > 1
		if at, ok := abortedByThreshold(r); ok {
			p.Banners = append(p.Banners, fmt.Sprintf("%s was ended after %s by a threshold with abortOnFail: its figures cover only that much and are marked partial.",
				capitalize(names[i]), formatSeconds(at)))
		} else if r.Partial {
			p.Banners = append(p.Banners, fmt.Sprintf("%s was interrupted before its end: its figures cover only the first %s and are marked partial.",
				capitalize(names[i]), formatSeconds(float64(r.RuntimeMs)/1000)))
		}
		if b := notFoundBanner(r, names[i]); b != "" {
			p.Banners = append(p.Banners, b)
		}
		if b := thresholdBanner(r, names[i]); b != "" {
			p.Banners = append(p.Banners, b)
		}
	}
	p.Banners = append(p.Banners, verdictBanners(diags, names)...)
}

// configurations adds what several configurations' single runs and sizes
// show, and says it with the conclusion, as the 004 report's slides put it.
func (p *page) configurations(cs []Configuration, alpha float64) {
	p.Sizes = sizesTable(cs)
	if p.Tasks = buildTasks(cs, alpha); p.Tasks != nil {
		p.Nav = append(p.Nav, navItem{"tasks", "Single runs"})
	}
	var findings []string
	if p.Tasks != nil {
		findings = append(findings, p.Tasks.Figure.Sentence)
	}
	if f := sizesFinding(cs); f != "" {
		findings = append(findings, f)
	}
	if len(findings) == 0 {
		return
	}
	if p.Conclusion == nil {
		p.Conclusion = &conclusionView{}
		p.Nav = append([]navItem{{"conclusion", "Conclusion"}}, p.Nav...)
	}
	p.Conclusion.Findings = append(p.Conclusion.Findings, findings...)
}

// comparisons adds each comparison's section. With the overlays drawn,
// bars per point would repeat them: the comparison is then its table.
func (p *page) comparisons(in *Input) {
	for i, c := range in.comparisons() {
		cv := buildComparison(c, p.Study == nil, rateUnitOf(in.Runs))
		cv.ID = "comparison"
		if i > 0 {
			cv.ID = fmt.Sprintf("comparison-%d", i+1)
			for j := range cv.Figures {
				cv.Figures[j].ID = cv.ID + strings.TrimPrefix(cv.Figures[j].ID, "comparison")
			}
		}
		p.Comparisons = append(p.Comparisons, cv)
		p.Nav = append(p.Nav, navItem{cv.ID, capitalize(cv.B) + " against " + cv.A})
	}
}

func defaultTitle(in *Input) string {
	switch {
	case in.Comparison != nil:
		return "mongobench: " + orDefault(in.Comparison.B, "B") + " vs " + orDefault(in.Comparison.A, "A")
	case in.Sweep != nil:
		return "mongobench: sweep of " + orDefault(in.Sweep.Varied, "a setting")
	case len(in.Runs) == 1 && in.Runs[0].Label != "":
		return "mongobench: " + in.Runs[0].Label
	}
	return "mongobench report"
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// runNumbers are the numbers the page calls runs by: their store ids when
// they have them, so that "run 17" here is run 17 in history and compare;
// otherwise their position, as "file N" when other runs have store ids.
func runNumbers(runs []*results.Results, ids []int64) []string {
	stored := false
	for i := range runs {
		stored = stored || i < len(ids) && ids[i] > 0
	}
	out := make([]string, len(runs))
	file := 0
	for i := range runs {
		switch {
		case i < len(ids) && ids[i] > 0:
			out[i] = "run " + strconv.FormatInt(ids[i], 10)
		case stored:
			file++
			out[i] = "file " + strconv.Itoa(file)
		default:
			out[i] = "run " + strconv.Itoa(i+1)
		}
	}
	return out
}

// runAnchors are the element ids of the runs' sections: "run-17".
func runAnchors(runs []*results.Results, ids []int64) []string {
	nums := runNumbers(runs, ids)
	out := make([]string, len(nums))
	for i, n := range nums {
		out[i] = strings.ReplaceAll(n, " ", "-")
	}
	return out
}

// runNames names runs by number, with their label when it names no other
// run.
func runNames(runs []*results.Results, ids []int64) []string {
	seen := labelCounts(runs)
	names := runNumbers(runs, ids)
	for i, r := range runs {
		if r.Label != "" && seen[r.Label] == 1 {
			names[i] += " (" + r.Label + ")"
		}
	}
	return names
}

// labelCounts counts the runs of each label.
func labelCounts(runs []*results.Results) map[string]int {
	seen := map[string]int{}
	for _, r := range runs {
		seen[r.Label]++
	}
	return seen
}

// buildConfig shows the first run's configuration and, when there are
// several runs, every property on which they differ.
func buildConfig(runs []*results.Results, names []string) *configView {
	cv := &configView{Source: names[0]}
	keys := sortedKeys(runs[0].Config)
	for _, k := range keys {
		cv.Rows = append(cv.Rows, [2]string{k, redact.URL(runs[0].Config[k])})
	}
	if len(runs) < 2 {
		return cv
	}
	all := map[string]bool{}
	for _, r := range runs {
		for k := range r.Config {
			all[k] = true
		}
	}
	cv.DiffHead = names
	for _, k := range sortedKeys(all) {
		vals := make([]string, len(runs))
		differ := false
		for i, r := range runs {
			v, ok := r.Config[k]
			vals[i] = "—"
			if ok {
				vals[i] = redact.URL(v)
			}
			if vals[i] != vals[0] {
				differ = true
			}
		}
		if differ {
			cv.DiffRows = append(cv.DiffRows, diffRow{Key: k, Values: vals})
		}
	}
	if len(runs) > maxDiffColumns {
		// A column per run would run off the page: each property lists its
		// values instead, with the runs that had each.
		cv.DiffHead = []string{"values (runs)"}
		for i, row := range cv.DiffRows {
			cv.DiffRows[i].Values = []string{valuesByRun(row.Values, names)}
		}
	}
	return cv
}

// maxDiffColumns is the most runs the table of differences gives a column
// each.
const maxDiffColumns = 4

// valuesByRun lists the distinct values of a property, each with the runs
// that had it: "1 (run 1, run 2); 4 (run 3)".
func valuesByRun(values, names []string) string {
	var order []string
	runs := map[string][]string{}
	for i, v := range values {
		if _, ok := runs[v]; !ok {
			order = append(order, v)
		}
		runs[v] = append(runs[v], strings.TrimSuffix(names[i], runLabelSuffix(names[i])))
	}
	parts := make([]string, len(order))
	for i, v := range order {
		parts[i] = v + " (" + strings.Join(runs[v], ", ") + ")"
	}
	return strings.Join(parts, "; ")
}

// runLabelSuffix is the " (label)" a run's name may end in.
func runLabelSuffix(name string) string {
	if i := strings.Index(name, " ("); i >= 0 {
		return name[i:]
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
