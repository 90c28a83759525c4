package disk

// Usage is the help of mongobench disk above its flags (Options.Flags).
const Usage = `usage: mongobench disk [--dir D] [--size S] [--runtime T] [--store PATH]

Measures the disk directory D lives on with fio (the Debian package fio):
random 4 KiB reads and writes at queue depths 1, 8 and 32, sequential 1 MiB
reads and writes, each with its IOPS, MB/s and latency percentiles. The
baseline is kept in the results store beside the runs; the runs on that disk
are judged against its ceiling ([DIAGNOSIS]), and the report shows how much
of it each run used. Point D at the disk the database lives on.

flags:`
