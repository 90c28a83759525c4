package native

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mongobench/mongobench/internal/printable"
)

// Error is one thing wrong in a workload file, where it is.
type Error struct {
	Line, Col int // 0: the whole file (a -p override, say)
	Msg       string
}

// Errors is everything wrong in one file, in the order found.
type Errors struct {
	File string
	List []Error
}

// Error prints one line per error: FILE:LINE:COL: what is wrong; what is
// accepted.
func (e *Errors) Error() string {
	var b strings.Builder
	for i, x := range e.List {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.format(x))
	}
	return b.String()
}

func (e *Errors) format(x Error) string {
	if x.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, x.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, x.Line, x.Col, x.Msg)
}

// Lines returns each error as its one line.
func (e *Errors) Lines() []string {
	out := make([]string, len(e.List))
	for i, x := range e.List {
		out[i] = e.format(x)
	}
	return out
}

// maxErrors stops a file that is wrong throughout from burying the first
// errors, which are the ones to fix first.
const maxErrors = 50

// IsNative reports whether data looks like a native workload file rather
// than YCSB properties: a YAML or JSON mapping with one of the native
// sections. YCSB's "name=value" lines are never a YAML mapping.
func IsNative(data []byte) bool {
	var root yaml.Node
	if yaml.Unmarshal(data, &root) != nil || len(root.Content) == 0 {
		return false
	}
	m := root.Content[0]
	if m.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		switch m.Content[i].Value {
		case "collections", "operations", "phases":
			return true
		}
	}
	return false
}

// Parse reads and checks a workload file. overrides are -p name=value
// settings of its parameters, applied before anything else is read. The
// error, if any, is an *Errors listing everything wrong.
func Parse(path string, data []byte, overrides []Parameter) (*File, error) {
	p := &parser{file: &File{Path: path, Seed: 1, Source: data}, params: map[string]*yaml.Node{}}
	p.parse(data, overrides)
	if len(p.errs) > 0 {
		return nil, &Errors{File: path, List: p.errs}
	}
	return p.file, nil
}

type parser struct {
	file   *File
	errs   []Error
	params map[string]*yaml.Node
	colls  map[string]*Collection
	ops    map[string]*Operation
	refs   []pendingRef
	// datasets are the dataset files read so far, by path: each is read
	// and encoded once however many fields draw from it.
	datasets map[string]*dataset
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) {
	if len(p.errs) >= maxErrors {
		return
	}
	// Messages quote what the file says, which may hold newlines or
	// escape sequences; each error must stay one printable line.
	e := Error{Msg: printable.String(fmt.Sprintf(format, args...))}
	if n != nil {
		e.Line, e.Col = n.Line, n.Column
		// One error per place: the first is the cause (an unknown
		// ${name}), what follows from it there (its value then not a
		// number) would only repeat it.
		for _, x := range p.errs {
			if x.Line == e.Line && x.Col == e.Col {
				return
			}
		}
	}
	p.errs = append(p.errs, e)
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parserProblems are the syntax errors of the YAML library's parser, as
// opposed to its scanner: it numbers their lines from 0 (the line where
// the unclosed construct began), its scanner's from 1.
var parserProblems = []string{
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"did not find expected '-' indicator",
	"did not find expected <document start>",
	"did not find expected key",
	"did not find expected node content",
}

func (p *parser) parse(data []byte, overrides []Parameter) {
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&root); err != nil {
		// The YAML library reports a syntax error's line, not its column.
		msg := err.Error()
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			if slices.Contains(parserProblems, m[2]) {
				line++
			}
			p.errs = append(p.errs, Error{Line: line, Col: 1, Msg: printable.String("not valid YAML or JSON: " + m[2])})
			return
		}
		if errors.Is(err, io.EOF) {
			p.errs = append(p.errs, Error{Msg: "the file is empty; expected a workload: a mapping with collections, operations and phases"})
			return
		}
		p.errs = append(p.errs, Error{Msg: printable.String("not valid YAML or JSON: " + strings.TrimPrefix(msg, "yaml: "))})
		return
	}
	var extra yaml.Node
	if dec.Decode(&extra) == nil {
		p.errorf(&extra, "a second YAML document; a workload file holds one")
	}
	top := root.Content[0]
	if top.Kind != yaml.MappingNode {
		p.errorf(top, "the file is a %s; expected a mapping with the keys %s", kindWord(top), strings.Join(topKeys, ", "))
		return
	}
	sections := map[string]*yaml.Node{}
	p.mapping(top, "the file", topKeys, func(key string, _, v *yaml.Node) { sections[key] = v })
	if v := sections["parameters"]; v != nil {
		p.parameters(v, overrides)
	} else if len(overrides) > 0 {
		p.unknownOverrides(overrides)
	}
	for key, v := range sections {
		if key != "parameters" {
			p.substitute(v, 0)
		}
	}
	if v := sections["name"]; v != nil {
		p.file.Name = p.str(v, "name")
	}
	if v := sections["description"]; v != nil {
		p.file.Description = p.str(v, "description")
	}
	if v := sections["seed"]; v != nil {
		p.file.Seed = uint64(p.int(v, "seed", 0, math.MaxInt64))
	}
	if v := sections["collections"]; v != nil {
		p.collections(v)
	} else {
		p.errorf(top, "no collections; a workload names at least one collection under collections:")
	}
	p.resolveRefs()
	if v := sections["operations"]; v != nil {
		p.operations(v)
		p.resolveRefs()
	} else {
		p.errorf(top, "no operations; a workload names at least one operation under operations:")
	}
	if v := sections["phases"]; v != nil {
		p.phases(v)
	} else {
		p.errorf(top, "no phases; a workload has at least one of %s under phases:", strings.Join(phaseKinds, ", "))
	}
}

func kindWord(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.AliasNode:
		return "alias"
	}
	return fmt.Sprintf("scalar (%q)", strings.TrimPrefix(n.Tag, "!!"))
}

// resolve follows YAML aliases to the node they stand for.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}
