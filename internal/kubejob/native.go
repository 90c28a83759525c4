package kubejob

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/mongobench/mongobench/internal/native"
	"github.com/mongobench/mongobench/internal/redact"
	"github.com/mongobench/mongobench/internal/workload"
)

// isNativeWorkload says whether a -P file is a native workload, by the
// rule the command line reads it by: the native sections, or a YAML or
// JSON name.
func isNativeWorkload(name string, data []byte) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return native.IsNative(data)
}

// nativeConfigMapWorkload is a native workload file as the ConfigMap
// holds it: the YAML the parser reads, encoded again from its tree with
// the comments left out and its secrets masked (a URL's password or
// secret options in any value, and the whole value of a key that says
// password), so that the pods read what the parser read here. A file
// that is not YAML is an error: the command line refused it first. The
// dataset files its ^dataset generators name go beside it, by their base
// names, which the file then names them by: datasets holds them.
func nativeConfigMapWorkload(name string, data []byte) (content string, datasets map[string]string, err error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return "", nil, fmt.Errorf("native workload %s: %v", name, err)
	}
	datasets = map[string]string{}
	if err := moveDatasets(name, &root, datasets, 0); err != nil {
		return "", nil, err
	}
	maskNode(&root, false)
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s as mongobench read it: secrets masked, comments left out\n", filepath.Base(name))
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&root); err != nil {
		return "", nil, fmt.Errorf("native workload %s: %v", name, err)
	}
	if err := enc.Close(); err != nil {
		return "", nil, fmt.Errorf("native workload %s: %v", name, err)
	}
	return b.String(), datasets, nil
}

// moveDatasets reads the dataset file of each ^dataset under n, relative
// to the workload file name as the parser reads it, into datasets by its
// base name, and names it by that base name in the tree: the pods find it
// in WorkloadDir, beside the workload file.
func moveDatasets(name string, n *yaml.Node, datasets map[string]string, depth int) error {
	if n == nil || depth > 200 {
		return nil
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value != "^dataset" {
				continue
			}
			file := n.Content[i+1]
			if file.Kind == yaml.MappingNode {
				file = nil
				for j := 0; j+1 < len(n.Content[i+1].Content); j += 2 {
					if n.Content[i+1].Content[j].Value == "file" {
						file = n.Content[i+1].Content[j+1]
					}
				}
			}
			if file == nil || file.Kind != yaml.ScalarNode {
				continue // the parser refused it first
			}
			if strings.Contains(file.Value, "${") {
				return fmt.Errorf("-P %s:%d:%d: the ^dataset file %s is named by a parameter, which the pods cannot follow to a file here; accepted: the file's name written out", name, file.Line, file.Column, file.Value)
			}
			path := file.Value
			if !filepath.IsAbs(path) {
				path = filepath.Join(filepath.Dir(name), path)
			}
			key := filepath.Base(path)
			// The ConfigMap's bound refuses a large file before it is read.
			if fi, err := os.Stat(path); err == nil && fi.Size() > MaxConfigMapBytes {
				return tooLarge(name, fi.Size())
			}
			data, err := os.ReadFile(path)
			if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
				err = pe.Err
			}
			if err != nil {
				return fmt.Errorf("-P %s:%d:%d: cannot read dataset file %s: %v", name, file.Line, file.Column, path, err)
			}
			if !utf8.Valid(data) {
				return fmt.Errorf("-P %s:%d:%d: dataset file %s is not UTF-8 text, which a ConfigMap's data must be; accepted: UTF-8", name, file.Line, file.Column, path)
			}
			if prev, ok := datasets[key]; ok && prev != string(data) {
				return fmt.Errorf("-P %s:%d:%d: two dataset files are named %s: the pods find them by name in one directory; rename one", name, file.Line, file.Column, key)
			}
			datasets[key] = string(data)
			file.Value, file.Tag, file.Style = key, "!!str", 0
		}
	}
	for _, c := range n.Content {
		if err := moveDatasets(name, c, datasets, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// maskNode removes n's comments and masks its secrets, and its
// children's; secret says n is the value of a key that names a password.
func maskNode(n *yaml.Node, secret bool) {
	n.HeadComment, n.LineComment, n.FootComment = "", "", ""
	if n.Kind == yaml.ScalarNode {
		if secret && n.Value != "" {
			n.Value, n.Tag, n.Style = redact.Mask, "!!str", 0
		} else if m := redact.Text(redact.URL(n.Value)); m != n.Value {
			n.Value = m
		}
		return
	}
	for i, c := range n.Content {
		secretValue := false
		if n.Kind == yaml.MappingNode && i%2 == 1 {
			secretValue = strings.Contains(strings.ToLower(n.Content[i-1].Value), "password")
		}
		maskNode(c, secretValue)
	}
}

// CheckNative refuses what the parts cannot run of the native workload f
// that command runs: a load split into parts is split by its count (each
// part inserting the documents of its share's numbers), so a load phase
// ended by duration alone would have every part insert the same
// documents.
func (s *Spec) CheckNative(f *native.File, command string) error {
	if command == "load" && s.Parts > 1 && f.Load != nil && f.Load.Count == 0 {
		return fmt.Errorf("-P %s: its load phase runs for a duration, which cannot be split into %d parts inserting disjoint documents; accepted: a load phase with count", f.Path, s.Parts)
	}
	return nil
}

// CheckWorkload refuses, before the manifest is written, a workload the
// parts cannot run: a native workload they cannot split (nf, nil for
// none; CheckNative), properties that do not resolve, -P files the pods
// would not have (CheckFiles) and a server they could not reach
// (CheckServer).
func (s *Spec) CheckWorkload(command string, props *workload.Properties, nf *native.File) error {
	if nf != nil {
		if err := s.CheckNative(nf, command); err != nil {
			return err
		}
	}
	spec, _, err := workload.Resolve(props, command == "run")
	if err != nil {
		return err
	}
	if err := s.CheckFiles(spec); err != nil {
		return err
	}
	url, hasURL := props.Get("mongodb.url")
	return s.CheckServer(url, hasURL)
}
