package workload

import (
	"context"
	"strings"
	"testing"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/workloads"
)

// keySession records the keys a worker inserts and reads.
type keySession struct {
	benchSession
	inserted map[string]bool
	reads    []string
}

func (s *keySession) Insert(_ context.Context, _, key string, _ []db.Field) error {
	s.inserted[strings.Clone(key)] = true
	return nil
}

func (s *keySession) Read(_ context.Context, _, key string, _ []string, _ db.FieldVisitor) error {
	s.reads = append(s.reads, strings.Clone(key))
	return nil
}

// TestPartsInsertDisjointKeys runs workload D as three parts of one run:
// their inserts never share a key nor hit a loaded one, and each part
// reads only keys that exist: loaded ones, or its own inserts once done.
func TestPartsInsertDisjointKeys(t *testing.T) {
	t.Parallel()
	data, err := workloads.Files.ReadFile("workloadd")
	if err != nil {
		t.Fatal(err)
	}
	for _, ordered := range []string{"hashed", "ordered"} {
		const parts, records = 3, 1000
		loaded := map[string]bool{}
		owner := map[string]int{}
		for part := range parts {
			p, err := Parse(strings.NewReader(string(data)), "workloadd")
			if err != nil {
				t.Fatal(err)
			}
			p.Set("recordcount", "1000", "-p")
			p.Set("insertorder", ordered, "-p")
			p.Set("insertproportion", "0.3", "-p")
			s, _, err := Resolve(p, true)
			if err != nil {
				t.Fatal(err)
			}
			s.Part, s.Parts = part, parts
			if part == 0 {
				for k := range int64(records) {
					loaded[s.KeyName(k)] = true
				}
			}
			core, err := NewCore(s, records, uint64(part))
			if err != nil {
				t.Fatal(err)
			}
			w := core.NewWorker(0, uint64(part), 1)
			ks := &keySession{inserted: map[string]bool{}}
			for range 3000 {
				before := len(ks.reads)
				w.DoTransaction(context.Background(), ks)
				for _, k := range ks.reads[before:] {
					if !loaded[k] && !ks.inserted[k] {
						t.Fatalf("%s: part %d read %s, which neither the load nor its inserts made", ordered, part, k)
					}
				}
			}
			if len(ks.inserted) < 500 {
				t.Fatalf("%s: part %d inserted %d keys of 3000 operations at 30%%", ordered, part, len(ks.inserted))
			}
			for k := range ks.inserted {
				if loaded[k] {
					t.Fatalf("%s: part %d inserted the loaded key %s", ordered, part, k)
				}
				if o, ok := owner[k]; ok {
					t.Fatalf("%s: parts %d and %d both inserted %s", ordered, o, part, k)
				}
				owner[k] = part
			}
		}
	}
}
