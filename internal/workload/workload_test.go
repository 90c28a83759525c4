package workload

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     map[string]string
		wantErr  string
	}{
		{name: "ycsb file", in: "# comment\n! also comment\nrecordcount=1000\nworkload=site.ycsb.workloads.CoreWorkload\n\nreadproportion=0.5\n",
			want: map[string]string{"recordcount": "1000", "workload": "site.ycsb.workloads.CoreWorkload", "readproportion": "0.5"}},
		// Java allows ':' and white space as separators and trims around them.
		{name: "separators", in: "a : 1\nb 2\n  c=  3\nd=\n", want: map[string]string{"a": "1", "b": "2", "c": "3", "d": ""}},
		// A value may hold '=' (URLs do).
		{name: "url value", in: "mongodb.url=mongodb://h:27017/ycsb?w=1\n", want: map[string]string{"mongodb.url": "mongodb://h:27017/ycsb?w=1"}},
		{name: "continuation", in: "fields=a,\\\n    b,\\\n    c\n", want: map[string]string{"fields": "a,b,c"}},
		{name: "escapes", in: "k\\ ey=v\\u0041\\tx\n", want: map[string]string{"k ey": "vA\tx"}},
		{name: "crlf and last line wins", in: "a=1\r\na=2\r\n", want: map[string]string{"a": "2\r"}},
		// A UTF-8 byte-order mark, as editors on Windows write, is not part
		// of the first key, whatever the first line holds.
		{name: "byte-order mark", in: "\uFEFFrecordcount=10\nb=2\n", want: map[string]string{"recordcount": "10", "b": "2"}},
		{name: "byte-order mark before a comment", in: "\uFEFF# workload\nrecordcount=10\n", want: map[string]string{"recordcount": "10"}},
		{name: "byte-order mark and crlf", in: "\uFEFFa=1\r\nb=2\r\n", want: map[string]string{"a": "1", "b": "2"}},
		{name: "byte-order mark before white space", in: "\uFEFF  a = 1\n", want: map[string]string{"a": "1"}},
		// Only at the start of the file is it a mark; elsewhere it is text.
		{name: "U+FEFF inside a value", in: "a=x\uFEFFy\n", want: map[string]string{"a": "x\uFEFFy"}},
		{name: "empty key", in: "recordcount=1\n=5\n", wantErr: "w:2: malformed line \"=5\": expected key=value"},
		{name: "bad unicode escape", in: "a=\\u12\n", wantErr: `w:1: malformed \uXXXX escape`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Parse(strings.NewReader(tt.in), "w")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := p.Map()
			if tt.name == "crlf and last line wins" {
				// bufio drops "\r\n" as a whole: the value is "2".
				tt.want["a"] = "2"
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

func TestParseOrigin(t *testing.T) {
	t.Parallel()
	p, err := Parse(strings.NewReader("a=1\n\nb=2\n"), "workloads/x")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Origin("b"); got != "workloads/x:3" {
		t.Errorf("Origin(b) = %q, want workloads/x:3", got)
	}
}

func props(kv ...string) *Properties {
	p := NewProperties()
	for i := 0; i+1 < len(kv); i += 2 {
		p.Set(kv[i], kv[i+1], "-p")
	}
	return p
}

func TestResolveDefaults(t *testing.T) {
	t.Parallel()
	s, warns, err := Resolve(props("recordcount", "1000", "operationcount", "10"), true)
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 0 {
		t.Errorf("warnings: %v", warns)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"table", s.Table, "usertable"},
		{"fieldcount", s.FieldCount, 10},
		{"fieldlength", s.FieldLength, int64(100)},
		{"read", s.Proportions[TxRead], 0.95},
		{"update", s.Proportions[TxUpdate], 0.05},
		{"insertcount", s.InsertCount, int64(1000)},
		{"distribution", s.RequestDistribution, "uniform"},
		{"maxscanlength", s.MaxScanLength, int64(1000)},
		{"zeropadding", s.ZeroPadding, 1},
		{"hashed", s.OrderedInserts, false},
		{"threads", s.Threads, 1},
		{"percentiles", len(s.Percentiles), 3},
		{"service", s.MeasureService, true},
		{"intended", s.MeasureIntended, false},
		{"readallfields", s.ReadAllFields, true},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestResolveTargetMeasuresBoth(t *testing.T) {
	t.Parallel()
	s, _, err := Resolve(props("recordcount", "10", "operationcount", "10", "target", "500"), true)
	if err != nil {
		t.Fatal(err)
	}
	if !s.MeasureService || !s.MeasureIntended {
		t.Errorf("with -target, measurement.interval should default to both: service=%v intended=%v", s.MeasureService, s.MeasureIntended)
	}
}

// TestResolveMeasurementInterval: the measurement.interval a run uses, which
// its results record, whether set or defaulted.
func TestResolveMeasurementInterval(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kv   []string
		want string
	}{
		{nil, "op"},
		{[]string{"target", "500"}, "both"},
		{[]string{"target", "500", "measurement.interval", "op"}, "op"},
		{[]string{"measurement.interval", "INTENDED"}, "intended"},
	}
	for _, tt := range tests {
		s, _, err := Resolve(props(append([]string{"recordcount", "10", "operationcount", "10"}, tt.kv...)...), true)
		if err != nil {
			t.Fatal(err)
		}
		if s.MeasurementInterval != tt.want {
			t.Errorf("%v: measurement.interval %q, want %q", tt.kv, s.MeasurementInterval, tt.want)
		}
	}
}

// TestResolvePercentilesAscending: percentiles come out in ascending order,
// once each, whatever order hdrhistogram.percentiles lists them in.
func TestResolvePercentilesAscending(t *testing.T) {
	t.Parallel()
	s, _, err := Resolve(props("recordcount", "10", "operationcount", "10", "hdrhistogram.percentiles", "99.9,50, 99,50"), true)
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{50, 99, 99.9}; !slices.Equal(s.Percentiles, want) {
		t.Errorf("percentiles %v, want %v", s.Percentiles, want)
	}
}

func TestResolveNormalisesProportions(t *testing.T) {
	t.Parallel()
	s, warns, err := Resolve(props("recordcount", "10", "operationcount", "10", "readproportion", "3", "updateproportion", "1"), true)
	if err != nil {
		t.Fatal(err)
	}
	if s.Proportions[TxRead] != 0.75 || s.Proportions[TxUpdate] != 0.25 {
		t.Errorf("proportions = %v, want 0.75/0.25", s.Proportions)
	}
	if len(warns) != 1 || !strings.Contains(string(warns[0]), "sum to 4, not 1: normalised") {
		t.Errorf("warnings = %v", warns)
	}
}

func TestResolveErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		kv   []string
		want string
	}{
		{"recordcount missing", []string{"operationcount", "1"}, "recordcount is not set: expected a whole number > 0 (the number of records loaded)"},
		{"recordcount zero", []string{"recordcount", "0", "operationcount", "1"}, `recordcount="0" is invalid: expected a whole number > 0 (the number of records loaded)`},
		{"recordcount text", []string{"recordcount", "many", "operationcount", "1"}, `recordcount="many" is invalid: expected a whole number >= 0`},
		{"threadcount zero", []string{"recordcount", "1", "operationcount", "1", "threadcount", "0"}, `threadcount="0" is invalid: expected a whole number from 1 to 1048576`},
		{"negative target", []string{"recordcount", "1", "operationcount", "1", "target", "-5"}, `target="-5" is invalid: expected 0 (as fast as possible) or a rate from 0.001 to 1000000000 operations per second`},
		{"negative proportion", []string{"recordcount", "1", "operationcount", "1", "readproportion", "-0.1"}, `readproportion="-0.1" is invalid: expected a proportion from 0 to 1000000`},
		{"all zero", []string{"recordcount", "1", "operationcount", "1", "readproportion", "0", "updateproportion", "0"}, "all operation proportions are 0"},
		{"distribution", []string{"recordcount", "1", "operationcount", "1", "requestdistribution", "zipf"}, `requestdistribution="zipf" is invalid: expected one of uniform, zipfian, latest, hotspot, exponential, sequential`},
		{"field length distribution", []string{"recordcount", "1", "operationcount", "1", "fieldlengthdistribution", "gauss"}, `fieldlengthdistribution="gauss" is invalid: expected one of constant, uniform, zipfian, histogram`},
		{"insert range", []string{"recordcount", "100", "insertstart", "50", "insertcount", "60", "operationcount", "1"}, "insertstart=50 + insertcount=60 is beyond recordcount=100"},
		{"bool", []string{"recordcount", "1", "operationcount", "1", "readallfields", "yes"}, `readallfields="yes" is invalid: expected true or false`},
		{"unbounded run", []string{"recordcount", "1"}, "operationcount=0 means no limit"},
		{"percentiles", []string{"recordcount", "1", "operationcount", "1", "hdrhistogram.percentiles", "50,abc"}, `hdrhistogram.percentiles="50,abc" is invalid`},
		{"workload class", []string{"recordcount", "1", "operationcount", "1", "workload", "site.ycsb.workloads.TimeSeriesWorkload"}, "accepted: CoreWorkload (site.ycsb.workloads.CoreWorkload), or tpcc"},
		{"dataintegrity", []string{"recordcount", "1", "operationcount", "1", "dataintegrity", "true", "fieldlengthdistribution", "uniform"}, "dataintegrity=true needs fieldlengthdistribution=constant"},
		{"scan lengths", []string{"recordcount", "1", "operationcount", "1", "minscanlength", "10", "maxscanlength", "5"}, "minscanlength=10 is greater than maxscanlength=5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := Resolve(props(tt.kv...), true)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestResolveErrorNamesFileAndLine(t *testing.T) {
	t.Parallel()
	p, err := Parse(strings.NewReader("recordcount=10\noperationcount=ten\n"), "workloads/mine")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Resolve(p, true)
	want := `operationcount="ten" (workloads/mine:2) is invalid: expected a whole number >= 0`
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v, want %q", err, want)
	}
}

func TestUnknownPropertyWarning(t *testing.T) {
	t.Parallel()
	_, warns, err := Resolve(props("recordcount", "1", "operationcount", "1", "requestdistrib", "zipfian", "clientbuffering", "true"), true)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, w := range warns {
		got[string(w)] = true
	}
	for _, want := range []string{
		"unknown property clientbuffering (ignored)",
		"unknown property requestdistrib (ignored); did you mean requestdistribution?",
	} {
		if !got[want] {
			t.Errorf("missing warning %q in %v", want, warns)
		}
	}
}

func TestAppendKey(t *testing.T) {
	t.Parallel()
	// Expected keys computed independently from YCSB's Utils.fnvhash64
	// (64-bit FNV-1 over the 8 little-end bytes, Math.abs of the result)
	// with a Python transcription of the Java arithmetic.
	tests := []struct {
		keynum  int64
		ordered bool
		pad     int
		want    string
	}{
		{0, false, 1, "user6284781860667377211"},
		{1, false, 1, "user8517097267634966620"},
		{2, false, 1, "user1820151046732198393"},
		{999, false, 1, "user2071219101098386137"},
		{12345, false, 1, "user1792800413050876852"},
		{1000000, false, 1, "user1011632231655643464"},
		{7, true, 1, "user7"},
		{7, true, 20, "user00000000000000000007"},
		{12345, true, 5, "user12345"},
		{0, false, 20, "user06284781860667377211"},
	}
	for _, tt := range tests {
		if got := string(AppendKey(nil, tt.keynum, tt.ordered, tt.pad)); got != tt.want {
			t.Errorf("AppendKey(%d, ordered=%v, pad=%d) = %q, want %q", tt.keynum, tt.ordered, tt.pad, got, tt.want)
		}
	}
}

func TestDeterministicValue(t *testing.T) {
	t.Parallel()
	// Expected values from YCSB's buildDeterministicValue transcribed to
	// Python (Java String.hashCode with 32-bit wrap-around).
	tests := []struct {
		key, field string
		size       int
		want       string
	}{
		{"user6284781860667377211", "field0", 100, "user6284781860667377211:field0:1106546143:680040890:-1813823343:-1693248218:-1278633925:-150907434:-"},
		{"user1", "field9", 10, "user1:fiel"},
	}
	for _, tt := range tests {
		if got := string(DeterministicValue(nil, tt.key, tt.field, tt.size)); got != tt.want {
			t.Errorf("DeterministicValue(%s, %s, %d) = %q, want %q", tt.key, tt.field, tt.size, got, tt.want)
		}
	}
}

// TestNextInsertKeyEverythingPresent: a server that says every key exists
// (one that answers any lookup, as the null server does) ends the search
// with an error after a bounded number of probes, never a hang.
func TestNextInsertKeyEverythingPresent(t *testing.T) {
	t.Parallel()
	spec, _, err := Resolve(props("recordcount", "1000", "operationcount", "1"), true)
	if err != nil {
		t.Fatal(err)
	}
	probes := 0
	_, err = NextInsertKey(context.Background(), spec, func(context.Context, string) (bool, error) {
		probes++
		return true, nil
	})
	if err == nil || !strings.Contains(err.Error(), "keys exist which were never inserted") {
		t.Errorf("err %v, want the server's answers named", err)
	}
	if probes > 64 {
		t.Errorf("%d probes before giving up, want at most 64 (one a gallop step)", probes)
	}
}

func TestNextInsertKey(t *testing.T) {
	t.Parallel()
	spec, _, err := Resolve(props("recordcount", "1000", "operationcount", "1"), true)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		present int64   // keys 0 … present-1 were inserted
		deleted []int64 // and these were deleted since
		want    int64
	}{
		{"nothing inserted after the load", 1000, nil, 1000},
		{"one inserted", 1001, nil, 1001},
		{"17 inserted", 1017, nil, 1017},
		{"4000 inserted", 5000, nil, 5000},
		{"122457 inserted", 123457, nil, 123457},
		{"the first inserted key deleted", 5000, []int64{1000}, 5000},
		{"holes where the search probes", 5000, []int64{1000, 1016, 1031, 1032, 1047, 1048, 1079, 1080, 1143, 1144, 2999, 3000, 4000}, 5000},
		{"a hole of 15 in a row", 5000, seq(3000, 3015), 5000},
		{"the last inserted keys deleted", 5000, []int64{4998, 4999}, 4998},
		{"a load key deleted, nothing inserted", 1000, []int64{999}, 1000},
	}
	for _, tc := range tests {
		keys := map[string]bool{}
		probes := 0
		exists := func(_ context.Context, key string) (bool, error) {
			probes++
			return keys[key], nil
		}
		for k := int64(0); k < tc.present; k++ {
			keys[spec.KeyName(k)] = true
		}
		for _, k := range tc.deleted {
			delete(keys, spec.KeyName(k))
		}
		got, err := NextInsertKey(context.Background(), spec, exists)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%s: NextInsertKey = %d, want %d", tc.name, got, tc.want)
		}
		if _, taken := keys[spec.KeyName(got)]; taken {
			t.Errorf("%s: NextInsertKey = %d, a key that is present", tc.name, got)
		}
		if probes > 2*64*insertProbeWindow {
			t.Errorf("%s: %d probes: the search should be logarithmic", tc.name, probes)
		}
	}
}

