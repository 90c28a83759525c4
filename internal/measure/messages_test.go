package measure

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mongobench/mongobench/internal/db"
)

// TestErrorMessages records failures through two workers' recorders and
// checks what the summary keeps: per operation the most frequent messages,
// at most MaxErrorMessages, the rest counted as other, counts exact,
// secrets redacted and long messages cut.
func TestErrorMessages(t *testing.T) {
	t.Parallel()
	long := errors.New(strings.Repeat("é", 400)) // 800 bytes of two-byte runes
	tests := []struct {
		name   string
		record func(a, b *Recorder)
		want   []OpErrors
	}{
		{"no failures", func(a, b *Recorder) {}, nil},
		{"one message over both workers", func(a, b *Recorder) {
			for range 5 {
				a.RecordError(db.Read, errors.New("(Unauthorized) command find requires authentication"), 1)
				b.RecordError(db.Read, errors.New("(Unauthorized) command find requires authentication"), 1)
			}
		}, []OpErrors{{Op: db.Read, Messages: []ErrorMessage{{"(Unauthorized) command find requires authentication", 10}}}}},
		{"every failure a different message: three kept, the rest other", func(a, b *Recorder) {
			for i := range 10 {
				a.RecordError(db.Insert, fmt.Errorf("E11000 duplicate key: user%d", i), 1)
			}
		}, []OpErrors{{Op: db.Insert, Messages: []ErrorMessage{{"E11000 duplicate key: user0", 1}, {"E11000 duplicate key: user1", 1}, {"E11000 duplicate key: user2", 1}}, Other: 7}}},
		{"the most frequent win across workers", func(a, b *Recorder) {
			a.RecordError(db.Update, errors.New("rare"), 1)
			a.RecordError(db.Update, errors.New("timeout"), 5)
			b.RecordError(db.Update, errors.New("write conflict"), 3)
			b.RecordError(db.Update, errors.New("not primary"), 2)
		}, []OpErrors{{Op: db.Update, Messages: []ErrorMessage{{"timeout", 5}, {"write conflict", 3}, {"not primary", 2}}, Other: 1}}},
		{"operations apart, in Op order", func(a, b *Recorder) {
			b.RecordError(db.Scan, errors.New("s"), 1)
			a.RecordError(db.Read, errors.New("r"), 2)
		}, []OpErrors{{Op: db.Read, Messages: []ErrorMessage{{"r", 2}}}, {Op: db.Scan, Messages: []ErrorMessage{{"s", 1}}}}},
		{"a batch counts its records at once", func(a, b *Recorder) {
			a.RecordError(db.Insert, errors.New("batch failed"), 100)
		}, []OpErrors{{Op: db.Insert, Messages: []ErrorMessage{{"batch failed", 100}}}}},
		{"password redacted", func(a, b *Recorder) {
			a.RecordError(db.Read, errors.New("no server at mongodb://bench:S3NTINEL@db1:27017/ycsb"), 1)
		}, []OpErrors{{Op: db.Read, Messages: []ErrorMessage{{"no server at mongodb://bench:***@db1:27017/ycsb", 1}}}}},
		{"long message cut on a rune boundary", func(a, b *Recorder) {
			a.RecordError(db.Read, long, 1)
		}, []OpErrors{{Op: db.Read, Messages: []ErrorMessage{{strings.Repeat("é", 250) + "…", 1}}}}},
		{"nil error, zero count and unknown op ignored", func(a, b *Recorder) {
			a.RecordError(db.Read, nil, 1)
			a.RecordError(db.Read, errors.New("x"), 0)
			a.RecordError(db.Op(200), errors.New("x"), 1)
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, fc := newFakeCollector(Options{Interval: time.Second, Service: true, Threads: 2})
			a, b := c.NewRecorder(), c.NewRecorder()
			c.Start(nil)
			tt.record(a, b)
			fc.ns.Store(int64(time.Millisecond))
			got := c.Stop().ErrorMessages
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ErrorMessages =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

// TestMergeErrorMessages checks that merging runs keeps totals exact and
// does not depend on the order of the runs.
func TestMergeErrorMessages(t *testing.T) {
	t.Parallel()
	a := []OpErrors{{Op: db.Read, Messages: []ErrorMessage{{"x", 4}, {"y", 1}}, Other: 2}}
	b := []OpErrors{{Op: db.Read, Messages: []ErrorMessage{{"z", 3}, {"y", 3}, {"w", 1}}}, {Op: db.Delete, Messages: []ErrorMessage{{"d", 1}}}}
	want := []OpErrors{
		{Op: db.Read, Messages: []ErrorMessage{{"x", 4}, {"y", 4}, {"z", 3}}, Other: 3},
		{Op: db.Delete, Messages: []ErrorMessage{{"d", 1}}},
	}
	for _, got := range [][]OpErrors{MergeErrorMessages(a, b), MergeErrorMessages(b, a)} {
		if !reflect.DeepEqual(got, want) {
			t.Errorf("merged =\n%+v\nwant\n%+v", got, want)
		}
	}
	if got := MergeErrorMessages(); got != nil {
		t.Errorf("merge of nothing = %+v", got)
	}
}
