package calibrate

// Usage is the help of mongobench calibrate above its flags (Args.Flags).
const Usage = `usage: mongobench calibrate [-threads LIST] [-P file]... [-p name=value]... [-operationcount N] [--repeat N] [--json PATH]

Measures mongobench's own ceiling on this machine: runs a workload against a
MongoDB wire-protocol null server (started as a child process on loopback,
answering every request at once) and prints, per thread count, the client's
ops/s, CPU per operation, p50/p99 latency and RSS on each of mongobench's
wire paths (mongodb.path=driver, shown as "mongobench", and lean) beside a
bare loop of the official Go driver run the same way, and each path's
overhead above it. Workload a and the load phase (batchsize 1 and 100) are
measured at 16 threads too, and each goal is judged: holds or does not hold.
Its phases are load's and run's, sending the server the operations alone:
nothing is observed around them.`
