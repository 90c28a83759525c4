package workload

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mongobench/mongobench/internal/generator"
	"github.com/mongobench/mongobench/internal/printable"
)

// Distribution names accepted by requestdistribution.
var requestDistributions = []string{"uniform", "zipfian", "latest", "hotspot", "exponential", "sequential"}

// The bounds of status.interval. Every interval closes histograms, writes
// a journal line and a status line, and samples the server: below the
// floor that work is all the client does (at 1 ns it closes one interval
// per nanosecond elapsed and never catches up). Above the ceiling a killed
// run loses hours, since the journal keeps whole intervals only, and the
// --max-error-rate verdicts come too late to matter.
const (
	MinStatusInterval = 100 * time.Millisecond
	MaxStatusInterval = time.Hour
)

// Spec is a workload with every property parsed, validated and defaulted.
type Spec struct {
	Transactions bool // run phase (true) or load phase (false)
	// TPCC says the phase runs TPC-C's transactions (workload=tpcc), not
	// CoreWorkload's operations.
	TPCC bool

	Table          string
	RecordCount    int64
	OperationCount int64
	InsertStart    int64
	InsertCount    int64
	// Part and Parts place this client's run-phase inserts when several
	// clients run the same workload at once (see the partition package):
	// the key numbers it inserts, from the first free one on, are all
	// Part modulo Parts, so no two parts ever insert the same key. Parts
	// 0 or 1 is a client on its own.
	Part, Parts int

	FieldCount              int
	FieldLength             int64
	MinFieldLength          int64
	FieldLengthDistribution string
	FieldLengthHistogram    string
	FieldNamePrefix         string

	ReadAllFields       bool
	ReadAllFieldsByName bool
	WriteAllFields      bool
	DataIntegrity       bool

	// Proportions, normalised to sum to 1, indexed like Operations.
	Proportions [NumTransactionTypes]float64

	RequestDistribution    string
	HotspotDataFraction    float64
	HotspotOpnFraction     float64
	ExponentialPercentile  float64
	ExponentialFrac        float64
	MinScanLength          int64
	MaxScanLength          int64
	ScanLengthDistribution string
	OrderedInserts         bool
	ZeroPadding            int

	InsertionRetryLimit    int
	InsertionRetryInterval time.Duration

	Threads int
	Target  float64 // operations per second over all threads; 0 = unthrottled
	// Stages are a ramp of rates (--stages), instead of Target; nil for none.
	Stages           []Stage
	StatusInterval   time.Duration
	MaxExecutionTime time.Duration
	WarmupTime       time.Duration
	OpTimeout        time.Duration
	Label            string
	Percentiles      []float64
	// MeasureService and MeasureIntended say which latencies the text
	// summary prints (measurement.interval). Service latency is always
	// measured and kept in the results; RecordIntended says whether
	// intended latency is too.
	MeasureService  bool
	MeasureIntended bool
	// MeasurementInterval is measurement.interval as the run uses it: op,
	// intended or both (both by default with a target).
	MeasurementInterval string
	Seed                uint64
	SeedSet             bool
	HdrFileOutput       bool
	HdrOutputPath       string
	// ExportFile receives the summary instead of stdout (exportfile).
	ExportFile string

	// fieldLength is built here, not in NewCore, so a bad histogram file
	// is reported with the other input errors, before anything connects.
	fieldLength generator.Chooser
}

// TransactionType is what the run phase's operation chooser picks.
type TransactionType int

// The transaction types, in YCSB's order.
const (
	TxRead TransactionType = iota
	TxUpdate
	TxInsert
	TxScan
	TxReadModifyWrite
	TxDelete
	NumTransactionTypes
)

var proportionNames = [NumTransactionTypes]string{
	"readproportion", "updateproportion", "insertproportion",
	"scanproportion", "readmodifywriteproportion", "deleteproportion",
}

// The accepted ranges of the numbers that would otherwise overflow: six
// proportions up to maxProportion cannot sum to +Inf, and a target within
// [minTarget, maxTarget] keeps the schedule's offsets within int64.
const (
	maxProportion = 1e6
	minTarget     = 0.001
	maxTarget     = 1e9
)

var targetRange = fmt.Sprintf("0 (as fast as possible) or a rate from %s to %s operations per second", formatBound(minTarget), formatBound(maxTarget))

