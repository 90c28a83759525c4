package workload

import (
	"fmt"
	"strconv"

	"github.com/mongobench/mongobench/internal/generator"
)

// MaxDocumentBytes is MongoDB's limit on a BSON document, which a record
// (and every insert or update built from it) must respect.
const MaxDocumentBytes = 16 << 20

// InFlightBudget bounds the record bytes the client may hold at once:
// threadcount workers, each with up to batchsize records of the largest
// size, encoded. The driver holds its own copy of a batch while sending
// it, so the memory used is a small multiple of this.
const InFlightBudget = 4 << 30

// maxKeyBytes is the longest key AppendKey can build: "user", then the
// number padded to zeropadding digits; a hashed key number has up to 19
// digits, or 20 with the sign of the one hash Math.abs leaves negative.
func (s *Spec) maxKeyBytes() int64 { return int64(len("user") + max(s.ZeroPadding, 20)) }

// MaxFieldBytes is the longest value a field can get: fieldlength, or the
// largest size in the histogram file.
func (s *Spec) MaxFieldBytes() int64 {
	if h, ok := s.fieldLength.(*generator.Histogram); ok {
		return h.Max()
	}
	return s.FieldLength
}

// MaxRecordBytes is the size of the largest document a record can be,
// BSON overhead included: the document's length and terminator (5 bytes),
// _id as a string (type, name, length, NUL: 10 bytes, plus the key), and
// each field as binary (type, NUL after the name, length, subtype: 7
// bytes, plus name and value). The field name lengths are summed exactly;
// the value and key lengths are their largest.
func (s *Spec) MaxRecordBytes() int64 {
	n := 5 + 10 + s.maxKeyBytes()
	names := int64(0)
	for i := range s.FieldCount {
		names += int64(len(s.FieldNamePrefix) + len(strconv.Itoa(i)))
	}
	perField := 7 + s.MaxFieldBytes()
	fc := int64(s.FieldCount)
	// fieldcount <= 2^16 and a field value <= 2^24 bytes (or a histogram's
	// largest, < 2^63): the product can overflow only for a histogram.
	if perField > (1<<62)/fc {
		return 1 << 62
	}
	return n + names + fc*perField
}

// checkRecordSize refuses records that MongoDB would refuse: every insert
// of them would fail, after the run had started.
func (s *Spec) checkRecordSize() error {
	size := s.MaxRecordBytes()
	if size <= MaxDocumentBytes {
		return nil
	}
	of := fmt.Sprintf("fieldlength=%d bytes", s.FieldLength)
	if s.FieldLengthDistribution == "histogram" {
		of = fmt.Sprintf("%d bytes (the largest of fieldlengthhistogram=%s)", s.MaxFieldBytes(), s.FieldLengthHistogram)
	}
	return fmt.Errorf("a record of fieldcount=%d fields of up to %s is up to %d bytes as BSON, over MongoDB's document limit of %d bytes (16 MiB): lower fieldcount or the field length",
		s.FieldCount, of, size, MaxDocumentBytes)
}

// CheckInFlight refuses a thread count and batch size whose records in
// flight would exceed InFlightBudget: each worker encodes a whole batch
// before sending it, so the client's memory grows with
// threadcount x batchsize x record size.
func (s *Spec) CheckInFlight(batchSize int) error {
	rec := s.MaxRecordBytes()
	batches := int64(s.Threads) * int64(max(batchSize, 1))
	if rec <= InFlightBudget/batches {
		return nil
	}
	return fmt.Errorf("threadcount=%d x batchsize=%d records of up to %d bytes would hold %s in flight, over the client's limit of %s: lower threadcount, batchsize or the record size",
		s.Threads, max(batchSize, 1), rec, gib(float64(batches)*float64(rec)), gib(InFlightBudget))
}

func gib(b float64) string { return strconv.FormatFloat(b/(1<<30), 'f', 1, 64) + " GiB" }
