package hbasetest

import "os/exec"

// JavaProgram returns the command that runs mainClass (a class of the launcher's jar, or of
// HBase's) in a JVM of its own with args, as a user's program would run on the same
// classpath: a reference for start-up and one-off commands (hbasectl's benchmark against the
// smallest Java client program). It runs with the launcher's JVM flags (heap, serial GC, the
// --add-opens HBase's client needs on JDK 17) and no connection arguments: pass ZKQuorum in
// args.
func (c *Cluster) JavaProgram(mainClass string, args ...string) *exec.Cmd {
	cmdArgs := append(c.jvmArgs(), "-cp", c.launcher.classpath, mainClass)
	return exec.Command(c.launcher.java, append(cmdArgs, args...)...)
}
