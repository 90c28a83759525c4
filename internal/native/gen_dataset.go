package native

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.yaml.in/yaml/v3"
)

// The bounds of a dataset file: it is held in memory, encoded, for the
// whole run, and a k8s run carries it in a ConfigMap (1 MiB in all).
const (
	MaxDatasetBytes  = 16 << 20
	MaxDatasetValues = 1 << 20
)

// DatasetExtensions are the dataset files' accepted names: .txt holds one
// string a line, .jsonl and .ndjson one relaxed Extended JSON value a line.
var DatasetExtensions = []string{".txt", ".jsonl", ".ndjson"}

// Dataset is a file of values a workload draws from with ^dataset.
type Dataset struct {
	// Name is the file as the workload names it; Path is where it was
	// read: Name itself when absolute, else Name in the workload file's
	// directory.
	Name, Path string
	Values     int
	Bytes      int64 // the file's size
}

// dataset is a dataset file's values, encoded once: value i is its BSON
// type types[i] and the bytes enc[off[i]:off[i+1]].
type dataset struct {
	types   []byte
	off     []uint32
	enc     []byte
	largest int64
	// decimal: some value is or holds a decimal128.
	decimal bool
}

func (d *dataset) len() int { return len(d.types) }

// datasetGen draws a line number and appends that line's value.
type datasetGen struct {
	d    *dataset
	pick *intDist // over [0, lines)
}

func (g *datasetGen) maxSize() int64 { return g.d.largest }

func (g *datasetGen) appendValue(dst []byte, c *Ctx, k uint64) ([]byte, byte) {
	c.seed(k)
	i := g.pick.next(c)
	return append(dst, g.d.enc[g.d.off[i]:g.d.off[i+1]]...), g.d.types[i]
}

// dataset compiles ^dataset: FILE or {file: FILE, dist}. The file is read
// the first time the workload names it; every later use shares its
// values.
func (c *compiler) dataset(opt *yaml.Node, what string) gen {
	fileNode, distNode := opt, (*yaml.Node)(nil)
	if opt.Kind == yaml.MappingNode {
		o := c.options(opt, what, []string{"file", "dist"})
		fileNode, distNode = o["file"], o["dist"]
		if fileNode == nil {
			c.p.errorf(opt, "%s has no file; give the dataset file as file: (accepted: %s)", what, strings.Join(DatasetExtensions, ", "))
			return nil
		}
	}
	name := c.p.str(fileNode, what+": file")
	if name == "" {
		if fileNode.Kind == yaml.ScalarNode && fileNode.Tag != "!!null" {
			c.p.errorf(fileNode, "%s: the file name is empty; accepted: a %s file, relative to the workload file's directory", what, strings.Join(DatasetExtensions, ", "))
		}
		return nil
	}
	kind := distUniform
	if distNode != nil {
		kind = c.dist(distNode, what+": dist", distNames)
	}
	d, err := c.p.readDataset(name)
	if err != nil {
		c.p.errorf(fileNode, "%s: %v", what, err)
		return nil
	}
	n := int64(d.len())
	c.decimal = c.decimal || d.decimal
	return &datasetGen{d: d, pick: newIntDist(kind, 0, n-1, float64(n-1)/2, float64(n)/6)}
}

// readDataset reads and encodes the dataset file name, once per parse.
func (p *parser) readDataset(name string) (*dataset, error) {
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(p.file.Path), name)
	}
	if d, ok := p.datasets[path]; ok {
		return d, nil
	}
	ext := strings.ToLower(filepath.Ext(name))
	if !slices.Contains(DatasetExtensions, ext) {
		return nil, fmt.Errorf("%s is not a dataset file by its name; accepted: a name ending %s (one string a line) or %s (one Extended JSON value a line)",
			name, DatasetExtensions[0], strings.Join(DatasetExtensions[1:], " or "))
	}
	data, err := readBounded(path)
	if err != nil {
		return nil, err
	}
	d, err := parseDataset(name, data, ext == ".txt")
	if err != nil {
		return nil, err
	}
	if p.datasets == nil {
		p.datasets = map[string]*dataset{}
	}
	p.datasets[path] = d
	p.file.Datasets = append(p.file.Datasets, Dataset{Name: name, Path: path, Values: d.len(), Bytes: int64(len(data))})
	return d, nil
}

