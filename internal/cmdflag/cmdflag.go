// Package cmdflag is the flag machinery of mongobench's commands: each flag
// defined once (Def), and from that one value its parsing, its help entry
// and the list of accepted flags that error messages give. A command only
// declares its table; the libraries that own a command's options may
// declare theirs.
package cmdflag

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mongobench/mongobench/internal/redact"
)

// Def is one flag: what parses it, what help says of it and what error
// messages list.
type Def struct {
	Name    string   // as typed, without dashes: "threads"
	Aliases []string // other names for the same flag: "help" for "h"
	Arg     string   // the value's placeholder in help ("N"); "" for a switch
	// Usage is the help text; each "\n" starts a line aligned under the
	// first.
	Usage string
	// Long spells the flag with two dashes, as mongobench's own flags are;
	// YCSB's flags (-P, -p, -threads, -s) keep their single dash.
	Long  bool
	Value flag.Value
}

// Spelled is the flag as help and messages write it: "-threads", "--out".
func (d Def) Spelled() string {
	if d.Long {
		return "--" + d.Name
	}
	return "-" + d.Name
}

// switchValue is a flag.Value for a flag without a value (-s, --drop).
type switchValue struct{ dest *bool }

func (v switchValue) String() string {
	if v.dest == nil {
		return "false"
	}
	return strconv.FormatBool(*v.dest)
}

func (v switchValue) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	*v.dest = b
	return nil
}

func (switchValue) IsBoolFlag() bool { return true }

// funcValue is a flag.Value whose Set is f.
type funcValue func(string) error

func (funcValue) String() string       { return "" }
func (f funcValue) Set(s string) error { return f(s) }

// stringValue is a flag.Value that stores what is given.
type stringValue struct{ dest *string }

func (v stringValue) String() string {
	if v.dest == nil {
		return ""
	}
	return *v.dest
}

func (v stringValue) Set(s string) error {
	*v.dest = s
	return nil
}

// Switch, Text and Func build the three kinds of definition.
func Switch(name, usage string, long bool, dest *bool) Def {
	return Def{Name: name, Usage: usage, Long: long, Value: switchValue{dest}}
}

func Text(name, arg, usage string, long bool, dest *string) Def {
	return Def{Name: name, Arg: arg, Usage: usage, Long: long, Value: stringValue{dest}}
}

func Func(name, arg, usage string, long bool, set func(string) error) Def {
	return Def{Name: name, Arg: arg, Usage: usage, Long: long, Value: funcValue(set)}
}

// Help is -h (and -help, --help) of every command.
func Help(dest *bool) Def {
	d := Switch("h", "this help", false, dest)
	d.Aliases = []string{"help"}
	return d
}

// Set is a command's flags, ready to parse.
type Set struct {
	defs []Def
	// FS is the flag package's set: its Args are the positional words.
	FS *flag.FlagSet
	// valueErr is the first error a flag's own value gave: its message is
	// already one line saying what is accepted, which the flag package
	// would wrap in a second that repeats it.
	valueErr error
}

// NewSet registers defs under every name, with their usage strings.
func NewSet(command string, defs []Def) *Set {
	s := &Set{defs: defs, FS: flag.NewFlagSet(command, flag.ContinueOnError)}
	s.FS.SetOutput(io.Discard)
	for _, d := range defs {
		v := d.Value
		if d.Arg != "" {
			v = capturedValue{v, &s.valueErr}
		}
		for _, name := range append([]string{d.Name}, d.Aliases...) {
			s.FS.Var(v, name, d.Usage)
		}
	}
	return s
}

// ValueErr is the first error a flag's value refused its text with; nil
// when the flag package's own error (an unknown flag, a missing value)
// is the one to say.
func (s *Set) ValueErr() error { return s.valueErr }

// capturedValue keeps the first error its value's Set returns.
type capturedValue struct {
	flag.Value
	first *error
}

func (c capturedValue) Set(s string) error {
	err := c.Value.Set(s)
	if err != nil && *c.first == nil {
		*c.first = err
	}
	return err
}

