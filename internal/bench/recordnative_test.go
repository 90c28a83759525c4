package bench

import (
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/native"
	"github.com/mongobench/mongobench/internal/results"
)

// TestRecordNative: a native phase's results record its workload and
// parameters beside the properties, a password in a parameter masked;
// a YCSB phase's are left alone.
func TestRecordNative(t *testing.T) {
	t.Parallel()
	f, err := native.Parse("w.yaml", []byte(`
name: w
parameters: {size: 20, source: "mongodb://u:secret@h/db"}
collections: {c: {document: {_id: 1}}}
operations: [{name: i, kind: insertOne, collection: c}]
phases: {load: {count: 1}}
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	meta := results.Meta{}
	recordNative(&meta, f)
	if meta.Config["native"] != "w" || meta.Config["native.size"] != "20" {
		t.Errorf("config %v", meta.Config)
	}
	if s := meta.Config["native.source"]; strings.Contains(s, "secret") {
		t.Errorf("native.source recorded as %q", s)
	}
	ycsb := results.Meta{Config: map[string]string{"recordcount": "1"}}
	recordNative(&ycsb, nil)
	if len(ycsb.Config) != 1 {
		t.Errorf("a YCSB phase's config became %v", ycsb.Config)
	}
}
