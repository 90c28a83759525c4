package metrics

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// fixtureDocs reads a JSON array of Extended JSON documents, as a cursor
// returns them.
func fixtureDocs(t testing.TB, name string) []bson.Raw {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	out := make([]bson.Raw, len(items))
	for i, it := range items {
		out[i] = extJSON(t, it)
	}
	return out
}

// The documents under testdata/sharding are shaped as the MongoDB manual
// shows them for each version (see testdata/README.md).
func TestParseShardSizes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		fixture string
		want    []ShardSize
	}{
		{
			// 4.4: no numOrphanDocs, sizes as int32 or int64.
			fixture: "sharding/collstats_4.4.json",
			want: []ShardSize{
				{Shard: "shard01", Documents: Known(333120), DataSize: Known(389120000), StorageSize: Known(160903168)},
				{Shard: "shard02", Documents: Known(334120), DataSize: Known(390288000), StorageSize: Known(161427456)},
				{Shard: "shard03", Documents: Known(332760), DataSize: Known(388591680), StorageSize: Known(160645120)},
			},
		},
		{
			// 7.0: numOrphanDocs counts what a migration left on its donor.
			fixture: "sharding/collstats_7.0.json",
			want: []ShardSize{
				{Shard: "shard01", Documents: Known(333120), DataSize: Known(389120000), StorageSize: Known(160903168), Orphans: Known(0)},
				{Shard: "shard02", Documents: Known(344178), DataSize: Known(402000000), StorageSize: Known(166150144), Orphans: Known(10058)},
				{Shard: "shard03", Documents: Known(322702), DataSize: Known(376879680), StorageSize: Known(155877376), Orphans: Known(0)},
			},
		},
	}
	for _, tt := range tests {
		docs := fixtureDocs(t, tt.fixture)
		if got := parseShardSizes(docs); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.fixture, got, tt.want)
		}
		// The collection's own figures are the shards' sums.
		sum, ok := sumStorageStats(docs)
		var docsWant float64
		for _, s := range tt.want {
			docsWant += s.Documents.V
		}
		if !ok || sum.Documents != Known(docsWant) {
			t.Errorf("%s: collection documents %+v, want %v", tt.fixture, sum.Documents, docsWant)
		}
	}
	// A replica set's single document names no shard: no per-shard figures.
	one := extJSON(t, []byte(`{"ns": "ycsb.usertable", "host": "mongo-0:27017", "storageStats": {"size": 10, "count": 1}}`))
	if got := parseShardSizes([]bson.Raw{one}); got != nil {
		t.Errorf("unsharded: %+v, want nil", got)
	}
}

