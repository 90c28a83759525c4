package native

import (
	"time"
)

// File is a parsed, checked workload file.
type File struct {
	Path        string
	Name        string
	Description string
	// Seed makes every generated value reproducible; two runs with the
	// same seed generate the same documents and the same operations.
	Seed        uint64
	Parameters  []Parameter
	Collections []*Collection
	Operations  []*Operation
	// Phases by kind; a nil phase is absent from the file.
	Load, Warmup, Measure *Phase
	// Source is the file as read, for parsing it again with other
	// parameters (a sweep's points) and for sending it on (k8s).
	Source []byte
	// Datasets are the files ^dataset read, in the order first named.
	Datasets []Dataset
}

// Parameter is a named value that the rest of the file uses as ${name};
// -p name=value replaces it.
type Parameter struct {
	Name  string
	Value string // as written (or as given by -p)
}

// Collection is one collection the workload uses.
type Collection struct {
	Name string
	// Documents is how many documents the load phase inserts into it: the
	// range that ^ref draws from, and where the measure phase's inserts
	// start numbering.
	Documents int64
	Indexes   []Index
	// ShardKey is the shard key as an ordered document (nil: unsharded).
	ShardKey *Template
	// Validator is the collection's $jsonSchema or query validator.
	Validator *Template
	Document  *Template
}

// Index is one secondary index.
type Index struct {
	Keys               *Template
	Name               string
	Unique             bool
	Sparse             bool
	ExpireAfterSeconds int32 // 0: no TTL
}

// Operation is one named operation of the workload.
type Operation struct {
	Name       string
	Kind       Kind
	Collection *Collection
	Weight     float64
	// Let are values generated once per operation and reused by ^let in
	// its templates and its steps' (the same customer in a find and an
	// update of one transaction).
	Let []Let

	Document *Template // insertOne, insertMany, replaceOne (the replacement)
	Batch    int       // insertMany: documents per call
	Filter   *Template
	Update   *Template // an update document or pipeline
	// ArrayFilters are an update's filters of array elements ($[elem]):
	// a list of filter documents.
	ArrayFilters *Template
	Projection   *Template
	Sort         *Template
	Hint         *Template
	Pipeline     *Template
	// Stages are the aggregation's stage names as written ("$match"),
	// for asking the server whether it runs them before measuring.
	Stages    []string
	Keys      *Template // createIndex
	Field     string    // distinct
	IndexName string    // createIndex
	Unique    bool      // createIndex
	Limit     int64
	Skip      int64
	Upsert    bool
	Ordered   bool // bulkWrite
	ReturnNew bool // findOneAndUpdate: return the document after the update
	// Steps are a bulkWrite's writes or a transaction's operations.
	Steps        []*Operation
	ReadConcern  string
	WriteConcern string
	// Retries bounds how many times a transaction is tried again after a
	// TransientTransactionError or UnknownTransactionCommitResult.
	Retries int
	// Atomic runs a transaction's steps in a transaction (the default);
	// false runs them one after another outside any, for a server that
	// has none (FerretDB, a standalone).
	Atomic bool

	line, col int
}

// Let is one value generated per operation.
type Let struct {
	Name  string
	Value *Template
}

// PhaseKind says which of the commands runs a phase.
type PhaseKind string

// The phases: load runs them by "mongobench load", warmup then measure by
// "mongobench run".
const (
	PhaseLoad    PhaseKind = "load"
	PhaseWarmup  PhaseKind = "warmup"
	PhaseMeasure PhaseKind = "measure"
)

// Phase is how one phase runs: its workers, pace, length and operations.
type Phase struct {
	Kind    PhaseKind
	Threads int
	// Rate is the target in operations per second over all threads; 0 is
	// as fast as the server answers (a closed loop).
	Rate float64
	// Count and Duration end the phase; one of them is set (Count wins
	// if both end it, as YCSB's operationcount and maxexecutiontime do).
	Count      int64
	Duration   time.Duration
	Operations []*Operation
}

// Kind is what an operation does.
type Kind string