func seq(from, to int64) []int64 {
	var s []int64
	for k := from; k < to; k++ {
		s = append(s, k)
	}
	return s
}

func FuzzParse(f *testing.F) {
	f.Add("recordcount=1000\n# c\nreadproportion : 0.5\n")
	f.Add("a=\\\n b\\u0041\n")
	f.Add("=x\n")
	f.Add("\uFEFFrecordcount=1\r\n")
	f.Add("\uFEFF\uFEFFa=1\n")
	f.Fuzz(func(t *testing.T, in string) {
		p, err := Parse(strings.NewReader(in), "fuzz")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz:") {
				t.Fatalf("error %q does not name the file and line", err)
			}
			return
		}
		for _, k := range p.Keys() {
			if k == "" {
				t.Fatal("empty key accepted")
			}
		}
		// A leading byte-order mark changes nothing.
		if rest, ok := strings.CutPrefix(in, byteOrderMark); ok && !strings.HasPrefix(rest, byteOrderMark) {
			q, err := Parse(strings.NewReader(rest), "fuzz")
			if err != nil || !maps.Equal(p.Map(), q.Map()) {
				t.Fatalf("with the mark %v, without %v (%v)", p.Map(), q, err)
			}
		}
		// Whatever parses must resolve or fail with an error, never panic.
		_, _, _ = Resolve(p, true)
	})
}

