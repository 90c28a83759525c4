package report

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/mongobench/mongobench/internal/inputfile"
)

// MaxNotesBytes bounds --notes: a conclusion, not a book.
const MaxNotesBytes = 256 << 10

// ReadNotes reads the author's conclusion for the page (--notes); ""
// when no file is named. Its errors name the flag and what it accepts.
func ReadNotes(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	f, err := inputfile.Open(path)
	if err != nil {
		return "", fmt.Errorf("--notes: %w: expected a Markdown file with your conclusion", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxNotesBytes+1))
	if err != nil {
		return "", fmt.Errorf("--notes %s: %w", path, err)
	}
	if len(b) > MaxNotesBytes {
		return "", fmt.Errorf("--notes %s is over %d KiB: expected a conclusion of a few paragraphs", path, MaxNotesBytes/1024)
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("--notes %s is not UTF-8 text: expected a Markdown file", path)
	}
	return string(b), nil
}