// Warning is a non-fatal remark about the properties (unknown name,
// normalised proportions), printed as one line on stderr.
type Warning string

// Resolve validates p and returns the Spec. transactions selects the run
// phase. Errors name the property, its value and what is accepted.
func Resolve(p *Properties, transactions bool) (*Spec, []Warning, error) {
	r := resolver{p: p}
	s := &Spec{Transactions: transactions, TPCC: IsTPCC(p)}
	warnings := unknownProperties(p)
	if w, ok := p.Get("workload"); ok && !isCoreWorkload(w) && !IsTPCC(p) {
		return nil, nil, fmt.Errorf("workload=%q: accepted: CoreWorkload (site.ycsb.workloads.CoreWorkload), or tpcc", w)
	}
	r.data(s)
	warnings = append(warnings, r.mix(s, transactions)...)
	warnings = append(warnings, r.client(s)...)
	if r.err == nil {
		r.err = s.checkRecordSize()
	}
	if r.err == nil && transactions && s.OperationCount == 0 && s.MaxExecutionTime == 0 && len(s.Stages) == 0 {
		r.err = errors.New("operationcount=0 means no limit: set operationcount > 0 or maxexecutiontime > 0 so the run can end")
	}
	if r.err != nil {
		return nil, nil, r.err
	}
	return s, warnings, nil
}

// unknownProperties warns of each property mongobench does not read, with
// the nearest one it does.
func unknownProperties(p *Properties) []Warning {
	var warnings []Warning
	for _, k := range p.Keys() {
		if IsKnown(k) {
			continue
		}
		name := printable.String(k)
		msg := fmt.Sprintf("unknown property %s (ignored)", name)
		if hint := Suggest(k); hint != "" {
			msg = fmt.Sprintf("unknown property %s (ignored); did you mean %s?", name, hint)
		}
		warnings = append(warnings, Warning(msg))
	}
	return warnings
}

// data reads what shapes the data set: its table, counts, keys and
// fields.
func (r *resolver) data(s *Spec) {
	s.Table = r.str("table")
	if IsTPCC(r.p) && !r.has("table") {
		// The collection whose size the summary reports: a TPC-C run's
		// NewOrders grow it.
		s.Table = "ORDERS"
	}
	if s.Table == "" {
		r.fail("table", "", "a collection name")
	}
	s.RecordCount = r.int64("recordcount", 0, math.MaxInt64)
	if IsTPCC(r.p) && !r.has("recordcount") {
		// TPC-C's data is its warehouses, which tpcc load writes; the
		// CoreWorkload's keys go unused.
		s.RecordCount = 1
	} else if !r.has("recordcount") || s.RecordCount == 0 {
		r.fail("recordcount", r.raw("recordcount"), "a whole number > 0 (the number of records loaded)")
	}
	s.OperationCount = r.int64("operationcount", 0, math.MaxInt64)
	s.InsertStart = r.int64("insertstart", 0, math.MaxInt64)
	if r.err == nil && s.InsertStart >= s.RecordCount {
		r.err = fmt.Errorf("insertstart=%d is invalid: expected a key number below recordcount=%d (a client loads keys insertstart..insertstart+insertcount-1 of recordcount)", s.InsertStart, s.RecordCount)
	}
	s.InsertCount = r.int64Or("insertcount", s.RecordCount-s.InsertStart, 1, math.MaxInt64)
	// Compared as a difference: insertstart + insertcount can overflow.
	if r.err == nil && s.InsertCount > s.RecordCount-s.InsertStart {
		r.err = fmt.Errorf("insertstart=%d + insertcount=%d is beyond recordcount=%d: a client loads keys insertstart..insertstart+insertcount-1 of recordcount", s.InsertStart, s.InsertCount, s.RecordCount)
	}

	s.FieldCount = int(r.int64("fieldcount", 1, 1<<16))
	s.FieldLength = r.int64("fieldlength", 1, 16<<20)
	s.MinFieldLength = r.int64("minfieldlength", 1, 16<<20)
	s.FieldLengthDistribution = r.oneOf("fieldlengthdistribution", "constant", "uniform", "zipfian", "histogram")
	s.FieldLengthHistogram = r.str("fieldlengthhistogram")
	s.FieldNamePrefix = r.str("fieldnameprefix")
	if r.err == nil && s.FieldLengthDistribution != "constant" && s.FieldLengthDistribution != "histogram" && s.MinFieldLength > s.FieldLength {
		r.err = fmt.Errorf("minfieldlength=%d is greater than fieldlength=%d", s.MinFieldLength, s.FieldLength)
	}

	if r.err == nil {
		fl, err := generator.NewFieldLength(s.FieldLengthDistribution, s.MinFieldLength, s.FieldLength, s.FieldLengthHistogram)
		if err != nil {
			r.err = fmt.Errorf("fieldlengthdistribution=%s: %w", s.FieldLengthDistribution, err)
		}
		s.fieldLength = fl
	}

	s.ReadAllFields = r.bool("readallfields")
	s.ReadAllFieldsByName = r.bool("readallfieldsbyname")
	s.WriteAllFields = r.bool("writeallfields")
	s.DataIntegrity = r.bool("dataintegrity")
	if r.err == nil && s.DataIntegrity && s.FieldLengthDistribution != "constant" {
		r.err = errors.New("dataintegrity=true needs fieldlengthdistribution=constant (YCSB verifies values of a known length)")
	}

}

