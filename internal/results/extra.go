package results

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mongobench/mongobench/internal/metrics"
)

// Extra is the results file's "extra" object: what the run, the client, the
// server and the commands around a phase add to its measurements. Each
// section is typed; the JSON keys are those of format version 1, where the
// object was free-form, so that scripts reading them keep working. The
// runner's counts and the client's figures stay flat in the object, as
// version 1 wrote them, through embedded structs; a nil section is absent
// from the file.
type Extra struct {
	*Runner
	*Client
	Topology *metrics.TopologyInfo `json:"topology,omitempty"`
	Warmup   *Warmup               `json:"warmup,omitempty"`
	Sizes    *Sizes                `json:"sizes,omitempty"`
	// Documents are, per operation of a native workload, the documents
	// it returned or affected and its failures by server error code.
	Documents []OpDocuments `json:"documents,omitempty"`
	// Sharding is the balancer's state and the chunk migrations of a
	// phase run on a sharded collection.
	Sharding *metrics.ShardingRun `json:"sharding,omitempty"`
	// ServerMetrics and HostMetrics are the time series of the server and
	// host metrics sampled over the run, in interval order.
	ServerMetrics []ServerSample `json:"server_metrics,omitempty"`
	HostMetrics   []HostSample   `json:"host_metrics,omitempty"`
	// Sweep says where the run belongs in a sweep.
	Sweep *SweepMark `json:"sweep,omitempty"`
	// StoppedByErrors says why a phase ended on failures.
	StoppedByErrors *ErrorStop `json:"stopped_by_errors,omitempty"`
	// MergedFrom names the results a merge added up, in part order.
	MergedFrom []MergedPart `json:"merged_from,omitempty"`
	// Part says which part of a partitioned run these results are, and
	// of what whole; Merged, that these results are the whole, merged
	// from its parts.
	Part   *Part   `json:"part,omitempty"`
	Merged *Merged `json:"merged,omitempty"`
	// Diagnosis says what limited the run.
	Diagnosis *Diagnosis `json:"diagnosis,omitempty"`
	// Thresholds are the run's --threshold limits, each with how the
	// run met it.
	Thresholds []Threshold `json:"thresholds,omitempty"`
	// TPCC holds a TPC-C run's own figures: tpmC, what happened to each
	// transaction type beyond its status, and the consistency check after
	// the run.
	TPCC *TPCC `json:"tpcc,omitempty"`
}

// TPCC is a TPC-C run's section.
type TPCC struct {
	// TpmC is the committed NewOrders per minute of the run's runtime
	// (py-tpcc's figure, the paper's tables'): the NewOrder operations
	// that were OK, less those rolled back on purpose.
	TpmC float64 `json:"tpmC"`
	// Warehouses is the scale; Standard is false when items or customers
	// were made smaller than the specification's, so that the figures are
	// not comparable with TPC-C's.
	Warehouses int  `json:"warehouses"`
	Standard   bool `json:"standard"`
	// Transactions are the five types in the mix's order.
	Transactions []TPCCTransaction `json:"transactions"`
	// Check is the consistency conditions tested after the run; absent
	// when the run was told not to check (--no-check).
	Check []TPCCCondition `json:"check,omitempty"`
}

// TPCCTransaction counts one transaction type's retries and aborts: a
// whole transaction run again after a TransientTransactionError
// (Retries), a commit sent again after an UnknownTransactionCommitResult
// (CommitRetries), transactions aborted on an error (Aborts), NewOrders
// rolled back on purpose on an invalid item (RolledBack), and
// transactions that ended in an error (Failed).
type TPCCTransaction struct {
	// Name is the operation's: NewOrder, Payment, OrderStatus, Delivery
	// or StockLevel.
	Name string `json:"name"`
	// Retries are whole transactions run again after a
	// TransientTransactionError.
	Retries int64 `json:"retries"`
	// CommitRetries are commits sent again after an
	// UnknownTransactionCommitResult.
	CommitRetries int64 `json:"commit_retries"`
	// Aborts are transactions aborted on an error, retried or not.
	Aborts int64 `json:"aborts"`
	// RolledBack are the NewOrders rolled back on purpose on an invalid
	// item (1% of them); they are recorded OK.
	RolledBack int64 `json:"rolled_back"`
	// Failed are the transactions that ended in an error.
	Failed int64 `json:"failed"`
}