func TestCountChunks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, entry, chunks string
		want                map[string]float64
	}{
		// Up to 4.4 a chunk names its collection by ns.
		{"4.4 by ns", "sharding/collections_4.4.json", "sharding/chunks_4.4.json", map[string]float64{"shard01": 2, "shard02": 2, "shard03": 1}},
		// From 5.0 by the collection's uuid; the last chunk is another collection's.
		{"7.0 by uuid", "sharding/collections_7.0.json", "sharding/chunks_7.0.json", map[string]float64{"shard01": 1, "shard02": 1, "shard03": 2}},
		// A 4.4 entry against 7.0 chunks: neither ns nor uuid match.
		{"no match", "sharding/collections_4.4.json", "sharding/chunks_7.0.json", map[string]float64{}},
	}
	for _, tt := range tests {
		got := countChunks(fixture(t, tt.entry), fixtureDocs(t, tt.chunks))
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestParseListShardsByVersion(t *testing.T) {
	t.Parallel()
	got := parseListShards(fixture(t, "sharding/listshards_4.4.json"))
	if len(got) != 3 || got[2].ID != "shard03" || !got[2].Draining || got[0].Draining ||
		got[0].Host != "shard01/s1a.example.net:27018,s1b.example.net:27018,s1c.example.net:27018" || got[0].State != Known(1) {
		t.Errorf("4.4: %+v", got)
	}
	// 8.0 adds topologyTime and replSetConfigVersion, which change nothing here.
	got = parseListShards(fixture(t, "sharding/listshards_8.0.json"))
	if len(got) != 3 || got[1].ID != "shard02" || got[1].Draining || got[1].State != Known(1) {
		t.Errorf("8.0: %+v", got)
	}
}

func TestParseBalancerStatus(t *testing.T) {
	t.Parallel()
	no := false
	got := parseBalancerStatus(fixture(t, "sharding/balancerstatus.json"))
	want := &BalancerStatus{Mode: "full", InRound: &no, Rounds: Known(86)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestParseMigrations(t *testing.T) {
	t.Parallel()
	start := time.Date(2024, 6, 10, 8, 0, 0, 0, time.UTC)
	at := func(s string) time.Time {
		tm, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	tests := []struct {
		fixture    string
		want       []ChunkMigration
		wantFailed int
	}{
		{
			// 4.4: one migration of 1.45 s in the first 10 s interval; a
			// second one fails (moveChunk.error) and is counted apart.
			fixture: "sharding/changelog_4.4.json",
			want: []ChunkMigration{{
				Commit: at("2024-06-10T08:00:03.550Z"), T: 3.55, Interval: 0, DurationMs: Known(1450),
				From: "shard01", To: "shard03", Documents: Known(41632), Bytes: Known(48626176),
			}},
			wantFailed: 1,
		},
		{
			// 7.0: the first migration started before the phase (its
			// duration is still known: the start is in the changelog read);
			// the second commits in the third interval.
			fixture: "sharding/changelog_7.0.json",
			want: []ChunkMigration{
				{Commit: at("2024-06-10T08:00:01.250Z"), T: 1.25, Interval: 0, DurationMs: Known(2250),
					From: "shard02", To: "shard03", Documents: Known(10058), Bytes: Known(11747744)},
				{Commit: at("2024-06-10T08:00:23.125Z"), T: 23.125, Interval: 2, DurationMs: Known(2125),
					From: "shard01", To: "shard02", Documents: Known(9876), Bytes: Known(11535168)},
			},
		},
	}
	for _, tt := range tests {
		got, failed := parseMigrations(fixtureDocs(t, tt.fixture), start, 10*time.Second)
		if !reflect.DeepEqual(got, tt.want) || failed != tt.wantFailed {
			t.Errorf("%s:\n got %+v, %d failed\nwant %+v, %d failed", tt.fixture, got, failed, tt.want, tt.wantFailed)
		}
	}
	// A commit whose start the changelog no longer holds has no duration.
	docs := fixtureDocs(t, "sharding/changelog_7.0.json")[1:2]
	got, _ := parseMigrations(docs, start, 10*time.Second)
	if len(got) != 1 || got[0].DurationMs.OK {
		t.Errorf("commit alone: %+v, want one migration of unknown duration", got)
	}
}

// FuzzShardingParsers feeds arbitrary bytes as the documents of the
// sharding and replica set replies: no parser may panic, and what they
// read must hold together.
func FuzzShardingParsers(f *testing.F) {
	for _, name := range []string{"sharding/collections_7.0.json", "sharding/balancerstatus.json", "sharding/listshards_4.4.json"} {
		f.Add([]byte(fixture(f, name)))
	}
	for _, name := range []string{"sharding/collstats_4.4.json", "sharding/changelog_4.4.json", "sharding/chunks_7.0.json"} {
		f.Add([]byte(fixtureDocs(f, name)[0]))
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		raw := bson.Raw(data)
		if raw.Validate() != nil {
			return
		}
		docs := []bson.Raw{raw, raw}
		for _, s := range parseShardSizes(docs) {
			if s.Shard == "" {
				t.Errorf("a shard without a name: %+v", s)
			}
		}
		start := time.Date(2024, 6, 10, 8, 0, 0, 0, time.UTC)
		migrations, failed := parseMigrations(docs, start, 10*time.Second)
		if failed < 0 || len(migrations)+failed > len(docs) {
			t.Errorf("%d migrations and %d failures from %d entries", len(migrations), failed, len(docs))
		}
		for _, m := range migrations {
			if m.DurationMs.OK && m.DurationMs.V < 0 {
				t.Errorf("a migration of negative duration: %+v", m)
			}
		}
		var total float64
		for _, n := range countChunks(raw, docs) {
			total += n
		}
		if total > float64(len(docs)) {
			t.Errorf("%v chunks counted from %d documents", total, len(docs))
		}
		_ = parseBalancerStatus(raw)
		_ = parseListShards(raw)
		_ = parseReplSetStatus(raw)
	})
}
