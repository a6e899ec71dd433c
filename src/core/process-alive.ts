// Whether a process runs on this machine, by its pid (signal 0 only asks; Bun emulates it on Windows).
export function processAlive(pid: number): boolean {
  try {
    return pid > 0 && process.kill(pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