// TPCCCondition is one consistency condition's outcome: how many
// warehouses or districts were checked and how many broke it, with a few
// examples.
type TPCCCondition struct {
	// Number is the condition's, 1 to 4 (clause 3.3.2.1-3.3.2.4).
	Number int `json:"number"`
	// Checked is the warehouses (condition 1) or districts (2 to 4)
	// checked; Failed, how many of them broke it.
	Checked int64 `json:"checked"`
	Failed  int64 `json:"failed"`
	// Examples describe the first few that broke it.
	Examples []string `json:"examples,omitempty"`
}

// Threshold is one --threshold and its outcome.
type Threshold struct {
	// Threshold is the limit in its canonical form, such as
	// READ:p(99)<5ms.
	Threshold string `json:"threshold"`
	// Latency is the latency a latency threshold judged: intended (from
	// each operation's scheduled start) or service.
	Latency string `json:"latency,omitempty"`
	// Observed is the run's figure, in Unit; absent when the run had no
	// data for it, which fails the threshold.
	Observed *float64 `json:"observed,omitempty"`
	// Unit is us (latency, µs), ops/s, share (of the operations, 0 to 1)
	// or operations.
	Unit string `json:"unit"`
	// Pass says the run met the threshold.
	Pass bool `json:"pass"`
	// Reason says why the threshold failed.
	Reason string `json:"reason,omitempty"`
	// AbortedAtS, when above 0, is when the threshold (with abortOnFail)
	// failed on what was measured so far and ended the run, in seconds
	// from its start.
	AbortedAtS float64 `json:"aborted_at_s,omitempty"`
}

// Part is one part of a run split over several client processes (see the
// partition package): which part, of how many, of which run, its share of
// the work and the whole's.
type Part struct {
	Index int `json:"index"` // from 0, as Kubernetes' completion index
	Count int `json:"count"`
	// RunID names the run all the parts belong to: merge refuses parts
	// of different runs.
	RunID string `json:"run_id"`
	Share Share  `json:"share"`
	Whole Share  `json:"whole"`
	// Seed is the part's own seed, derived from the run's.
	Seed uint64 `json:"seed"`
	// StartAt is the instant the parts agreed to start measuring at, and
	// Sync how they agreed on it: "barrier" (in the database under test)
	// or "start-at" (given on the command line); "" for no agreement.
	StartAt time.Time `json:"start_at,omitzero"`
	Sync    string    `json:"sync,omitempty"`
}

// Share is the work of a part or of the whole run.
type Share struct {
	InsertStart    int64   `json:"insert_start"`
	InsertCount    int64   `json:"insert_count"`
	OperationCount int64   `json:"operation_count"`
	Target         float64 `json:"target"`
}

// Merged describes a run merged from its parts.
type Merged struct {
	RunID string `json:"run_id"`
	Parts int    `json:"parts"`
	// StartSkewMs is how far apart the parts started measuring: the
	// latest part's start less the earliest's, in milliseconds.
	StartSkewMs float64 `json:"start_skew_ms"`
	// StartAt is the instant the parts agreed on, when they did.
	StartAt time.Time `json:"start_at,omitzero"`
}

// Runner is what the runner counted besides the measurements.
type Runner struct {
	// LateStarts counts the operations of an open-loop run that started
	// after their intended time because no worker was free.
	LateStarts int64 `json:"late_starts"`
	// AbandonedAtStop counts the operations in flight when the phase's time
	// or a signal ended it: not measured, though the server may have done them.
	AbandonedAtStop    int64 `json:"abandoned_at_stop"`
	StoppedByTime      bool  `json:"stopped_by_time"`
	StoppedBySignal    bool  `json:"stopped_by_signal"`
	OperationsStarted  int64 `json:"operations_started"`
	MeasuredOperations int64 `json:"measured_operations"`
}

