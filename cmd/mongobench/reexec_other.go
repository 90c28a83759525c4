//go:build !unix

package main

// reexec does nothing where a process cannot replace itself: the program
// runs with the runtime's default stacks.
func reexec() {}
