package kubejob

// Usage is the help of mongobench k8s above its flags (Spec.Flags).
const Usage = `usage: mongobench k8s --parts N --image IMAGE --results-claim CLAIM [flags] load|run mongodb [load/run flags]

Prints a Kubernetes manifest that runs the load or run as N parts on N
nodes: an Indexed Job (the completion index is the part; every part on a
node of its own), a ConfigMap with the -P files that are not built in, and
a pod to copy the parts' results files from. Each part writes its results
file to the ReadWriteMany claim CLAIM; the comments at the top say how to
apply it, collect the files and merge them. The server's URL comes from
-p mongodb.url (without a password) or from a Secret (--url-secret).

flags:`