func TestResolveDurations(t *testing.T) {
	t.Parallel()
	tests := []struct {
		value string
		want  time.Duration
		err   bool
	}{
		{"30", 30 * time.Second, false},
		{"0.5", 500 * time.Millisecond, false},
		{"30s", 30 * time.Second, false},
		{"2m", 2 * time.Minute, false},
		{"-5", 0, true},
		{"soon", 0, true},
	}
	for _, tt := range tests {
		s, _, err := Resolve(props("recordcount", "1", "operationcount", "1", "warmuptime", tt.value, "maxexecutiontime", tt.value), true)
		if tt.err {
			if err == nil {
				t.Errorf("warmuptime=%s: no error", tt.value)
			}
			continue
		}
		if err != nil || s.WarmupTime != tt.want || s.MaxExecutionTime != tt.want {
			t.Errorf("%s: warmup %v, maxexecutiontime %v, err %v; want %v", tt.value, s.WarmupTime, s.MaxExecutionTime, err, tt.want)
		}
	}
}

// TestStatusIntervalBounds: an interval too short for the client to close
// one before the next is due, or too long for a killed run to keep
// anything, is refused with the range, whatever form the number takes.
func TestStatusIntervalBounds(t *testing.T) {
	t.Parallel()
	const rule = "expected a number of seconds from 0.1 to 3600, or a duration from 100ms to 1h"
	tests := []struct {
		value string
		want  time.Duration // 0: refused
	}{
		{"10", 10 * time.Second},
		{"0.1", 100 * time.Millisecond},   // the floor itself
		{"100ms", 100 * time.Millisecond}, // the floor as a duration
		{"3600", time.Hour},               // the ceiling
		{"1h", time.Hour},
		{" 2.5 ", 2500 * time.Millisecond},
		{"1ns", 0},
		{"1us", 0},
		{"1µs", 0},
		{"99ms", 0},
		{"1e-9", 0},
		{"0.099", 0},
		{"0", 0},
		{"0s", 0},
		{"-1", 0},
		{"-1s", 0},
		{"3601", 0},
		{"61m", 0},
		{"1e300", 0}, // would overflow a Duration
		{"2562048h", 0},
		{"Inf", 0},
		{"+Inf", 0},
		{"NaN", 0},
		{"nan", 0},
		{"ten", 0},
		{"", 0},
	}
	for _, tt := range tests {
		s, _, err := Resolve(props("recordcount", "1", "operationcount", "1", "status.interval", tt.value), true)
		if tt.want == 0 {
			want := `status.interval="` + tt.value + `" is invalid: ` + rule
			if err == nil || err.Error() != want {
				t.Errorf("status.interval=%q: error %v, want %q", tt.value, err, want)
			}
			continue
		}
		if err != nil || s.StatusInterval != tt.want {
			t.Errorf("status.interval=%q: %v, %v; want %v", tt.value, s, err, tt.want)
		}
	}
}

