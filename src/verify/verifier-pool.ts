/**
 * The verifiers of one process's lifts. A verifier is started before its lift needs it, to make its corpus on
 * another core while the lift works; it is used by whichever lift reaches its verification first (check's
 * releases finish in the order their downloads do, not the order they started), rather than that lift
 * starting one cold while a ready one waits for the lift that started it. A lift that needs none (its program
 * was verified before, as most releases' is) leaves it idle for the next: making a corpus costs a second of CPU.
 */
import { startVerifier, type Verifier } from "./verify-process.js";

/** A started verifier no lift has given sides to yet. */
interface IdleVerifier {
  routine: string;
  cases: number;
  verifier: Verifier;
}

export interface VerifierPool {
  /** A verifier for one lift: `run` takes a ready one, or starts one; `cancel` ends the one it ran (one it started
   *  that no lift took stays idle for the next lift). */
  verifierFor(routine: string, cases: number): Verifier;
}

export function verifierPool(start: (routine: string, cases: number) => Verifier = startVerifier): VerifierPool {
  const idle: IdleVerifier[] = [];
  let running = 0;
  const find = (routine: string, cases: number) => idle.findIndex((v) => v.routine === routine && v.cases === cases);
  const claim = (routine: string, cases: number) => {
    const i = find(routine, cases);
    return i < 0 ? undefined : idle.splice(i, 1)[0]!.verifier;
  };

  return {
    verifierFor(routine, cases) {
      // None is started while another lift's sides run: adjacent releases usually share one verification
      // (shared-verification.ts), and a corpus made meanwhile would take a core from those sides.
      if (running === 0 && find(routine, cases) < 0) idle.push({ routine, cases, verifier: start(routine, cases) });
      let claimed: Verifier | undefined;
      return {
        run(original, emitted, budgetMs, toolFields, onCases) {
          claimed = claim(routine, cases) ?? start(routine, cases);
          running++;
          return claimed.run(original, emitted, budgetMs, toolFields, onCases).finally(() => running--);
        },
        // A verifier this lift started and none took stays idle in the pool (it does not keep the process alive).
        cancel() {
          claimed?.cancel();
        },
      };
    },
  };
}
