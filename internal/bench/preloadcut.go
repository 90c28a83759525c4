package bench

import "fmt"

// Lines say how far a preload got when a signal stopped it, and what a
// later run on the same data directory ("" for a temporary one) will find.
func (c *PreloadCut) Lines(dataDir string) []string {
	cut := ""
	if c.InFlight > 0 {
		cut = fmt.Sprintf("; %d more were in flight and may be stored too", c.InFlight)
	}
	lines := []string{fmt.Sprintf("loading the embedded server was interrupted: the server acknowledged %d of the %d records for %s%s", c.Acknowledged, c.Records, c.Table, cut)}
	if dataDir != "" {
		lines = append(lines, fmt.Sprintf("a later run with --data-dir %s finds %s not empty and will not load it again: give it an empty --data-dir to load all %d records", dataDir, c.Table, c.Records))
	}
	return lines
}
