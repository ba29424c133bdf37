/**
 * Child processes that must not outlive their parent (the verifier, a track's lifts): a parent killed
 * with SIGKILL cannot take them along, so they watch for it themselves. When it dies they are
 * re-parented, so `process.ppid` changes; polled here, off the event loop's critical path.
 */

/** Exit status of a child that left because its parent died (as if hung up on: 128 + SIGHUP). */
export const ORPHANED_EXIT = 129;

export function exitWithParent(onExit: () => void = () => {}, intervalMs = 250): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    onExit();
    process.exit(ORPHANED_EXIT);
  }, intervalMs);
  timer.unref();
}
