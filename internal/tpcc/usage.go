package tpcc

// Usage is the help of mongobench tpcc above its flags: the phases and the
// properties this package reads.
const Usage = `usage: mongobench tpcc load|run|check [flags] [-p NAME=VALUE ...]

TPC-C as py-tpcc and its paper (Kamsky, PVLDB 2019) adapt it to MongoDB
(docs/explanation/tpcc.md). load writes the warehouses. run is mongobench
run -p workload=tpcc: it takes run's flags (-threads, -target, --out, ...)
and adds tpmC and each transaction's retries, aborts and rollbacks; then,
unless --no-check, it checks consistency conditions 1-4, as check does.
A broken condition exits 1.

properties (-p) of all three:
  mongodb.url              the server (default: MONGOBENCH_URL, else embedded)
  warehouses=1             the scale; items=100000 and customers=3000
                           (per district) are smaller only for trials
  tpcc.normalized=false    order lines in ORDER_LINE, not in their order
load: seed=0 (the data's), threadcount=1 (warehouses loaded at once)
run: maxexecutiontime=60 unless given, and
  tpcc.loadseed=0          the seed the data was loaded with
  tpcc.transactions=true   multi-document transactions (false: one by one)
  tpcc.findandmodify=true, tpcc.batchwrites=true (stock updates in one bulk
  write), tpcc.deliveryperdistrict=false, tpcc.causal=false,
  tpcc.writeconcern, tpcc.readconcern, tpcc.readpreference
  tpcc.maxattempts=10      runs of a transaction on TransientTransactionError
  tpcc.linepaths           delivered lines by index (default: on FerretDB)

flags of load and check:`
