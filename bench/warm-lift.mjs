// The lift's own work, without a process's start: one input lifted (not verified) again and again in this
// process through the library API; after `warm` lifts, the median of `runs` more, in ms, on stdout.
// Measured beside the command's time: the difference is what a fresh process pays to start, to compile and
// warm its code, and to fault in a heap that a warm process already has.
//   node bench/warm-lift.mjs INPUT OUT [warm] [runs]
import { lift } from "../dist/index.js";

const [input, out, warm = "3", runs = "7"] = process.argv.slice(2);
const times = [];
for (let i = 0; i < Number(warm) + Number(runs); i++) {
  const t0 = performance.now();
  await lift(input, { out, verify: false });
  if (i >= Number(warm)) times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
console.log(times[Math.floor(times.length / 2)].toFixed(1));
