package cli

import (
	"github.com/mongobench/mongobench/internal/native"
	"github.com/mongobench/mongobench/internal/workload"
)

// splitNative takes the native workload file among the -P files (one at
// most) out of YCSB's properties (native.Split): the -p settings that
// name its parameters go to it, and its phase's threads, rate and length
// come back as properties, which the command line's -threads, -target
// and -p then override as they override a -P file's. Called again, it
// gives the same properties.
func (a *benchArgs) splitNative() (*workload.Properties, error) {
	if a.native == nil {
		settings := make([]native.Parameter, len(a.settings))
		for i, s := range a.settings {
			settings[i] = native.Parameter{Name: s.key, Value: s.value}
		}
		w, files, left, err := native.Split(a.files, settings)
		if err != nil {
			return nil, err
		}
		if w != nil {
			a.native, a.settings = w, a.settings[:0]
			for _, s := range left {
				a.settings = append(a.settings, kv{s.Name, s.Value})
			}
		}
		a.files = files
	}
	props := workload.NewProperties()
	if a.native == nil {
		return props, nil
	}
	w := a.native
	phase, err := native.PhaseProperties(w, a.command)
	if err != nil {
		return nil, err
	}
	for _, p := range phase {
		props.Set(p.Key, p.Value, w.Path)
	}
	return props, nil
}