// The operation kinds.
const (
	InsertOne        Kind = "insertOne"
	InsertMany       Kind = "insertMany"
	Find             Kind = "find"
	Aggregate        Kind = "aggregate"
	UpdateOne        Kind = "updateOne"
	UpdateMany       Kind = "updateMany"
	ReplaceOne       Kind = "replaceOne"
	FindOneAndUpdate Kind = "findOneAndUpdate"
	FindOneAndDelete Kind = "findOneAndDelete"
	DeleteOne        Kind = "deleteOne"
	DeleteMany       Kind = "deleteMany"
	CountDocuments   Kind = "countDocuments"
	Distinct         Kind = "distinct"
	BulkWrite        Kind = "bulkWrite"
	CreateIndex      Kind = "createIndex"
	Transaction      Kind = "transaction"
)

// kindInfo says which keys an operation of a kind accepts beyond the
// common ones, and which of them it needs.
type kindInfo struct {
	kind     Kind
	options  []string
	required []string
	// write kinds may be steps of a bulkWrite.
	write bool
}

// commonOperationKeys are accepted by every kind.
var commonOperationKeys = []string{"name", "kind", "collection", "weight", "let"}

// kinds is the one table of operation kinds: the parser, the schema and
// the reference all read it.
var kinds = []kindInfo{
	{kind: InsertOne, options: []string{"document"}, write: true},
	{kind: InsertMany, options: []string{"document", "batch", "ordered"}},
	{kind: Find, options: []string{"filter", "projection", "sort", "limit", "skip", "hint"}},
	{kind: Aggregate, options: []string{"pipeline"}, required: []string{"pipeline"}},
	{kind: UpdateOne, options: []string{"filter", "update", "upsert", "arrayFilters"}, required: []string{"filter", "update"}, write: true},
	{kind: UpdateMany, options: []string{"filter", "update", "upsert", "arrayFilters"}, required: []string{"filter", "update"}, write: true},
	{kind: ReplaceOne, options: []string{"filter", "document", "upsert"}, required: []string{"filter"}, write: true},
	{kind: FindOneAndUpdate, options: []string{"filter", "update", "upsert", "arrayFilters", "sort", "projection", "returnNew"}, required: []string{"filter", "update"}},
	{kind: FindOneAndDelete, options: []string{"filter", "sort", "projection"}, required: []string{"filter"}},
	{kind: DeleteOne, options: []string{"filter"}, required: []string{"filter"}, write: true},
	{kind: DeleteMany, options: []string{"filter"}, required: []string{"filter"}, write: true},
	{kind: CountDocuments, options: []string{"filter", "limit", "skip"}},
	{kind: Distinct, options: []string{"field", "filter"}, required: []string{"field"}},
	{kind: BulkWrite, options: []string{"steps", "ordered"}, required: []string{"steps"}},
	{kind: CreateIndex, options: []string{"keys", "indexName", "unique"}, required: []string{"keys"}},
	{kind: Transaction, options: []string{"steps", "readConcern", "writeConcern", "retries", "atomic"}, required: []string{"steps"}},
}

func kindOf(name string) (kindInfo, bool) {
	for _, k := range kinds {
		if string(k.kind) == name {
			return k, true
		}
	}
	return kindInfo{}, false
}

func kindNames() []string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = string(k.kind)
	}
	return names
}

// The keys of the other sections, in the order the reference lists them.
var (
	topKeys        = []string{"name", "description", "seed", "parameters", "collections", "operations", "phases"}
	collectionKeys = []string{"documents", "indexes", "shardKey", "validator", "document"}
	indexKeys      = []string{"keys", "name", "unique", "sparse", "expireAfterSeconds"}
	phaseKeys      = []string{"threads", "rate", "count", "duration", "operations"}
	phaseKinds     = []string{string(PhaseLoad), string(PhaseWarmup), string(PhaseMeasure)}
	readConcerns   = []string{"local", "majority", "snapshot"}
	writeConcerns  = []string{"majority", "1", "0"}
)

// maxBatch bounds insertMany's batch: MongoDB splits larger batches
// itself, and a batch of templates this large is a mistake in the file.
const maxBatch = 100000

// maxRetries bounds a transaction's retries so a server that keeps
// failing cannot hold a worker for ever.
const maxRetries = 100