// mix reads what the operations do: their proportions (normalised as
// YCSB does), the key choosers and the scans.
func (r *resolver) mix(s *Spec, transactions bool) []Warning {
	var warnings []Warning
	sum := 0.0
	for i, name := range proportionNames {
		s.Proportions[i] = r.float("a proportion", name, 0, maxProportion)
		sum += s.Proportions[i]
	}
	if r.err == nil && transactions {
		if sum == 0 {
			r.err = errors.New("all operation proportions are 0: set at least one of readproportion, updateproportion, insertproportion, scanproportion, readmodifywriteproportion, deleteproportion to a value > 0")
		} else if math.Abs(sum-1) > 1e-9 {
			warnings = append(warnings, Warning(fmt.Sprintf("operation proportions sum to %g, not 1: normalised (as YCSB does)", sum)))
		}
	}
	if sum > 0 {
		for i := range s.Proportions {
			s.Proportions[i] /= sum
		}
	}

	s.RequestDistribution = r.oneOf("requestdistribution", requestDistributions...)
	s.HotspotDataFraction = r.float("a fraction", "hotspotdatafraction", 0, 1)
	s.HotspotOpnFraction = r.float("a fraction", "hotspotopnfraction", 0, 1)
	s.ExponentialPercentile = r.float("a percentage", "exponential.percentile", 0, 100)
	s.ExponentialFrac = r.float("a fraction", "exponential.frac", 0, 1)
	if r.err == nil && s.RequestDistribution == "exponential" && (s.ExponentialPercentile <= 0 || s.ExponentialPercentile >= 100 || s.ExponentialFrac <= 0) {
		r.err = fmt.Errorf("requestdistribution=exponential needs 0 < exponential.percentile < 100 and exponential.frac > 0 (got %g and %g)", s.ExponentialPercentile, s.ExponentialFrac)
	}
	s.MinScanLength = r.int64("minscanlength", 1, math.MaxInt32)
	s.MaxScanLength = r.int64("maxscanlength", 1, math.MaxInt32)
	if r.err == nil && s.MinScanLength > s.MaxScanLength {
		r.err = fmt.Errorf("minscanlength=%d is greater than maxscanlength=%d", s.MinScanLength, s.MaxScanLength)
	}
	s.ScanLengthDistribution = r.oneOf("scanlengthdistribution", "uniform", "zipfian")
	s.OrderedInserts = r.oneOf("insertorder", "hashed", "ordered") == "ordered"
	s.ZeroPadding = int(r.int64("zeropadding", 1, 64))

	s.InsertionRetryLimit = int(r.int64("core_workload_insertion_retry_limit", 0, math.MaxInt32))
	s.InsertionRetryInterval = r.seconds("core_workload_insertion_retry_interval")

	return warnings
}

