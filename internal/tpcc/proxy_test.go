package tpcc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

// proxy sits between the driver and the null server. The null server
// answers every command with a canned YCSB-shaped reply, which a TPC-C
// transaction cannot use (it needs a district's next order id, the items
// it asked for); the proxy forwards each command, so the null server still
// sees and records it, and replaces the reply with what respond makes of
// the command, when it makes something. It also keeps each command whole,
// with its document sequences (an insert's documents, an update's
// statements), which the null server's record leaves out.
type proxy struct {
	ln      net.Listener
	target  string
	respond func(cmd bson.D) bson.D

	mu       sync.Mutex
	commands []bson.D
	wg       sync.WaitGroup
}

const (
	opQuery = 2004
	opMsg   = 2013
)

func startProxy(t *testing.T, target string, respond func(cmd bson.D) bson.D) *proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target, respond: respond}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(func() {
		_ = ln.Close()
		p.wg.Wait()
	})
	return p
}

func (p *proxy) uri() string {
	return "mongodb://" + p.ln.Addr().String() + "/?directConnection=true"
}

func (p *proxy) accept() {
	defer p.wg.Done()
	var conns []net.Conn
	var mu sync.Mutex
	defer func() {
		mu.Lock()
		for _, c := range conns {
			_ = c.Close()
		}
		mu.Unlock()
	}()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			_ = c.Close()
			continue
		}
		mu.Lock()
		conns = append(conns, c, s)
		mu.Unlock()
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			defer c.Close()
			defer s.Close()
			_ = p.serve(c, s)
		}()
	}
}

func readMsg(r io.Reader) ([]byte, error) {
	var h [4]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return nil, err
	}
	n := int(binary.LittleEndian.Uint32(h[:]))
	if n < 16 || n > 48<<20 {
		return nil, fmt.Errorf("message length %d", n)
	}
	b := make([]byte, n)
	copy(b, h[:])
	_, err := io.ReadFull(r, b[4:])
	return b, err
}

func (p *proxy) serve(c, s net.Conn) error {
	for {
		req, err := readMsg(c)
		if err != nil {
			return err
		}
		if _, err := s.Write(req); err != nil {
			return err
		}
		reply, err := readMsg(s)
		if err != nil {
			return err
		}
		if binary.LittleEndian.Uint32(req[12:]) == opMsg {
			cmd, err := parseCommand(req)
			if err != nil {
				return err
			}
			if name := cmd[0].Key; name != "hello" && name != "isMaster" && name != "ismaster" && name != "endSessions" {
				p.mu.Lock()
				p.commands = append(p.commands, cmd)
				p.mu.Unlock()
				if doc := p.respond(cmd); doc != nil {
					reply, err = opMsgReply(reply, doc)
					if err != nil {
						return err
					}
				}
			}
		}
		if _, err := c.Write(reply); err != nil {
			return err
		}
	}
}

// parseCommand is an OP_MSG's command with its document sequences added
// as arrays, as the server sees it.
func parseCommand(msg []byte) (bson.D, error) {
	flags := binary.LittleEndian.Uint32(msg[16:])
	rest := msg[20:]
	if flags&1 != 0 { // checksum present
		rest = rest[:len(rest)-4]
	}
	var cmd bson.D
	var seqs []bson.E
	for len(rest) > 0 {
		kind := rest[0]
		rest = rest[1:]
		switch kind {
		case 0:
			doc, r, ok := bsoncore.ReadDocument(rest)
			if !ok {
				return nil, errors.New("bad body")
			}
			if err := bson.Unmarshal(doc, &cmd); err != nil {
				return nil, err
			}
			rest = r
		case 1:
			n := int(binary.LittleEndian.Uint32(rest))
			sec := rest[4:n]
			rest = rest[n:]
			i := 0
			for sec[i] != 0 {
				i++
			}
			ident := string(sec[:i])
			sec = sec[i+1:]
			var docs bson.A
			for len(sec) > 0 {
				doc, r, ok := bsoncore.ReadDocument(sec)
				if !ok {
					return nil, errors.New("bad sequence")
				}
				var d bson.D
				if err := bson.Unmarshal(doc, &d); err != nil {
					return nil, err
				}
				docs = append(docs, d)
				sec = r
			}
			seqs = append(seqs, bson.E{Key: ident, Value: docs})
		default:
			return nil, fmt.Errorf("section kind %d", kind)
		}
	}
	if len(cmd) == 0 {
		return nil, errors.New("no body")
	}
	return append(cmd, seqs...), nil
}

// opMsgReply is an OP_MSG reply carrying doc, answering what the original
// reply answered.
func opMsgReply(orig []byte, doc bson.D) ([]byte, error) {
	body, err := bson.Marshal(doc)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 16, 21+len(body))
	copy(out[4:16], orig[4:16])
	binary.LittleEndian.PutUint32(out[12:], opMsg)
	out = binary.LittleEndian.AppendUint32(out, 0)
	out = append(out, 0)
	out = append(out, body...)
	binary.LittleEndian.PutUint32(out, uint32(len(out)))
	return out, nil
}

// Commands returns the commands seen so far.
func (p *proxy) Commands() []bson.D {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]bson.D(nil), p.commands...)
}