// IsBoolFlag passes the wrapped value's answer on, so that a switch stays
// one whatever wraps it.
func (c capturedValue) IsBoolFlag() bool {
	b, ok := c.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// Parse parses args, which stop at the first positional word, as the
// flag package does. The error is the value's own when a value was
// refused, else the flag package's.
func (s *Set) Parse(args []string) error {
	err := s.FS.Parse(args)
	if err != nil && !errors.Is(err, flag.ErrHelp) && s.valueErr != nil {
		return s.valueErr
	}
	return err
}

// Refusal is what a command does with Parse's error: help was asked for,
// or the one line to refuse the input with — the value's own message, or
// the unknown flag with the flags accepted.
func (s *Set) Refusal(err error) (help bool, bad error) {
	switch {
	case err == nil:
		return false, nil
	case errors.Is(err, flag.ErrHelp):
		return true, nil
	case s.valueErr != nil:
		return false, err
	}
	return false, fmt.Errorf("%s: %s: accepted flags are %s", s.FS.Name(), Message(err), Accepted(s.defs, true))
}

// ParseInterleaved parses flags that may come before, between or after
// the positional words ("compare a b --alpha 0.01"), as users type them
// and as YCSB accepts them; "--" ends the flags. It returns the
// positional words.
func (s *Set) ParseInterleaved(args []string) ([]string, error) {
	var pos []string
	for {
		if err := s.Parse(args); err != nil {
			return pos, err
		}
		rest := s.FS.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// Lookup finds the definition named name (or one of its aliases).
func Lookup(defs []Def, name string) (Def, bool) {
	for _, d := range defs {
		if d.Name == name {
			return d, true
		}
		for _, a := range d.Aliases {
			if a == name {
				return d, true
			}
		}
	}
	return Def{}, false
}

// Accepted lists defs for an error message: "-P, -p, --out, -h", or with
// their placeholders ("--alpha P, --store PATH, -h").
func Accepted(defs []Def, withArgs bool) string {
	names := make([]string, len(defs))
	for i, d := range defs {
		names[i] = d.Spelled()
		if withArgs && d.Arg != "" {
			names[i] += " " + d.Arg
		}
	}
	return strings.Join(names, ", ")
}

// HelpText is the flags section of a command's help: one entry per
// definition, descriptions aligned in one column.
func HelpText(defs []Def) string {
	left := make([]string, len(defs))
	width := 0
	for i, d := range defs {
		left[i] = d.Spelled()
		if d.Arg != "" {
			left[i] += " " + d.Arg
		}
		width = max(width, len(left[i]))
	}
	var b strings.Builder
	for i, d := range defs {
		if i > 0 {
			b.WriteByte('\n')
		}
		lines := strings.Split(d.Usage, "\n")
		fmt.Fprintf(&b, "  %-*s  %s", width, left[i], lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(&b, "\n  %-*s  %s", width, "", l)
		}
	}
	return b.String()
}

// Message rewords the flag package's errors in this tool's terms.
func Message(err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return "unknown flag " + name
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return "flag " + name + " needs a value"
	}
	return msg
}

// Error turns the flag package's messages into one line that says what is
// accepted.
func Error(err error, defs []Def) error {
	msg := Message(err)
	if strings.HasPrefix(msg, "unknown flag ") {
		msg += ": accepted flags are " + Accepted(defs, false)
	}
	return errors.New(msg)
}

// Extract takes the flags of defs out of args wherever they stand, sets
// them, and returns the other words in order: a command that adds flags
// to another's (sweep to run's) parses its own first and hands the rest
// on. "--" ends the taking; what follows it is returned as is.
func Extract(defs []Def, args []string) ([]string, error) {
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(rest, args[i+1:]...), nil
		}
		if !strings.HasPrefix(a, "-") {
			rest = append(rest, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		d, ok := Lookup(defs, name)
		if !ok {
			rest = append(rest, a)
			continue
		}
		if d.Arg != "" && !hasValue {
			if i+1 >= len(args) {
				return nil, fmt.Errorf("flag --%s needs a value", name)
			}
			i++
			value = args[i]
		}
		if d.Arg == "" {
			on := true
			if hasValue {
				b, err := strconv.ParseBool(value)
				if err != nil {
					return nil, fmt.Errorf("--%s=%s is invalid: expected true or false", name, value)
				}
				on = b
			}
			value = strconv.FormatBool(on)
		}
		if err := d.Value.Set(value); err != nil {
			return nil, err
		}
	}
	return rest, nil
}

// Property is the Set of a -p NAME=VALUE flag: set is given each
// property in command-line order.
func Property(set func(key, value string)) func(string) error {
	return func(v string) error {
		key, value, ok := strings.Cut(v, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			return fmt.Errorf("-p %q: expected -p name=value", redact.Arg(v))
		}
		set(key, value)
		return nil
	}
}

// Append is the Set of a repeatable flag (-P): each value appended to
// dest.
func Append(dest *[]string) func(string) error {
	return func(v string) error {
		*dest = append(*dest, v)
		return nil
	}
}
