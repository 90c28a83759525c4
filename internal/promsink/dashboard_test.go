package promsink

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
)

// dashboardFile is the Grafana dashboard shipped for the endpoint.
const dashboardFile = "../../deploy/grafana/mongobench.json"

type dashboard struct {
	Title  string `json:"title"`
	UID    string `json:"uid"`
	Panels []struct {
		Title   string `json:"title"`
		Targets []struct {
			Expr string `json:"expr"`
		} `json:"targets"`
	} `json:"panels"`
	Templating struct {
		List []struct {
			Name       string `json:"name"`
			Definition string `json:"definition"`
		} `json:"list"`
	} `json:"templating"`
}

var (
	metricRef = regexp.MustCompile(`\bmongobench_[a-z_]+\b`)
	// selectorOf is a metric and its matchers, as a panel's query has it.
	selectorOf  = regexp.MustCompile(`\b(mongobench_[a-z_]+)(\{[^{}]*\})?`)
	labelValues = regexp.MustCompile(`label_values\((mongobench_[a-z_]+)(?:\{[^{}]*\})?,\s*([a-zA-Z_]+)\)`)
	byClause    = regexp.MustCompile(`\bby \(([^)]*)\)`)
	matchers    = regexp.MustCompile(`\{([^{}]*)\}`)
	matcherKey  = regexp.MustCompile(`([a-zA-Z_]+)\s*(?:=~|!~|!=|=)\s*"`)
)

// TestDashboard: the dashboard parses, and every metric and label its
// queries name is one the endpoint serves. Classic quantiles group by le;
// native ones name a histogram itself.
func TestDashboard(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("%s: %v", dashboardFile, err)
	}
	if d.Title == "" || d.UID == "" || len(d.Panels) == 0 {
		t.Fatalf("%s: title %q, uid %q, %d panels", dashboardFile, d.Title, d.UID, len(d.Panels))
	}

	// What the endpoint serves: each family's names (a histogram's
	// _bucket, _sum and _count too) and the labels of its series.
	names := map[string]dto.MetricType{}
	labelNames := map[string]map[string]bool{}
	for _, mf := range gather(t, fedSink(t)) {
		base := mf.GetName()
		series := []string{base}
		if mf.GetType() == dto.MetricType_HISTOGRAM {
			series = append(series, base+"_bucket", base+"_sum", base+"_count")
		}
		for _, n := range series {
			names[n] = mf.GetType()
			labelNames[n] = map[string]bool{}
			for _, m := range mf.GetMetric() {
				for _, lp := range m.GetLabel() {
					labelNames[n][lp.GetName()] = true
				}
			}
			if strings.HasSuffix(n, "_bucket") {
				labelNames[n]["le"] = true
			}
		}
	}

	var exprs []string
	for _, p := range d.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			exprs = append(exprs, tg.Expr)
			// A panel shows one run: several runs in one Prometheus
			// must not add up.
			for _, m := range selectorOf.FindAllStringSubmatch(tg.Expr, -1) {
				if !strings.Contains(m[2], RunIDLabel+`="$`+RunIDLabel+`"`) {
					t.Errorf("panel %q: %s is not limited to the chosen run: %s", p.Title, m[1], tg.Expr)
				}
			}
		}
	}
	variables := map[string]bool{}
	for _, v := range d.Templating.List {
		variables[v.Name] = true
		if v.Definition != "" {
			exprs = append(exprs, v.Definition)
		}
		// The label a variable lists must be on the metric it lists it of.
		for _, m := range labelValues.FindAllStringSubmatch(v.Definition, -1) {
			if !labelNames[m[1]][m[2]] {
				t.Errorf("variable %q lists label %q of %s, which has no such label", v.Name, m[2], m[1])
			}
		}
	}
	for _, want := range []string{RunIDLabel, LabelLabel, WorkloadLabel, "command"} {
		if !variables[want] {
			t.Errorf("the dashboard has no %q variable", want)
		}
	}
	for _, e := range exprs {
		if strings.Count(e, "(") != strings.Count(e, ")") || strings.Count(e, "{") != strings.Count(e, "}") {
			t.Errorf("unbalanced query: %s", e)
		}
		refs := metricRef.FindAllString(e, -1)
		if len(refs) == 0 {
			t.Errorf("a query names no mongobench metric: %s", e)
		}
		// Labels a query uses must be on every metric it names.
		var used []string
		for _, m := range byClause.FindAllStringSubmatch(e, -1) {
			for _, l := range strings.Split(m[1], ",") {
				used = append(used, strings.TrimSpace(l))
			}
		}
		for _, m := range matchers.FindAllStringSubmatch(e, -1) {
			for _, k := range matcherKey.FindAllStringSubmatch(m[1], -1) {
				used = append(used, k[1])
			}
		}
		for _, ref := range refs {
			typ, ok := names[ref]
			if !ok {
				t.Errorf("%s is not served, yet the dashboard queries it: %s", ref, e)
				continue
			}
			for _, l := range used {
				if !labelNames[ref][l] {
					t.Errorf("%s has no label %q, yet the dashboard uses it: %s", ref, l, e)
				}
			}
			if strings.HasPrefix(e, "histogram_quantile(") {
				classic := strings.HasSuffix(ref, "_bucket")
				switch {
				case classic && !slices.Contains(used, "le"):
					t.Errorf("a classic quantile not grouped by le: %s", e)
				case !classic && typ != dto.MetricType_HISTOGRAM:
					t.Errorf("a native quantile of %s, which is no histogram: %s", ref, e)
				}
			}
		}
	}
}
