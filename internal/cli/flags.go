package cli

import (
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

var (
	acceptedFlags = cmdflag.Accepted
	flagsHelp     = cmdflag.HelpText
	flagMessage   = cmdflag.Message
	flagError     = cmdflag.Error
)
