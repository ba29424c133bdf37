/**
 * How track hands releases to its workers. Releases next to each other in the list (in version order, as
 * folders and ranges give them) usually carry the same routine: lifted one after the other by one worker,
 * all but the first reuse its recorded verification, where two workers lifting them at once would both verify.
 */

/**
 * The releases to lift (their indexes, in list order), cut into one contiguous share per worker.
 */
export function contiguousShares(todo: number[], jobs: number): number[][] {
  const size = Math.ceil(todo.length / jobs);
  return Array.from({ length: jobs }, (_, k) => todo.slice(k * size, (k + 1) * size));
}

/** Worker k's next release: the front of its own share, else the back of the largest share left. */
export function nextIn(shares: number[][], k: number): number | undefined {
  if (shares[k]!.length > 0) return shares[k]!.shift();
  const largest = shares.reduce((a, b) => (b.length > a.length ? b : a));
  return largest.pop();
}
