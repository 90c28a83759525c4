package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// flagDef is one flag, defined once: what parses it, what help says of it
// and what error messages list come from this one value.
type flagDef struct {
	name    string   // as typed, without dashes: "threads"
	aliases []string // other names for the same flag: "help" for "h"
	arg     string   // the value's placeholder in help ("N"); "" for a switch
	// usage is the help text; each "\n" starts a line aligned under the
	// first.
	usage string
	// long spells the flag with two dashes, as mongobench's own flags are;
	// YCSB's flags (-P, -p, -threads, -s) keep their single dash.
	long  bool
	value flag.Value
}

// spelled is the flag as help and messages write it: "-threads", "--out".
func (d flagDef) spelled() string {
	if d.long {
		return "--" + d.name
	}
	return "-" + d.name
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

// switchFlag, textFlag and funcFlag build the three kinds of definition.
func switchFlag(name, usage string, long bool, dest *bool) flagDef {
	return flagDef{name: name, usage: usage, long: long, value: switchValue{dest}}
}

func textFlag(name, arg, usage string, long bool, dest *string) flagDef {
	return flagDef{name: name, arg: arg, usage: usage, long: long, value: stringValue{dest}}
}

func funcFlag(name, arg, usage string, long bool, set func(string) error) flagDef {
	return flagDef{name: name, arg: arg, usage: usage, long: long, value: funcValue(set)}
}

// helpFlag is -h (and -help, --help) of every command.
func helpFlag(dest *bool) flagDef {
	d := switchFlag("h", "this help", false, dest)
	d.aliases = []string{"help"}
	return d
}

// flagSet is a command's flags, ready to parse.
type flagSet struct {
	defs []flagDef
	fs   *flag.FlagSet
	// valueErr is the first error a flag's own value gave: its message is
	// already one line saying what is accepted, which the flag package
	// would wrap in a second that repeats it.
	valueErr error
}

// newFlagSet registers defs under every name, with their usage strings.
func newFlagSet(command string, defs []flagDef) *flagSet {
	s := &flagSet{defs: defs, fs: flag.NewFlagSet(command, flag.ContinueOnError)}
	s.fs.SetOutput(io.Discard)
	for _, d := range defs {
		v := d.value
		if d.arg != "" {
			v = capturedValue{v, &s.valueErr}
		}
		for _, name := range append([]string{d.name}, d.aliases...) {
			s.fs.Var(v, name, d.usage)
		}
	}
	return s
}

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

// parse parses args, which stop at the first positional word, as the
// flag package does. The error is the value's own when a value was
// refused, else the flag package's.
func (s *flagSet) parse(args []string) error {
	err := s.fs.Parse(args)
	if err != nil && !errors.Is(err, flag.ErrHelp) && s.valueErr != nil {
		return s.valueErr
	}
	return err
}

// refusal is what a command does with parse's error: help was asked
// for, or bad input — the value's own message, or the unknown flag with
// the flags accepted.
func (s *flagSet) refusal(err error) (help bool, bad error) {
	switch {
	case err == nil:
		return false, nil
	case errors.Is(err, flag.ErrHelp):
		return true, nil
	case s.valueErr != nil:
		return false, badInput{err}
	}
	return false, badInputf("%s: %s: accepted flags are %s", s.fs.Name(), flagMessage(err), acceptedFlags(s.defs, true))
}

// parseInterleaved parses flags that may come before, between or after
// the positional words ("compare a b --alpha 0.01"), as users type them
// and as YCSB accepts them; "--" ends the flags. It returns the
// positional words.
func (s *flagSet) parseInterleaved(args []string) ([]string, error) {
	var pos []string
	for {
		if err := s.parse(args); err != nil {
			return pos, err
		}
		rest := s.fs.Args()
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

// lookup finds the definition named name (or one of its aliases).
func lookup(defs []flagDef, name string) (flagDef, bool) {
	for _, d := range defs {
		if d.name == name {
			return d, true
		}
		for _, a := range d.aliases {
			if a == name {
				return d, true
			}
		}
	}
	return flagDef{}, false
}

// acceptedFlags lists defs for an error message: "-P, -p, --out, -h", or
// with their placeholders ("--alpha P, --store PATH, -h").
func acceptedFlags(defs []flagDef, withArgs bool) string {
	names := make([]string, len(defs))
	for i, d := range defs {
		names[i] = d.spelled()
		if withArgs && d.arg != "" {
			names[i] += " " + d.arg
		}
	}
	return strings.Join(names, ", ")
}

// flagsHelp is the flags section of a command's help: one entry per
// definition, descriptions aligned in one column.
func flagsHelp(defs []flagDef) string {
	left := make([]string, len(defs))
	width := 0
	for i, d := range defs {
		left[i] = d.spelled()
		if d.arg != "" {
			left[i] += " " + d.arg
		}
		width = max(width, len(left[i]))
	}
	var b strings.Builder
	for i, d := range defs {
		if i > 0 {
			b.WriteByte('\n')
		}
		lines := strings.Split(d.usage, "\n")
		fmt.Fprintf(&b, "  %-*s  %s", width, left[i], lines[0])
		for _, l := range lines[1:] {
			fmt.Fprintf(&b, "\n  %-*s  %s", width, "", l)
		}
	}
	return b.String()
}

// flagMessage rewords the flag package's errors in this tool's terms.
func flagMessage(err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return "unknown flag " + name
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return "flag " + name + " needs a value"
	}
	return msg
}

// flagError turns the flag package's messages into one line that says
// what is accepted.
func flagError(err error, defs []flagDef) error {
	msg := flagMessage(err)
	if strings.HasPrefix(msg, "unknown flag ") {
		msg += ": accepted flags are " + acceptedFlags(defs, false)
	}
	return errors.New(msg)
}
