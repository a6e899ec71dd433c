// A progress bar on stderr when it is a terminal; silent otherwise (logs, CI, pipes).

export function progressBar(label: string) {
  const tty = process.stderr.isTTY === true;
  let last = 0;
  return {
    update(done: number, total: number, note = "") {
      const now = performance.now();
      if (!tty || now - last < 100) return;
      last = now;
      const width = 30;
      const ratio = total > 0 ? Math.min(1, done / total) : 0;
      const filled = Math.round(ratio * width);
      process.stderr.write(`\r${label} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${(ratio * 100).toFixed(0).padStart(3)}% ${note}\u001b[K`);
    },
    done() {
      if (tty) process.stderr.write("\r\u001b[K");
    },
  };
}
