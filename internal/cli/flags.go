package cli

import (
	"flag"

	"github.com/mongobench/mongobench/internal/cmdflag"
)

// flagDef is one flag as cli's tables declare it; cmdflag parses it,
// lays out its help and lists it in messages.
type flagDef struct {
	name    string
	aliases []string
	arg     string
	usage   string
	long    bool
	value   flag.Value
}

func (d flagDef) def() cmdflag.Def {
	return cmdflag.Def{Name: d.name, Aliases: d.aliases, Arg: d.arg, Usage: d.usage, Long: d.long, Value: d.value}
}

func (d flagDef) spelled() string { return d.def().Spelled() }

func fromDef(d cmdflag.Def) flagDef {
	return flagDef{name: d.Name, aliases: d.Aliases, arg: d.Arg, usage: d.Usage, long: d.Long, value: d.Value}
}

// fromDefs takes a library's flag table into cli's.
func fromDefs(ds []cmdflag.Def) []flagDef {
	out := make([]flagDef, len(ds))
	for i, d := range ds {
		out[i] = fromDef(d)
	}
	return out
}

func defsOf(ds []flagDef) []cmdflag.Def {
	out := make([]cmdflag.Def, len(ds))
	for i, d := range ds {
		out[i] = d.def()
	}
	return out
}

func switchFlag(name, usage string, long bool, dest *bool) flagDef {
	return fromDef(cmdflag.Switch(name, usage, long, dest))
}

func textFlag(name, arg, usage string, long bool, dest *string) flagDef {
	return fromDef(cmdflag.Text(name, arg, usage, long, dest))
}

func funcFlag(name, arg, usage string, long bool, set func(string) error) flagDef {
	return fromDef(cmdflag.Func(name, arg, usage, long, set))
}

func helpFlag(dest *bool) flagDef { return fromDef(cmdflag.Help(dest)) }

// flagSet is a command's flags, ready to parse; fs is the flag package's
// set, whose Args are the positional words.
type flagSet struct {
	*cmdflag.Set
	fs *flag.FlagSet
}

func newFlagSet(command string, defs []flagDef) *flagSet {
	s := cmdflag.NewSet(command, defsOf(defs))
	return &flagSet{s, s.FS}
}

func (s *flagSet) parse(args []string) error { return s.Parse(args) }

func (s *flagSet) parseInterleaved(args []string) ([]string, error) {
	return s.ParseInterleaved(args)
}

// refusal is cmdflag's refusal, as bad input.
func (s *flagSet) refusal(err error) (help bool, bad error) {
	help, bad = s.Refusal(err)
	if bad != nil {
		bad = badInput{bad}
	}
	return help, bad
}

func acceptedFlags(defs []flagDef, withArgs bool) string {
	return cmdflag.Accepted(defsOf(defs), withArgs)
}

func flagsHelp(defs []flagDef) string { return cmdflag.HelpText(defsOf(defs)) }

func flagMessage(err error) string { return cmdflag.Message(err) }

func flagError(err error, defs []flagDef) error { return cmdflag.Error(err, defsOf(defs)) }
