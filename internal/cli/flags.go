package cli

import (
	"errors"
	"flag"

	"github.com/mongobench/mongobench/internal/cmdflag"
)

// flagDef is one flag as cmdflag defines, parses and lists it; the
// libraries that own a command's options declare theirs the same way.
type flagDef = cmdflag.Def

var (
	switchFlag = cmdflag.Switch
	textFlag   = cmdflag.Text
	funcFlag   = cmdflag.Func
	helpFlag   = cmdflag.Help
)

// fromDef, fromDefs and defsOf are kept for the commands that take a
// library's flag table into their own: the two are one type.
func fromDef(d cmdflag.Def) flagDef       { return d }
func fromDefs(ds []cmdflag.Def) []flagDef { return ds }
func defsOf(ds []flagDef) []cmdflag.Def   { return ds }

// flagSet is a command's flags, ready to parse; fs is the flag package's
// set, whose Args are the positional words.
type flagSet struct {
	*cmdflag.Set
	fs *flag.FlagSet
}

func newFlagSet(command string, defs []flagDef) *flagSet {
	s := cmdflag.NewSet(command, defs)
	return &flagSet{s, s.FS}
}

func (s *flagSet) parse(args []string) error { return s.Parse(args) }

func (s *flagSet) parseInterleaved(args []string) ([]string, error) {
	return s.ParseInterleaved(args)
}

// refusal is cmdflag's refusal, as bad input.
func (s *flagSet) refusal(err error) (help bool, bad error) {
	help, bad = s.Refusal(err)
	return help, asBadInput(bad)
}

// parseRefs parses the command line of a command whose positional words
// are the runs it reads (compare, report): -h is help, any other refusal
// lists the flags accepted.
func parseRefs(command string, defs []flagDef, args []string) (refs []string, help bool, err error) {
	refs, err = newFlagSet(command, defs).parseInterleaved(args)
	if errors.Is(err, flag.ErrHelp) {
		return refs, true, nil
	}
	if err != nil {
		return nil, false, badInputf("%s: %s: accepted flags are %s", command, flagMessage(err), acceptedFlags(defs, true))
	}
	return refs, false, nil
}

var (
	acceptedFlags = cmdflag.Accepted
	flagsHelp     = cmdflag.HelpText
	flagMessage   = cmdflag.Message
	flagError     = cmdflag.Error
)