// readBounded reads path, refusing it past MaxDatasetBytes without
// reading further.
func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("dataset file %s does not exist; accepted: a path relative to the workload file's directory, or absolute", path)
		}
		return nil, fmt.Errorf("cannot read dataset file %s: %v", path, errors.Unwrap(err))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxDatasetBytes+1))
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot read dataset file %s: %v", path, err)
	}
	if len(data) > MaxDatasetBytes {
		return nil, fmt.Errorf("dataset file %s is larger than %d MiB; accepted: at most %d bytes and %d values", path, MaxDatasetBytes>>20, MaxDatasetBytes, MaxDatasetValues)
	}
	return data, nil
}

// parseDataset encodes each line of data: a string (text) or an Extended
// JSON value. The last line's newline ends it rather than starting an
// empty value; any other blank line is refused, for an empty value in the
// middle of a file is more often a mistake than meant (an empty string is
// "" in a .jsonl file).
func parseDataset(name string, data []byte, text bool) (*dataset, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	data = bytes.TrimSuffix(data, []byte("\n"))
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("dataset file %s is empty; accepted: one value a line, at least one", name)
	}
	d := &dataset{off: []uint32{0}}
	var wrap []byte
	for i, more := 0, true; more; i++ {
		line := data
		if at := bytes.IndexByte(data, '\n'); at >= 0 {
			line, data = data[:at], data[at+1:]
		} else {
			more = false
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(d.types) == MaxDatasetValues {
			return nil, fmt.Errorf("dataset file %s has more than %d values; accepted: at most %d lines", name, MaxDatasetValues, MaxDatasetValues)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			return nil, fmt.Errorf("%s:%d: a blank line; accepted: one value on every line (an empty string is \"\" in a .jsonl file)", name, i+1)
		}
		start := len(d.enc)
		if text {
			if !utf8.Valid(line) {
				return nil, fmt.Errorf("%s:%d: not valid UTF-8; accepted: UTF-8 text, as BSON strings are", name, i+1)
			}
			d.enc = appendString(d.enc, string(line))
			d.types = append(d.types, tString)
		} else {
			// One JSON value, checked first, so that nothing of the line
			// can close the wrapping below and go unread after it.
			if !json.Valid(line) {
				return nil, fmt.Errorf("%s:%d: not one JSON value; accepted: one relaxed Extended JSON value a line", name, i+1)
			}
			// Any value, not only a document: wrapped as a document's
			// one field, whose element then gives its type and bytes.
			wrap = append(append(append(wrap[:0], `{"v":`...), line...), '}')
			var doc bson.Raw
			if err := bson.UnmarshalExtJSON(wrap, false, &doc); err != nil {
				return nil, fmt.Errorf("%s:%d: not a relaxed Extended JSON value: %v", name, i+1, err)
			}
			elems, err := doc.Elements()
			if err != nil || len(elems) != 1 {
				return nil, fmt.Errorf("%s:%d: not one Extended JSON value; accepted: one value a line", name, i+1)
			}
			v := elems[0].Value()
			d.enc = append(d.enc, v.Value...)
			d.types = append(d.types, byte(v.Type))
			d.decimal = d.decimal || holdsDecimal(v)
		}
		d.largest = max(d.largest, int64(len(d.enc)-start))
		d.off = append(d.off, uint32(len(d.enc)))
	}
	return d, nil
}

// holdsDecimal says whether v is a decimal128 or a document or array
// that holds one at any depth.
func holdsDecimal(v bson.RawValue) bool {
	switch v.Type {
	case bson.TypeDecimal128:
		return true
	case bson.TypeEmbeddedDocument, bson.TypeArray:
		elems, err := bson.Raw(v.Value).Elements()
		if err != nil {
			return false
		}
		for _, e := range elems {
			if holdsDecimal(e.Value()) {
				return true
			}
		}
	}
	return false
}
