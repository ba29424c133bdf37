// Loaded with `node --import` into a measured command: reports its peak RSS on exit (stderr, one marker line).
process.on("exit", () => {
  process.stderr.write(`\n@@maxrss ${process.resourceUsage().maxRSS}\n`);
});
