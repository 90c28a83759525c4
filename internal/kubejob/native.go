package kubejob

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

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
// that is not YAML is an error: the command line refused it first.
func nativeConfigMapWorkload(name string, data []byte) (string, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return "", fmt.Errorf("native workload %s: %v", name, err)
	}
	maskNode(&root, false)
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s as mongobench read it: secrets masked, comments left out\n", filepath.Base(name))
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&root); err != nil {
		return "", fmt.Errorf("native workload %s: %v", name, err)
	}
	if err := enc.Close(); err != nil {
		return "", fmt.Errorf("native workload %s: %v", name, err)
	}
	return b.String(), nil
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