// client reads how the client runs the phase: threads, rate, intervals,
// timeouts, label and what it measures and writes.
func (r *resolver) client(s *Spec) []Warning {
	var warnings []Warning
	p := r.p
	s.Threads = int(r.int64("threadcount", 1, 1<<20))
	s.Target = r.float(targetRange, "target", 0, maxTarget)
	// Below minTarget one operation's slot lies past the end of any run,
	// and the schedule's arithmetic leaves int64.
	if r.err == nil && s.Target > 0 && s.Target < minTarget {
		r.fail("target", r.raw("target"), targetRange)
	}
	r.stages(s)
	s.StatusInterval = r.secondsIn("status.interval", MinStatusInterval, MaxStatusInterval)
	s.MaxExecutionTime = r.seconds("maxexecutiontime")
	s.WarmupTime = r.seconds("warmuptime")
	s.OpTimeout = r.seconds("optimeout")
	if r.err == nil && s.OpTimeout <= 0 {
		r.fail("optimeout", r.raw("optimeout"), "a number of seconds > 0")
	}
	s.Label = r.str("label")
	// A label names the run in tables, file names and reports: a newline
	// or an escape sequence in it would break them.
	if r.err == nil && !printable.Clean(s.Label) {
		r.fail("label", r.raw("label"), "printable text: no control characters such as newlines, tabs or escapes")
	}
	s.Percentiles = r.percentiles()
	mi := r.oneOfOr("measurement.interval", "", "op", "intended", "both")

	switch {
	case mi == "" && s.OpenLoop():
		mi = "both"
	case mi == "":
		mi = "op"
	}
	s.MeasurementInterval = mi
	s.MeasureService = mi == "op" || mi == "both"
	s.MeasureIntended = mi == "intended" || mi == "both"
	if raw, ok := p.Get("seed"); ok {
		v, err := strconv.ParseUint(strings.TrimSpace(raw), 10, 64)
		if err != nil && r.err == nil {
			r.fail("seed", raw, "a whole number >= 0")
		}
		s.Seed, s.SeedSet = v, true
	}
	s.HdrFileOutput = r.bool("hdrhistogram.fileoutput")
	s.HdrOutputPath = r.str("hdrhistogram.output.path")
	s.ExportFile = r.str("exportfile")
	if mt := r.str("measurementtype"); r.err == nil && mt != "hdrhistogram" {
		warnings = append(warnings, Warning(fmt.Sprintf("measurementtype=%s: mongobench always measures with HdrHistogram", printable.String(mt))))
	}

	return warnings
}

// IsTPCC reports whether p's phase is TPC-C's (workload=tpcc), whose
// operations are the five transactions rather than CoreWorkload's.
func IsTPCC(p *Properties) bool {
	w, _ := p.Get("workload")
	return strings.TrimSpace(w) == "tpcc"
}

func isCoreWorkload(w string) bool {
	return w == "site.ycsb.workloads.CoreWorkload" || w == "com.yahoo.ycsb.workloads.CoreWorkload" || w == "CoreWorkload"
}

// resolver reads typed values and keeps the first error, so Resolve reads
// straight through and reports the earliest bad property.
type resolver struct {
	p   *Properties
	err error
}

func (r *resolver) has(name string) bool { _, ok := r.p.Get(name); return ok }

func (r *resolver) raw(name string) string { v, _ := r.p.Get(name); return v }

func (r *resolver) fail(name, value, accepted string) {
	if r.err != nil {
		return
	}
	where := ""
	if o := r.p.Origin(name); o != "" && o != "-p" {
		where = " (" + o + ")"
	}
	if value == "" && !r.has(name) {
		r.err = fmt.Errorf("%s is not set%s: expected %s", name, where, accepted)
		return
	}
	r.err = fmt.Errorf("%s=%q%s is invalid: expected %s", name, value, where, accepted)
}

// value is the property's value, or its default from KnownProperties
// when it is not set: the table is the one place defaults are written, so
// that the reference's table and what runs cannot differ. set says whether
// the user gave it; a property without a default is "" then.
func (r *resolver) value(name string) (v string, set bool) {
	if v, ok := r.p.Get(name); ok {
		return v, true
	}
	return DefaultOf(name), false
}

// badDefault is a default in KnownProperties its reader cannot parse: a
// mistake in the table, which TestDefaultsParse catches.
func badDefault(name string, err error) {
	panic(fmt.Sprintf("workload: the default of %s in KnownProperties does not parse: %v", name, err))
}

func (r *resolver) str(name string) string {
	v, _ := r.value(name)
	return strings.TrimSpace(v)
}

