package native

import "path"

// ConfigKey is the key under which the results' configuration records
// the native workload a run ran (its name), and the prefix of those that
// record its parameters' values (native.documents): what a YCSB run's
// properties say of its work, so that comparisons set apart runs of
// different workloads or parameters as they set apart YCSB runs of
// different properties.
const ConfigKey = "native"

// Config is what a run of f records of it in its results' configuration:
// ConfigKey the workload's name (its file's when it has none), and
// ConfigKey.NAME each parameter's value as the run read it (-p applied).
func (f *File) Config() map[string]string {
	name := f.Name
	if name == "" {
		name = path.Base(f.Path)
	}
	out := map[string]string{ConfigKey: name}
	for _, p := range f.Parameters {
		out[ConfigKey+"."+p.Name] = p.Value
	}
	return out
}
