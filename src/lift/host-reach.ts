/**
 * Whether a module-level definition reaches the host: its closure — what collectClosure would
 * collect from it — meets an environment name, or holds `limit` definitions or more (then it is
 * the client, not a helper).
 *
 * The answer does not depend on the order the closure is walked in, so the walk takes cheap steps
 * first: a name whose definition is known, or lies in a module already read, before one that needs
 * another module read and scanned. A proof of host access usually lies in code already read, and
 * reading the client's megabyte chunks only to find it again is most of what this question costs.
 * Answers are kept across questions: a closure that meets a definition known to reach the host
 * does too, and one known not to brings its whole closure without walking it again.
 */
import type { ModuleEntry } from "../extract/types.js";
import type { Node } from "../ast/pattern.js";
import type { Port } from "../locate/signature.js";
import { definitionKey, freeReferences, portFor, Resolver } from "./closure.js";
import { ENVIRONMENT } from "./globals.js";
import type { Definition } from "./module-scope.js";

/** Beyond this many definitions a callee is not a helper: it is the client. */
export const HOST_LIMIT = 400;

interface Expanded {
  /** Free names of the definition (its port's replacement where a port recognises it). */
  names: string[];
  /** Whether a port replaced it (a replaced definition brings no property assignments). */
  ported: boolean;
}

export class HostReach {
  /** Definitions whose closure meets the host. */
  private host = new Set<string>();
  /** Definitions whose closure does not, with that closure (keys, the definition's own included). */
  private pure = new Map<string, string[]>();
  private expanded = new Map<string, Expanded>();

  constructor(
    private readonly ports: Port[],
    private readonly resolver: Resolver,
    private readonly limit = HOST_LIMIT,
  ) {}

  /** Whether module-level `name`, seen from `module`, reaches the host (false if it has no definition). */
  reachesFrom(module: ModuleEntry, name: string): boolean {
    const d = this.resolver.resolve(module, name);
    return d ? this.reaches(d) : false;
  }

  reaches(root: Definition): boolean {
    const rootKey = definitionKey(root);
    if (this.host.has(rootKey)) return true;
    if (this.pure.has(rootKey)) return false;
    const seen = new Set<string>([rootKey]);
    // References still to follow, cheapest first, each in discovery order: those already resolved,
    // those that need a statement parsed in a module already read, and those that need a module read.
    const known: Array<[ModuleEntry, string]> = [];
    const ready: Array<[ModuleEntry, string]> = [];
    const deferred: Array<[ModuleEntry, string]> = [];
    const queues = [known, ready, deferred];
    const expand = (d: Definition): boolean => {
      const e = this.expand(d);
      for (const name of e.names) {
        if (name === d.name) continue;
        if (ENVIRONMENT.has(name)) return true;
        queues[this.resolver.cost(d.module, name)]!.push([d.module, name]);
      }
      return false;
    };
    // A definition reached from the root, and the property assignments that complete it.
    const reach = (d: Definition, key: string): boolean => {
      if (this.host.has(key)) return true;
      const closure = this.pure.get(key);
      if (closure) for (const k of closure) seen.add(k);
      else if (expand(d)) return true;
      if (d.kind !== "member" && !this.expand(d).ported) {
        for (const a of this.resolver.scope(d.module).memberAssignments(d.name)) {
          const member: Definition = { name: `${d.name}.${a.path}`, module: d.module, kind: "member", node: a.node };
          const mkey = definitionKey(member);
          if (seen.has(mkey)) continue;
          seen.add(mkey);
          if (expand(member)) return true;
        }
      }
      return false;
    };
    const explore = (): boolean => {
      if (expand(root)) return true;
      while (seen.size < this.limit) {
        let next = known.shift() ?? ready.shift();
        if (!next) {
          if (!deferred.length) return false;
          // Prefer a reference whose module has been read meanwhile, then the one in the smallest module.
          let best = 0;
          let bestCost = Infinity;
          for (let i = 0; i < deferred.length && bestCost > 0; i++) {
            const [m, name] = deferred[i]!;
            const c = this.resolver.cost(m, name) < 2 ? 0 : this.resolver.targetSize(m, name);
            if (c < bestCost) [best, bestCost] = [i, c];
          }
          next = deferred.splice(best, 1)[0]!;
        }
        const found = this.resolver.resolve(next[0], next[1]);
        if (!found) continue;
        const key = definitionKey(found);
        if (seen.has(key)) continue;
        seen.add(key);
        if (reach(found, key)) return true;
      }
      return true;
    };
    const result = explore();
    if (result) this.host.add(rootKey);
    else this.pure.set(rootKey, [...seen]);
    return result;
  }

  private expand(d: Definition): Expanded {
    const key = definitionKey(d);
    let e = this.expanded.get(key);
    if (!e) {
      const port = portFor(d.node, this.ports);
      const node: Node = port?.node ?? d.node;
      e = { names: freeReferences(node).map((r) => r.name), ported: !!port };
      this.expanded.set(key, e);
    }
    return e;
  }
}