func (r *resolver) int64(name string, lo, hi int64) int64 {
	v, set := r.value(name)
	if !set && v == "" {
		return 0
	}
	n, err := ParseInt(v, lo, hi)
	switch {
	case err != nil && !set:
		badDefault(name, err)
	case err != nil:
		r.fail(name, v, IntRange(lo, hi))
		return 0
	}
	return n
}

// int64Or reads a property whose default is computed from others.
func (r *resolver) int64Or(name string, def, lo, hi int64) int64 {
	if !r.has(name) {
		return def
	}
	return r.int64(name, lo, hi)
}

// float reads a finite number from lo to hi; kind names it in the error
// ("a proportion"), or is the whole description of what is accepted when
// it does not start with "a ".
func (r *resolver) float(kind, name string, lo, hi float64) float64 {
	v, set := r.value(name)
	f, err := ParseFloat(v, lo, hi)
	switch {
	case err != nil && !set:
		badDefault(name, err)
	case err != nil:
		accepted := kind
		if strings.HasPrefix(kind, "a ") {
			accepted = FloatRange(kind, lo, hi)
		}
		r.fail(name, v, accepted)
		return 0
	}
	return f
}

// seconds reads a number of seconds, as YCSB's properties give them, or a
// duration with a unit ("30s", "2m").
func (r *resolver) seconds(name string) time.Duration {
	return r.secondsIn(name, 0, MaxSeconds*time.Second)
}

// secondsIn reads a number of seconds or a duration that must lie in
// [lo, hi]; anything else, infinities and NaN included, is refused with
// the range.
func (r *resolver) secondsIn(name string, lo, hi time.Duration) time.Duration {
	v, set := r.value(name)
	d, err := ParseSeconds(v, lo, hi)
	switch {
	case err != nil && !set:
		badDefault(name, err)
	case err != nil && lo == 0 && hi == MaxSeconds*time.Second:
		r.fail(name, v, SecondsRange(lo, hi))
		return 0
	case err != nil:
		r.fail(name, v, fmt.Sprintf("a number of seconds from %g to %g, or a duration from %s to %s", lo.Seconds(), hi.Seconds(), shortDuration(lo), shortDuration(hi)))
		return 0
	}
	return d
}

// shortDuration writes whole hours and minutes as "1h" and "5m", where
// Duration.String gives "1h0m0s".
func shortDuration(d time.Duration) string {
	switch {
	case d > 0 && d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d > 0 && d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return d.String()
}

func (r *resolver) bool(name string) bool {
	v, set := r.value(name)
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true":
		return true
	case "false":
		return false
	}
	if !set {
		badDefault(name, errors.New("not true or false"))
	}
	r.fail(name, v, "true or false")
	return false
}

func (r *resolver) oneOf(name string, accepted ...string) string {
	v, set := r.value(name)
	v = strings.TrimSpace(v)
	for _, a := range accepted {
		if strings.EqualFold(v, a) {
			return a
		}
	}
	if !set {
		badDefault(name, errors.New("not one of "+strings.Join(accepted, ", ")))
	}
	r.fail(name, v, "one of "+strings.Join(accepted, ", "))
	return ""
}

// oneOfOr reads a property whose default depends on others: def when
// it is not set.
func (r *resolver) oneOfOr(name, def string, accepted ...string) string {
	if !r.has(name) {
		return def
	}
	return r.oneOf(name, accepted...)
}

func (r *resolver) percentiles() []float64 {
	v, _ := r.value("hdrhistogram.percentiles")
	var out []float64
	for _, part := range strings.Split(v, ",") {
		f, err := ParseFloat(part, 0, 100)
		if err != nil || f == 0 {
			r.fail("hdrhistogram.percentiles", v, "a comma-separated list of numbers in (0, 100], e.g. 50,95,99")
			return nil
		}
		out = append(out, f)
	}
	// Printed in ascending order, once each, whatever order they are
	// listed in.
	slices.Sort(out)
	return slices.Compact(out)
}

// RecordIntended says whether intended latency is measured: whenever the
// run follows a -target schedule, since only then does it differ from the
// service latency and show coordinated omission, and whenever the summary
// is asked to print it.
func (s *Spec) RecordIntended() bool { return s.OpenLoop() || s.MeasureIntended }