func TestLabelAndNamesPrintable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		label string
		ok    bool
	}{
		{"baseline", true},
		{"données 速い — run 2", true},
		{"a b", true},
		{"  padded  ", true}, // trimmed, as every value is
		{"a\nb", false},
		{"a\tb", false},
		{"a\x1b[31mb", false},
		{"a\x00b", false},
		{"a\u0085b", false},
		{"a\u2029b", false},
		{"a\u202eb", false},
	}
	for _, tt := range tests {
		_, _, err := Resolve(props("recordcount", "1", "operationcount", "1", "label", tt.label), true)
		if tt.ok != (err == nil) {
			t.Errorf("label %q: error %v, want ok %v", tt.label, err, tt.ok)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "label=") {
			t.Errorf("label %q: error %q does not name the property", tt.label, err)
		}
	}
	_, warns, err := Resolve(props("recordcount", "1", "operationcount", "1", "x\x1b[2Jy", "1", "measurementtype", "raw\nx"), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warns {
		if strings.ContainsAny(string(w), "\x1b\n") {
			t.Errorf("warning holds a control character: %q", w)
		}
	}
	if len(warns) != 2 || !strings.Contains(string(warns[1]), `unknown property x\x1b[2Jy (ignored)`) && !strings.Contains(string(warns[0]), `unknown property x\x1b[2Jy (ignored)`) {
		t.Errorf("warnings = %q", warns)
	}
}
