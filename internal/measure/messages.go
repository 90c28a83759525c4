package measure

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/mongobench/mongobench/internal/db"
	"github.com/mongobench/mongobench/internal/redact"
)

// MaxErrorMessages is how many distinct error messages are kept per
// operation; failures with any other message are only counted. A run in
// which every operation fails on a different key would otherwise hold
// one message per operation.
const MaxErrorMessages = 3

// maxMessageBytes bounds one kept message: the server's explanation fits,
// a driver's dump of every server's state does not need to.
const maxMessageBytes = 500

// ErrorMessage is one distinct error message and how many failed
// operations ended with it.
type ErrorMessage struct {
	// Message is the error's text, its secrets redacted, cut to a few
	// hundred bytes.
	Message string
	Count   int64
}

// OpErrors are the error messages of one operation's failures: the most
// frequent MaxErrorMessages, most frequent first, and the count of the
// failures that ended with other messages.
type OpErrors struct {
	Op       db.Op
	Messages []ErrorMessage
	Other    int64
}

// messageTally is one worker's messages: written by the worker only,
// read once the workers have stopped.
type messageTally struct {
	// ops is made on the first failure: every worker has a tally, few
	// see failures, and it is sized for every operation code.
	ops *[db.MaxOps]opMessages
}

type opMessages struct {
	raw   []string // as the error said it, to recognise it again cheaply
	kept  []ErrorMessage
	other int64
}

// add counts n failures of op that ended with err. Only the first
// MaxErrorMessages distinct messages a worker sees are kept; the
// redaction, which is costly, runs once per kept message.
func (t *messageTally) add(op db.Op, err error, n int64) {
	if err == nil || int(op) >= db.MaxOps || n <= 0 {
		return
	}
	if t.ops == nil {
		t.ops = new([db.MaxOps]opMessages)
	}
	o := &t.ops[op]
	msg := err.Error()
	for i, r := range o.raw {
		if r == msg {
			o.kept[i].Count += n
			return
		}
	}
	if len(o.raw) == MaxErrorMessages {
		o.other += n
		return
	}
	o.raw = append(o.raw, msg)
	o.kept = append(o.kept, ErrorMessage{Message: cleanMessage(msg), Count: n})
}

// cleanMessage redacts secrets and bounds the length, cutting on a rune
// boundary.
func cleanMessage(msg string) string {
	msg = redact.Text(strings.TrimSpace(msg))
	if len(msg) <= maxMessageBytes {
		return msg
	}
	cut := maxMessageBytes
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut] + "…"
}

// mergeMessages combines the workers' tallies.
func mergeMessages(tallies []*messageTally) []OpErrors {
	sets := make([][]OpErrors, 0, len(tallies))
	for _, t := range tallies {
		var set []OpErrors
		if t.ops == nil {
			sets = append(sets, set)
			continue
		}
		for op := range t.ops {
			o := &t.ops[op]
			if len(o.kept) > 0 || o.other > 0 {
				set = append(set, OpErrors{Op: db.Op(op), Messages: o.kept, Other: o.other})
			}
		}
		sets = append(sets, set)
	}
	return MergeErrorMessages(sets...)
}

// MergeErrorMessages combines the messages of several workers or runs:
// per operation, the MaxErrorMessages most frequent messages over all of
// them (ties by message, so the result does not depend on their order),
// the others counted as Other. A message one worker counted as other
// while another kept it stays in Other: totals are exact, the split a
// lower bound for the kept messages.
func MergeErrorMessages(sets ...[]OpErrors) []OpErrors {
	var out []OpErrors
	for op := range db.MaxOps {
		counts := map[string]int64{}
		var other int64
		for _, set := range sets {
			for _, oe := range set {
				if int(oe.Op) != op {
					continue
				}
				for _, m := range oe.Messages {
					counts[m.Message] += m.Count
				}
				other += oe.Other
			}
		}
		if len(counts) == 0 && other == 0 {
			continue
		}
		msgs := make([]ErrorMessage, 0, len(counts))
		for m, n := range counts {
			msgs = append(msgs, ErrorMessage{Message: m, Count: n})
		}
		sort.Slice(msgs, func(i, j int) bool {
			if msgs[i].Count != msgs[j].Count {
				return msgs[i].Count > msgs[j].Count
			}
			return msgs[i].Message < msgs[j].Message
		})
		keep := min(len(msgs), MaxErrorMessages)
		for _, m := range msgs[keep:] {
			other += m.Count
		}
		out = append(out, OpErrors{Op: db.Op(op), Messages: msgs[:keep:keep], Other: other})
	}
	return out
}
