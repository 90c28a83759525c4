package workload

import (
	"strings"
)

// Known describes one property mongobench understands: its default (as
// YCSB's code has it, not its template files) and what it does. The table
// drives validation, "did you mean" hints and docs/reference/properties.md.
type Known struct {
	Name    string
	Default string
	Help    string
}

// KnownProperties lists every property mongobench reads.
var KnownProperties = []Known{
	// CoreWorkload.
	{"workload", "site.ycsb.workloads.CoreWorkload", "workload class: CoreWorkload, or tpcc for TPC-C's run phase (mongobench tpcc run)"},
	{"recordcount", "", "records in the data set (required for load, > 0)"},
	{"operationcount", "0", "operations in the run phase; 0 means until maxexecutiontime"},
	{"table", "usertable", "collection name"},
	{"fieldcount", "10", "fields per record"},
	{"fieldlength", "100", "field length in bytes (maximum for uniform/zipfian)"},
	{"minfieldlength", "1", "minimum field length for uniform/zipfian lengths"},
	{"fieldlengthdistribution", "constant", "constant|uniform|zipfian|histogram"},
	{"fieldlengthhistogram", "hist.txt", "histogram file for fieldlengthdistribution=histogram"},
	{"fieldnameprefix", "field", "field names are this prefix plus an index"},
	{"readallfields", "true", "read all fields (true) or one random field"},
	{"readallfieldsbyname", "false", "name every field in the read instead of reading the whole record"},
	{"writeallfields", "false", "update all fields (true) or one random field"},
	{"dataintegrity", "false", "write deterministic values and verify them on read (VERIFY measurement); needs constant field length"},
	{"readproportion", "0.95", "share of reads"},
	{"updateproportion", "0.05", "share of updates"},
	{"insertproportion", "0", "share of inserts"},
	{"scanproportion", "0", "share of scans"},
	{"readmodifywriteproportion", "0", "share of read-modify-writes"},
	{"deleteproportion", "0", "share of deletes"},
	{"requestdistribution", "uniform", "uniform|zipfian|latest|hotspot|exponential|sequential"},
	{"hotspotdatafraction", "0.2", "hotspot: fraction of keys that are hot"},
	{"hotspotopnfraction", "0.8", "hotspot: fraction of operations on hot keys"},
	{"exponential.percentile", "95", "exponential: percentage of operations on the first exponential.frac of keys"},
	{"exponential.frac", "0.8571428571", "exponential: fraction of the key space"},
	{"minscanlength", "1", "shortest scan"},
	{"maxscanlength", "1000", "longest scan"},
	{"scanlengthdistribution", "uniform", "uniform|zipfian"},
	{"insertorder", "hashed", "hashed|ordered key order"},
	{"zeropadding", "1", "pad key numbers with zeros to this many digits"},
	{"insertstart", "0", "first key number this client loads"},
	{"insertcount", "", "records this client loads (default recordcount - insertstart)"},
	{"core_workload_insertion_retry_limit", "0", "retries of a failed insert"},
	{"core_workload_insertion_retry_interval", "3", "seconds between insert retries"},
	// Client.
	{"threadcount", "1", "client threads (-threads)"},
	{"target", "0", "total operations per second over all threads, 0 = as fast as possible (-target)"},
	{"stages", "", "a ramp of rates instead of target: DURATION:RATE stages, linear from one to the next from 0, such as 30s:1000,2m:5000,30s:0 (--stages)"},
	{"status.interval", "10", "seconds between status lines and measurement intervals (0.1 to 3600)"},
	{"label", "", "label for the run (-l)"},
	{"maxexecutiontime", "0", "stop the phase after this many seconds, 0 = no limit"},
	{"warmuptime", "0", "run this many seconds before measuring; warm-up operations are reported apart (--warmup)"},
	{"dotransactions", "true", "run phase (true) or load phase (false); set by load/run"},
	{"db", "mongodb", "binding"},
	{"exporter", "site.ycsb.measurements.exporter.TextMeasurementsExporter", "summary format: TextMeasurementsExporter, JSONMeasurementsExporter or JSONArrayMeasurementsExporter (YCSB's formats)"},
	{"exportfile", "", "write the summary here instead of stdout, as YCSB does (the JSON results file is --out)"},
	{"measurementtype", "hdrhistogram", "only hdrhistogram is implemented"},
	{"measurement.interval", "op", "op|intended|both: which latency to report (both by default with -target)"},
	{"hdrhistogram.percentiles", "50,95,99", "percentiles printed in the summary (99.9 and 99.99 are always added)"},
	{"hdrhistogram.fileoutput", "false", "write HdrHistogram interval logs"},
	{"hdrhistogram.output.path", "", "prefix of the HdrHistogram interval logs"},
	{"seed", "", "random seed; the same seed repeats the same operation sequence per thread"},
	{"optimeout", "30", "seconds after which one operation is abandoned and counted as TIMEOUT"},
	// MongoDB binding.
	{"mongodb.url", "", "MongoDB connection string; empty starts the embedded server"},
	{"batchsize", "1", "documents per insertMany in the load phase"},
	{"mongodb.batchsize", "1", "same as batchsize"},
	{"mongodb.upsert", "false", "inserts become upserts, so a load can be repeated"},
	{"mongodb.path", "driver", "wire path of read, update, insert, delete and batched insert: driver (the official driver's operations) or lean (mongobench's own encoding over the driver's connections; what it does not cover goes to the driver)"},
	{"mongodb.writeConcern", "", "write concern, added to the URL unless it sets w: 0|1|2|...|majority, or YCSB's errors_ignored|unacknowledged|acknowledged|journaled|replica_acknowledged"},
	{"mongodb.readPreference", "", "read preference, added to the URL unless it sets one: primary|primary_preferred|secondary|secondary_preferred|nearest"},
	{"mongodb.maxconnections", "", "deprecated: becomes maxPoolSize"},
	{"mongodb.connecttimeout", "10", "seconds to wait for the server at start-up, and then for the pool to open its connections (one per thread, up to maxPoolSize) before each phase"},
	{"mongodb.shardkey", "", "shard the collection through a mongos before a load (check it before a run): _id:hashed, field0:1,_id:1, ..."},
	{"mongodb.shardkey.chunks", "", "numInitialChunks: chunks a hashed shard key starts with (default: the server's)"},
	// TPC-C (workload=tpcc; see docs/explanation/tpcc.md).
	{"warehouses", "1", "TPC-C: the scale, in warehouses"},
	{"items", "100000", "TPC-C: items, and stock records per warehouse (smaller than 100000 only for trials)"},
	{"customers", "3000", "TPC-C: customers per district (smaller than 3000 only for trials)"},
	{"tpcc.loadseed", "0", "TPC-C: the seed the data was loaded with (tpcc load's seed), for NURand's run constants"},
	{"tpcc.transactions", "true", "TPC-C: NewOrder, Payment, OrderStatus and Delivery in multi-document transactions (false: statement by statement)"},
	{"tpcc.normalized", "false", "TPC-C: order lines in ORDER_LINE instead of embedded in their order"},
	{"tpcc.findandmodify", "true", "TPC-C: findAndModify where py-tpcc uses it (false: find then update)"},
	{"tpcc.batchwrites", "true", "TPC-C: a NewOrder's stock updates in one bulk write (false: one update per line)"},
	{"tpcc.deliveryperdistrict", "false", "TPC-C: a Delivery as ten transactions, one per district"},
	{"tpcc.causal", "false", "TPC-C: causally consistent sessions"},
	{"tpcc.writeconcern", "", "TPC-C: the transactions' write concern: majority or a number (default: the server's)"},
	{"tpcc.readconcern", "", "TPC-C: the transactions' read concern: local|majority|snapshot|linearizable|available (default: the server's)"},
	{"tpcc.readpreference", "", "TPC-C: the transactions' read preference (default: primary)"},
	{"tpcc.maxattempts", "10", "TPC-C: runs of a transaction on TransientTransactionError, and commits on UnknownTransactionCommitResult"},
	{"tpcc.linepaths", "", "TPC-C: set delivered order lines by index instead of ORDER_LINE.$[] (default: true on the embedded server only)"},
	{"tpcc.check", "true", "TPC-C: check consistency conditions 1-4 after the run (tpcc run --no-check sets it false)"},
}

