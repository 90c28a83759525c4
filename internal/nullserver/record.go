package nullserver

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

// Options configure StartWith.
type Options struct {
	// Record keeps every command the server receives, except the drivers'
	// handshakes, heartbeats and session bookkeeping, for Commands.
	Record bool
	// Respond, when not nil, is asked first for the reply to every
	// command, so that a test can give the server state of its own (a
	// mongos in front of a fake cluster, say) without the fake living
	// in the server.
	Respond Responder
}

// Responder answers a command in the server's place: the whole reply
// document, or ok false to leave the command to the server's own answer.
// It is called from every connection's goroutine at once.
type Responder func(r Request) (reply []byte, ok bool)

// Request is a command as a Responder sees it. Doc aliases the
// connection's buffer: it is valid only until the Responder returns.
type Request struct {
	DB   string
	Name string
	// Collection is the command's first value when it is a string: the
	// collection of a CRUD command.
	Collection string
	// Statements counts insert's documents, update's updates or delete's
	// deletes.
	Statements int
	Doc        bson.Raw

	h *handler
	c *command
}

// Default is the reply the server gives to the command on its own.
func (r Request) Default() []byte { return r.h.appendDefault(nil, r.c) }

// request is c as a Responder sees it.
func (h *handler) request(c *command) Request {
	coll, _ := stringValue(c.arg)
	return Request{DB: string(c.db), Name: string(c.name), Collection: string(coll), Statements: c.statements, Doc: bson.Raw(c.doc), h: h, c: c}
}

// Command is one command a recording server received.
type Command struct {
	DB   string
	Name string
	// Doc is the command document as sent.
	Doc bson.Raw
	// Sequences are the documents the command carried in document
	// sequences (OP_MSG kind 1 sections), by identifier ("documents",
	// "updates", "deletes"), in the order sent.
	Sequences map[string][]bson.Raw
}

// String is the command as "db.name {arguments}" in relaxed Extended JSON,
// without the fields every driver adds (lsid, $clusterTime, $db,
// $readPreference, ...), so that a recorded sequence reads like the shell
// commands a user would type.
func (c Command) String() string {
	var d bson.D
	if err := bson.Unmarshal(c.Doc, &d); err != nil {
		return c.DB + "." + c.Name + " <invalid: " + err.Error() + ">"
	}
	d = slices.DeleteFunc(d, func(e bson.E) bool {
		return strings.HasPrefix(e.Key, "$") || e.Key == "lsid" || e.Key == "txnNumber" || e.Key == "maxTimeMS"
	})
	b, err := bson.MarshalExtJSON(d, false, false)
	if err != nil {
		return c.DB + "." + c.Name + " <invalid: " + err.Error() + ">"
	}
	return c.DB + "." + c.Name + " " + string(b)
}

// Commands returns the commands received so far, in the order they were
// answered, when the server records; nil otherwise.
func (s *Server) Commands() []Command {
	s.recMu.Lock()
	defer s.recMu.Unlock()
	return slices.Clone(s.recorded)
}

// unrecorded are the commands drivers send on their own, whose number
// depends on timing rather than on what the client was asked to do.
var unrecorded = map[string]bool{
	"hello": true, "isMaster": true, "ismaster": true, "ping": true,
	"endSessions": true, "killCursors": true, "saslStart": true, "saslContinue": true,
}

func (s *Server) keep(c *command) {
	if !s.record || unrecorded[string(c.name)] {
		return
	}
	rec := Command{DB: string(c.db), Name: string(c.name), Doc: slices.Clone(bson.Raw(c.doc))}
	for _, seq := range c.seqs[:c.nseqs] {
		if rec.Sequences == nil {
			rec.Sequences = map[string][]bson.Raw{}
		}
		for data := seq.data; len(data) > 0; {
			d, rest, ok := bsoncore.ReadDocument(data)
			if !ok {
				break
			}
			rec.Sequences[string(seq.ident)] = append(rec.Sequences[string(seq.ident)], slices.Clone(bson.Raw(d)))
			data = rest
		}
	}
	s.recMu.Lock()
	s.recorded = append(s.recorded, rec)
	s.recMu.Unlock()
}
