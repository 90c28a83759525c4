package sweep

// Usage is the help of mongobench sweep, with a %s for its flags (Flags and
// the command line's own).
const Usage = `usage: mongobench sweep [run|load] mongodb [load/run flags] --vary NAME=V1,V2,... [flags]

Runs the same benchmark at every point of a series: the load/run command line
plus what varies. Each finished run adds a row to the table on stdout; each
run's results file goes to --out-dir and into the results store.

flags:
%s
The command is run unless load is given. With no mongodb.url one embedded
server serves the whole sweep, and the data is loaded before the first point.
Ctrl-C stops the sweep after the current run, whose results are kept, marked
partial.`
