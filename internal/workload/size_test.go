package workload

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

// TestMaxRecordBytesIsTheBSONSize encodes the largest record of each
// shape as the binding does and checks that MaxRecordBytes is its size to
// the byte, so that the 16 MiB rule refuses exactly what MongoDB would.
func TestMaxRecordBytesIsTheBSONSize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		kv   []string
	}{
		{"defaults", nil},
		{"one field", []string{"fieldcount", "1", "fieldlength", "1"}},
		{"11 fields, two-digit names", []string{"fieldcount", "11"}},
		{"1000 fields, long prefix", []string{"fieldcount", "1000", "fieldlength", "7", "fieldnameprefix", "a_long_field_name_prefix_"}},
		{"padding beyond the digits", []string{"zeropadding", "64"}},
		{"the largest that fits", []string{"fieldcount", "1", "fieldlength", strconv.Itoa(MaxDocumentBytes - 5 - 10 - 24 - 7 - len("field0"))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// zeropadding 20 gives every key the longest length a key
			// can have, so the record is the largest exactly.
			kv := append([]string{"recordcount", "10", "operationcount", "1", "zeropadding", "20"}, tt.kv...)
			spec, _, err := Resolve(props(kv...), true)
			if err != nil {
				t.Fatal(err)
			}
			core, err := NewCore(spec, spec.RecordCount, 1)
			if err != nil {
				t.Fatal(err)
			}
			w := core.NewWorker(0, 1, 1)
			key := spec.KeyName(3)
			values := w.buildValues(nil, make([][]byte, spec.FieldCount), key)
			idx, doc := bsoncore.AppendDocumentStart(nil)
			doc = bsoncore.AppendStringElement(doc, "_id", key)
			for _, f := range values {
				if int64(len(f.Value)) != spec.FieldLength {
					t.Fatalf("field %s is %d bytes, want fieldlength=%d", f.Name, len(f.Value), spec.FieldLength)
				}
				doc = bsoncore.AppendBinaryElement(doc, f.Name, 0, f.Value)
			}
			doc, _ = bsoncore.AppendDocumentEnd(doc, idx)
			if got := spec.MaxRecordBytes(); got != int64(len(doc)) {
				t.Errorf("MaxRecordBytes = %d, the encoded record is %d bytes", got, len(doc))
			}
		})
	}
}

// TestRecordSizeLimit: a record that could exceed MongoDB's 16 MiB
// document limit is refused up front, with the rule, whatever makes it
// large: many fields, long ones, long names or a histogram's largest size.
func TestRecordSizeLimit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	hist := filepath.Join(dir, "hist.txt")
	// 3 buckets of 8 MiB: the largest field is 24 MiB; a last bucket with
	// no count is never drawn and does not count.
	if err := os.WriteFile(hist, []byte("BlockSize\t8388608\n0\t5\n1\t0\n2\t1\n3\t0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	smallHist := filepath.Join(dir, "small.txt")
	if err := os.WriteFile(smallHist, []byte("BlockSize\t1024\n0\t5\n1\t1\n2\t0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// The sizes below are MaxRecordBytes's, which
	// TestMaxRecordBytesIsTheBSONSize checks against encoded records.
	const over = "over MongoDB's document limit of 16777216 bytes (16 MiB): lower fieldcount or the field length"
	tests := []struct {
		name string
		kv   []string
		want string // "" = accepted
	}{
		{"the example", []string{"fieldcount", "65536", "fieldlength", "16777216"},
			"a record of fieldcount=65536 fields of up to fieldlength=16777216 bytes is up to 1099512730817 bytes as BSON, " + over},
		{"one field of 16 MiB", []string{"fieldcount", "1", "fieldlength", "16777216"},
			"a record of fieldcount=1 fields of up to fieldlength=16777216 bytes is up to 16777268 bytes as BSON, " + over},
		{"largest that fits", []string{"fieldcount", "1", "fieldlength", "16777164"}, ""},
		{"one byte more", []string{"fieldcount", "1", "fieldlength", "16777165"}, "is up to 16777217 bytes as BSON"},
		{"many fields", []string{"fieldcount", "1000", "fieldlength", "17000"}, "fieldcount=1000 fields of up to fieldlength=17000 bytes is up to 17014929 bytes"},
		{"many fields that fit", []string{"fieldcount", "1000", "fieldlength", "16000"}, ""},
		{"most fields allowed", []string{"fieldcount", "65536", "fieldlength", "1"}, ""},
		{"uniform lengths count their longest", []string{"fieldcount", "2", "fieldlength", "9000000", "fieldlengthdistribution", "uniform"}, "is up to 18000065 bytes"},
		{"zipfian lengths count their longest", []string{"fieldcount", "2", "fieldlength", "9000000", "fieldlengthdistribution", "zipfian"}, "is up to 18000065 bytes"},
		{"long field names", []string{"fieldcount", "60000", "fieldlength", "1", "fieldnameprefix", strings.Repeat("f", 300)}, "is up to 18768929 bytes"},
		{"histogram", []string{"fieldcount", "1", "fieldlengthdistribution", "histogram", "fieldlengthhistogram", hist},
			"a record of fieldcount=1 fields of up to 25165824 bytes (the largest of fieldlengthhistogram=" + hist + ") is up to 25165876 bytes as BSON, " + over},
		{"small histogram", []string{"fieldcount", "10", "fieldlengthdistribution", "histogram", "fieldlengthhistogram", smallHist}, ""},
		{"fieldcount beyond the maximum", []string{"fieldcount", "65537", "fieldlength", "1"}, `fieldcount="65537" is invalid: expected a whole number from 1 to 65536`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := Resolve(props(append([]string{"recordcount", "10", "operationcount", "1"}, tt.kv...)...), true)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

// TestInFlightLimit: threads x batch x record bounds the client's memory;
// beyond InFlightBudget the combination is refused with the figures.
func TestInFlightLimit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		kv      []string
		batch   int
		wantErr string
	}{
		{"defaults", nil, 1, ""},
		{"a big load", []string{"threadcount", "256", "fieldcount", "10", "fieldlength", "1000"}, 1000, ""},
		{"16 MiB records, 256 threads", []string{"threadcount", "256", "fieldcount", "1", "fieldlength", "16000000"}, 1, ""},
		{"16 MiB records, 300 threads", []string{"threadcount", "300", "fieldcount", "1", "fieldlength", "16000000"}, 1,
			"threadcount=300 x batchsize=1 records of up to 16000052 bytes would hold 4.5 GiB in flight, over the client's limit of 4.0 GiB: lower threadcount, batchsize or the record size"},
		{"1 MiB records in batches of 100 on 100 threads", []string{"threadcount", "100", "fieldcount", "1", "fieldlength", "1048576"}, 100, "would hold 9.8 GiB in flight"},
		{"most threads, smallest record", []string{"threadcount", "1048576", "fieldcount", "1", "fieldlength", "1"}, 1, ""},
		{"most threads, largest batch", []string{"threadcount", "1048576", "fieldcount", "1", "fieldlength", "1"}, 100000, "would hold"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			spec, _, err := Resolve(props(append([]string{"recordcount", "10", "operationcount", "1"}, tt.kv...)...), true)
			if err != nil {
				t.Fatal(err)
			}
			err = spec.CheckInFlight(tt.batch)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}
