package runref

import (
	"strings"

	"github.com/mongobench/mongobench/internal/store"
)

// Names are the names a page gives the groups refs name: the reference
// without the prefix that only told mongobench how to read it
// ("label:ssd" is ssd, "run:12" run 12, "dir:out" out).
func Names(refs []string) []string {
	names := make([]string, len(refs))
	for i, ref := range refs {
		switch {
		case strings.HasPrefix(ref, RunPrefix):
			names[i] = "run " + strings.TrimPrefix(ref, RunPrefix)
		case strings.HasPrefix(ref, store.LabelPrefix):
			names[i] = strings.TrimPrefix(ref, store.LabelPrefix)
		case strings.HasPrefix(ref, DirPrefix):
			names[i] = strings.TrimPrefix(ref, DirPrefix)
		case strings.HasPrefix(ref, FilePrefix):
			names[i] = strings.TrimPrefix(ref, FilePrefix)
		default:
			names[i] = ref
		}
		if names[i] == "" {
			names[i] = ref
		}
	}
	return names
}
