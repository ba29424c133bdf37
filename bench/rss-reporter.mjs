// Loaded with `node --import` into a measured command: reports its peak RSS and how many pages it touched
// for the first time (minor page faults) on exit (stderr, one marker line).
process.on("exit", () => {
  const usage = process.resourceUsage();
  process.stderr.write(`\n@@maxrss ${usage.maxRSS} ${usage.minorPageFault}\n`);
});
