package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/mongobench/mongobench/internal/printable"
)

// The exporters of YCSB's exporter property, by their Java class names
// (site.ycsb.measurements.exporter in YCSB's core).
const (
	TextExporter      = "site.ycsb.measurements.exporter.TextMeasurementsExporter"
	JSONExporter      = "site.ycsb.measurements.exporter.JSONMeasurementsExporter"
	JSONArrayExporter = "site.ycsb.measurements.exporter.JSONArrayMeasurementsExporter"
)

// Exporters lists the exporters mongobench writes, the default first.
var Exporters = []string{TextExporter, JSONExporter, JSONArrayExporter}

// ParseExporter returns the exporter that name designates: one of
// Exporters, also under YCSB's package name before 0.17
// (com.yahoo.ycsb.measurements.exporter) or without a package, so that old
// workload files keep working. "" is the default, text.
func ParseExporter(name string) (string, error) {
	n := strings.TrimSpace(name)
	if n == "" {
		return TextExporter, nil
	}
	short := n
	for _, pkg := range []string{"site.ycsb.measurements.exporter.", "com.yahoo.ycsb.measurements.exporter."} {
		short = strings.TrimPrefix(short, pkg)
	}
	for _, e := range Exporters {
		if short == e[strings.LastIndexByte(e, '.')+1:] {
			return e, nil
		}
	}
	return "", fmt.Errorf("exporter=%q is unknown: mongobench writes %s", name, strings.Join(Exporters, ", "))
}

// SummaryWriter takes the summary as the text exporter writes it, lines of
// "[METRIC], measurement, value", and writes it with one of YCSB's
// exporters. Lines other parts of the tool add ([SERVER], [CLIENT] …) go
// through it too, so every exporter carries the whole summary. Call Close
// to end the document.
type SummaryWriter struct {
	w       io.Writer
	json    bool
	array   bool
	n       int // figures written
	pending []byte
	err     error
}

// NewSummaryWriter returns a writer of the summary onto w in the format of
// exporter, one of Exporters.
func NewSummaryWriter(w io.Writer, exporter string) (*SummaryWriter, error) {
	e, err := ParseExporter(exporter)
	if err != nil {
		return nil, err
	}
	return &SummaryWriter{w: w, json: e != TextExporter, array: e == JSONArrayExporter}, nil
}

// Write takes summary lines; a line is written once its newline arrives.
func (s *SummaryWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	s.pending = append(s.pending, p...)
	for {
		i := bytes.IndexByte(s.pending, '\n')
		if i < 0 {
			break
		}
		line := string(s.pending[:i])
		s.pending = s.pending[i+1:]
		if err := s.line(line); err != nil {
			s.err = err
			return 0, err
		}
	}
	return len(p), nil
}

// Close writes a last line left without its newline and ends the
// document: the JSON array's closing bracket.
func (s *SummaryWriter) Close() error {
	if s.err != nil {
		return s.err
	}
	if len(s.pending) > 0 {
		line := string(s.pending)
		s.pending = nil
		if err := s.line(line); err != nil {
			return err
		}
	}
	if s.array {
		// JSONArrayMeasurementsExporter.close: Jackson's DefaultPrettyPrinter
		// ends an array of values with " ]", an empty one with "[ ]".
		end := " ]"
		if s.n == 0 {
			end = "[ ]"
		}
		_, err := io.WriteString(s.w, end)
		return err
	}
	return nil
}

func (s *SummaryWriter) line(l string) error {
	metric, measurement, value := splitSummaryLine(l)
	// Whoever made the line, each format carries three fields: a comma
	// left in a value would give a reader of the text a fourth.
	measurement, value = printable.Field(measurement), noNegativeZero(printable.Field(value))
	var err error
	if !s.json {
		// TextMeasurementsExporter: "[" + metric + "], " + measurement + ", " + value.
		_, err = fmt.Fprintf(s.w, "[%s], %s, %s\n", metric, measurement, value)
		s.n++
		return err
	}
	// JSONMeasurementsExporter and JSONArrayMeasurementsExporter write one
	// object per figure with Jackson 1.9's DefaultPrettyPrinter: fields on
	// their own lines indented by two spaces, " : " between name and value;
	// objects are separated by " " at the root (JSONMeasurementsExporter,
	// which writes no array) or by ", " in the array, which opens with "[ ".
	var b strings.Builder
	switch {
	case s.n > 0 && s.array:
		b.WriteString(", ")
	case s.n > 0:
		b.WriteString(" ")
	case s.array:
		b.WriteString("[ ")
	}
	b.WriteString("{\n  \"metric\" : ")
	b.WriteString(jsonString(metric))
	b.WriteString(",\n  \"measurement\" : ")
	b.WriteString(jsonString(measurement))
	b.WriteString(",\n  \"value\" : ")
	b.WriteString(jsonValue(value))
	b.WriteString("\n}")
	s.n++
	_, err = io.WriteString(s.w, b.String())
	return err
}

// splitSummaryLine splits "[METRIC], measurement, value"; the value is the
// rest of the line, commas and all, which line turns into semicolons. A
// line of another shape keeps its text as the value.
func splitSummaryLine(l string) (metric, measurement, value string) {
	if rest, ok := strings.CutPrefix(l, "["); ok {
		if m, rest, ok := strings.Cut(rest, "], "); ok {
			if meas, v, ok := strings.Cut(rest, ", "); ok {
				return m, meas, v
			}
		}
	}
	return "", "", l
}

// noNegativeZero drops the sign of a figure that rounds to zero: "-0.0"
// and "-0" say nothing a reader can use, and scripts that compare against
// 0 trip on them.
func noNegativeZero(v string) string {
	rest, ok := strings.CutPrefix(v, "-")
	if !ok || rest == "" {
		return v
	}
	digits := false
	for _, c := range rest {
		switch {
		case c == '0':
			digits = true
		case c == '.':
		default:
			return v
		}
	}
	if !digits {
		return v
	}
	return rest
}

// jsonValue writes a figure as Jackson does: a number as its text (Java's
// Long.toString and Double.toString give valid JSON numbers), NaN and
// Infinity as strings (Jackson's QUOTE_NON_NUMERIC_NUMBERS, on by
// default). Figures YCSB never writes keep their type: true and false as
// booleans, any other text as a string.
func jsonValue(v string) string {
	switch v {
	case "true", "false":
		return v
	}
	if isJSONNumber(v) {
		return v
	}
	return jsonString(v)
}

// jsonNumber is JSON's grammar of a number (RFC 8259, section 6).
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

func isJSONNumber(v string) bool { return jsonNumber.MatchString(v) }

// jsonString quotes s as Jackson does, which leaves <, > and & alone.
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