// Client is what the client process used over the phase (see the selfmon
// package) and whether it, rather than the server, was the bottleneck.
type Client struct {
	CPUUserS      float64 `json:"client_cpu_user_s"`
	CPUSystemS    float64 `json:"client_cpu_system_s"`
	WallS         float64 `json:"client_wall_s"`
	Utilization   float64 `json:"client_utilization"`
	RunQueueWaitS float64 `json:"client_run_queue_wait_s"`
	Waiting       float64 `json:"client_waiting"`
	Bound         bool    `json:"client_bound"`
	AllowedCPUs   float64 `json:"client_allowed_cpus"`
	GOMAXPROCS    int     `json:"client_gomaxprocs"`
	CgroupCPUs    float64 `json:"client_cgroup_cpus"`
	HostCPUs      int     `json:"host_cpus"`
	RSSBytes      int64   `json:"client_rss_bytes"`
	PeakRSSBytes  int64   `json:"client_peak_rss_bytes"`
	MaxRSSBytes   int64   `json:"client_max_rss_bytes"`
	// IncludesEmbeddedServer says the figures cover the embedded server
	// too, which runs in the client's process.
	IncludesEmbeddedServer bool `json:"client_includes_embedded_server"`
	// CPUPerOpUs is absent when the CPU time could not be read or nothing
	// was done.
	CPUPerOpUs *float64 `json:"client_cpu_per_op_us,omitempty"`
}

// Warmup is what the warm-up before the measured phase did.
type Warmup struct {
	Seconds    float64          `json:"seconds"`
	Operations int64            `json:"operations"`
	Throughput float64          `json:"throughput_ops_sec"`
	P99us      map[string]int64 `json:"p99_us"`
	// Abandoned operations were in flight when the warm-up's time ran out:
	// not counted, though the server may have done them.
	Abandoned int64 `json:"abandoned_at_stop,omitempty"`
}

// Sizes are the collection's sizes before and after the phase; either is
// null when it could not be read.
type Sizes struct {
	Start *metrics.SizeStats `json:"start"`
	End   *metrics.SizeStats `json:"end"`
}

// ServerSample is the server's metrics over one interval; T is the end of
// the sample in seconds from the run's start.
type ServerSample struct {
	T      float64                 `json:"t"`
	Server *metrics.ServerInterval `json:"server"`
}

// HostSample is the hosts' metrics over one interval, as ServerSample.
type HostSample struct {
	T    float64               `json:"t"`
	Host *metrics.HostInterval `json:"host"`
}

// SweepMark is where a run belongs in a sweep, so that compare and report
// can group the runs of a sweep by point from the files alone.
type SweepMark struct {
	ID string `json:"id"`
	// Varied lists the varied properties in command-line order.
	Varied []string          `json:"varied"`
	Point  map[string]string `json:"point"`
	Trial  int               `json:"trial"`
	// Warmup marks the trial --discard-first leaves out of the figures.
	Warmup bool `json:"warmup,omitempty"`
	// FindMax marks a trial of a search for the highest rate its
	// thresholds allow (sweep --find-max): the target is the probe's.
	FindMax bool `json:"find_max,omitempty"`
}

// Label names the mark's point, its varied properties in command-line
// order: "threadcount=4 recordcount=1000".
func (m *SweepMark) Label() string {
	names := m.Varied
	if len(names) == 0 {
		names = slices.Sorted(maps.Keys(m.Point))
	}
	parts := make([]string, 0, len(names))
	for _, n := range names {
		if v, ok := m.Point[n]; ok {
			parts = append(parts, n+"="+v)
		}
	}
	return strings.Join(parts, " ")
}

// ErrorStop says why a phase ended on failures.
type ErrorStop struct {
	Flag   string  `json:"flag"` // --max-errors or --max-error-rate
	Limit  float64 `json:"limit"`
	Failed int64   `json:"failed_operations"`
	// The window --max-error-rate judged: operations finished in it, and
	// its bounds in seconds from the phase's start.
	Finished     int64   `json:"finished_operations,omitempty"`
	WindowStartS float64 `json:"window_start_s,omitempty"`
	WindowEndS   float64 `json:"window_end_s,omitempty"`
	Reason       string  `json:"reason"`
}

// MergedPart is one of the results a merge added up.
type MergedPart struct {
	// Part is the part's index in its run; Source where it was read from.
	Part       int       `json:"part"`
	Source     string    `json:"source,omitempty"`
	Label      string    `json:"label"`
	Start      time.Time `json:"start"`
	End        time.Time `json:"end"`
	Operations int64     `json:"operations"`
	Partial    bool      `json:"partial"`
	Command    []string  `json:"command,omitempty"`
}
