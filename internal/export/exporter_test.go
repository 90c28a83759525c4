package export

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/golden"
)

// exported writes testSummary through the named exporter, with a partial
// run's line and two lines of the kind other parts of the tool add.
func exported(t *testing.T, exporter string) []byte {
	t.Helper()
	var b bytes.Buffer
	sw, err := NewSummaryWriter(&b, exporter)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteText(sw, testSummary(t), TextOptions{Percentiles: []float64{99, 50}, Partial: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(sw, "[HOST], Disk(vda), IOPS=679.4, r/s=1.6\n[SERVER], Topology, standalone\n[HOST], CPUSteal(%), -0.0\n"); err != nil {
		t.Fatal(err)
	}
	if err := sw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestExportersGolden: the three exporters of YCSB's exporter property, byte
// for byte. The JSON layouts are those of YCSB's JSONMeasurementsExporter
// (objects one after another, no array) and JSONArrayMeasurementsExporter
// (one array), both written by Jackson 1.9.4's DefaultPrettyPrinter
// (core/src/main/java/site/ycsb/measurements/exporter/*.java in
// brianfrankcooper/YCSB).
func TestExportersGolden(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ exporter, golden string }{
		{TextExporter, "export_text.golden"},
		{JSONExporter, "export_json.golden"},
		{JSONArrayExporter, "export_jsonarray.golden"},
	} {
		golden.Check(t, tt.golden, exported(t, tt.exporter))
	}
}

type figure struct {
	Metric      string `json:"metric"`
	Measurement string `json:"measurement"`
	Value       any    `json:"value"`
}

// TestJSONExportersCarryEveryLine: both JSON formats decode to one object
// per line of the text summary, values typed as YCSB's exporters type them.
func TestJSONExportersCarryEveryLine(t *testing.T) {
	t.Parallel()
	text := strings.Split(strings.TrimSuffix(string(exported(t, TextExporter)), "\n"), "\n")
	decodeStream := func(b []byte) []figure {
		var out []figure
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		for dec.More() {
			var f figure
			if err := dec.Decode(&f); err != nil {
				t.Fatalf("%v in %s", err, b)
			}
			out = append(out, f)
		}
		return out
	}
	var array []figure
	dec := json.NewDecoder(bytes.NewReader(exported(t, JSONArrayExporter)))
	dec.UseNumber()
	if err := dec.Decode(&array); err != nil {
		t.Fatal(err)
	}
	for name, figs := range map[string][]figure{"JSON": decodeStream(exported(t, JSONExporter)), "JSON array": array} {
		if len(figs) != len(text) {
			t.Fatalf("%s: %d objects for %d lines of text", name, len(figs), len(text))
		}
		for i, f := range figs {
			metric, measurement, value := splitSummaryLine(text[i])
			if f.Metric != metric || f.Measurement != measurement {
				t.Errorf("%s object %d is %s/%s, the text's line %q", name, i, f.Metric, f.Measurement, text[i])
			}
			var got string
			switch v := f.Value.(type) {
			case json.Number:
				got = v.String()
			case bool:
				got = "false"
				if v {
					got = "true"
				}
			case string:
				got = v
				if isJSONNumber(v) {
					t.Errorf("%s: %s/%s: the number %s is written as a string", name, metric, measurement, v)
				}
			}
			if got != value {
				t.Errorf("%s: %s/%s = %v, the text says %s", name, metric, measurement, f.Value, value)
			}
		}
	}
}

func TestParseExporter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want, wantErr string
	}{
		{"", TextExporter, ""},
		{TextExporter, TextExporter, ""},
		{JSONExporter, JSONExporter, ""},
		{JSONArrayExporter, JSONArrayExporter, ""},
		// YCSB's package before 0.17, and the bare class name.
		{"com.yahoo.ycsb.measurements.exporter.JSONArrayMeasurementsExporter", JSONArrayExporter, ""},
		{" JSONMeasurementsExporter ", JSONExporter, ""},
		{"site.ycsb.measurements.exporter.CSVExporter", "", `exporter="site.ycsb.measurements.exporter.CSVExporter" is unknown: mongobench writes ` +
			TextExporter + ", " + JSONExporter + ", " + JSONArrayExporter},
		{"json", "", "is unknown"},
	}
	for _, tt := range tests {
		got, err := ParseExporter(tt.in)
		switch {
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("ParseExporter(%q) error %v, want one containing %q", tt.in, err, tt.wantErr)
		case tt.wantErr == "" && (err != nil || got != tt.want):
			t.Errorf("ParseExporter(%q) = %q, %v, want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestSummaryWriterEmpty(t *testing.T) {
	t.Parallel()
	for exporter, want := range map[string]string{TextExporter: "", JSONExporter: "", JSONArrayExporter: "[ ]"} {
		var b bytes.Buffer
		sw, err := NewSummaryWriter(&b, exporter)
		if err != nil {
			t.Fatal(err)
		}
		if err := sw.Close(); err != nil {
			t.Fatal(err)
		}
		if b.String() != want {
			t.Errorf("%s with nothing to write: %q, want %q", exporter, b.String(), want)
		}
	}
}

// TestNoNegativeZero: no figure of the summary prints as negative zero,
// whoever formatted it.
func TestNoNegativeZero(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"-0.0", "0.0"},
		{"-0", "0"},
		{"-0.00", "0.00"},
		{"-0.01", "-0.01"},
		{"-10", "-10"},
		{"-", "-"},
		{"-.", "-."},
		{"0.0", "0.0"},
		{"-0.0E0", "-0.0E0"},
		{"not reported", "not reported"},
	}
	for _, tt := range tests {
		if got := noNegativeZero(tt.in); got != tt.want {
			t.Errorf("noNegativeZero(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestWriteTextPartialAndOrder: an interrupted run says so right after
// YCSB's [OVERALL] lines, and percentiles print in ascending order, once
// each, whatever order they were asked in.
func TestWriteTextPartialAndOrder(t *testing.T) {
	t.Parallel()
	for _, partial := range []bool{false, true} {
		text := writeText(t, testSummary(t), TextOptions{Percentiles: []float64{99.9, 50, 99, 50}, Partial: partial})
		lines := strings.Split(text, "\n")
		if got := lines[2] == "[OVERALL], Partial, true"; got != partial {
			t.Errorf("partial %v: third line %q", partial, lines[2])
		}
		if strings.Count(text, "Partial") > 1 || (!partial && strings.Contains(text, "Partial")) {
			t.Errorf("partial %v: Partial printed where it should not be:\n%s", partial, text)
		}
		var order []string
		for _, l := range lines {
			if rest, ok := strings.CutPrefix(l, "[READ], "); ok && strings.Contains(rest, "PercentileLatency") {
				name, _, _ := strings.Cut(rest, ",")
				order = append(order, name)
			}
		}
		want := []string{"50thPercentileLatency(us)", "99thPercentileLatency(us)", "99.9PercentileLatency(us)"}
		if strings.Join(order, " ") != strings.Join(want, " ") {
			t.Errorf("percentiles printed as %v, want %v", order, want)
		}
	}
}