// IgnoredProperties are YCSB properties that make no sense for this tool
// (JVM, other bindings' buffering); they are accepted silently.
var IgnoredProperties = map[string]bool{
	"measurement.trackjvm":          true,
	"measurement.histogram.verbose": true,
	"histogram.buckets":             true,
	"timeseries.granularity":        true,
	"reportlatencyforeacherror":     true,
	"latencytrackederrors":          true,
}

var knownByName = func() map[string]Known {
	m := make(map[string]Known, len(KnownProperties))
	for _, k := range KnownProperties {
		m[k.Name] = k
	}
	return m
}()

// DefaultOf is name's default as KnownProperties gives it: the one place
// defaults are written. It panics for a name the table lacks, a mistake
// any test that resolves properties would show.
func DefaultOf(name string) string {
	k, ok := knownByName[name]
	if !ok {
		panic("workload: " + name + " is read but not in KnownProperties")
	}
	return k.Default
}

// IsKnown reports whether name is a property mongobench reads or ignores on purpose.
func IsKnown(name string) bool {
	_, ok := knownByName[name]
	return ok || IgnoredProperties[name]
}

// Suggest returns the known property closest to name, or "" when none is close.
func Suggest(name string) string {
	best, bestDist := "", 1<<30
	for _, k := range KnownProperties {
		d := editDistance(name, k.Name)
		// A truncated name ("requestdistrib") is as good a hint as a typo.
		if len(name) >= 5 && strings.HasPrefix(k.Name, name) {
			d = min(d, 1)
		}
		if d < bestDist {
			best, bestDist = k.Name, d
		}
	}
	// A third of the name may be wrong before the hint stops helping.
	if bestDist <= max(2, len(name)/3) {
		return best
	}
	return ""
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
