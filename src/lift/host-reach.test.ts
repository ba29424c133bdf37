import { describe, expect, it } from "vitest";
import { memoryContainer } from "../../test/helpers/memory-container.js";
import { collectClosure, Resolver } from "./closure.js";
import { HostReach } from "./host-reach.js";

/**
 * A random program of chunks whose functions call each other and sometimes the host. The answer
 * for each function is what collectClosure says of it alone — the walk order and the answers kept
 * between questions must not change it.
 */
function randomProgram(seed: number, chunks: number, perChunk: number) {
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const name = (c: number, i: number) => `f${c}_${i}`;
  const files: Record<string, string> = {};
  for (let c = 0; c < chunks; c++) {
    const lines: string[] = [];
    const imports = new Map<number, Set<string>>();
    for (let i = 0; i < perChunk; i++) {
      const calls: string[] = [];
      for (let k = Math.floor(random() * 3); k > 0; k--) {
        const tc = Math.floor(random() * chunks);
        const target = name(tc, Math.floor(random() * perChunk));
        if (tc !== c) (imports.get(tc) ?? imports.set(tc, new Set()).get(tc)!).add(target);
        calls.push(`${target}(x)`);
      }
      if (random() < 0.08) calls.push("process.exit(1)");
      // Some are lazily initialised values, some complete themselves with a prototype member.
      if (random() < 0.2) {
        lines.push(`var ${name(c, i)};var init${i} = L(() => { ${name(c, i)} = (x) => [${calls.join(", ")}] });`);
      } else {
        lines.push(`function ${name(c, i)}(x) { return [${calls.join(", ")}] }`);
        if (random() < 0.1) lines.push(`${name(c, i)}.prototype.m = function () { return ${random() < 0.5 ? "setTimeout" : "Math"} };`);
      }
    }
    const head = [...imports].map(([tc, ns]) => `import { ${[...ns].join(", ")} } from "/$bunfs/root/chunk-${tc}.js";`);
    const exports = `export { ${Array.from({ length: perChunk }, (_, i) => name(c, i)).join(", ")} };`;
    files[`/$bunfs/root/chunk-${c}.js`] = [...head, "function L(f) { return f }", ...lines, exports].join("\n");
  }
  return {
    container: memoryContainer(files),
    names: Array.from(
      { length: chunks * perChunk },
      (_, k) => [Math.floor(k / perChunk), name(Math.floor(k / perChunk), k % perChunk)] as const,
    ),
  };
}

describe("host reach", () => {
  for (const limit of [4, 12, 400]) {
    it(`answers as a whole closure would, in any order (limit ${limit})`, () => {
      for (let seed = 1; seed <= 6; seed++) {
        const { container, names } = randomProgram(seed, 5, 8);
        const module = (c: number) => container.modules[c]!;
        const expected = names.map(([c, n]) => {
          const d = new Resolver(container).resolve(module(c), n)!;
          const cl = collectClosure(container, [{ module: d.module, node: d.node, name: d.name }], [], { stopAtHost: true, limit });
          return cl.environment.length > 0 || cl.definitions.length >= limit;
        });
        // Both a host and a helper must be among the answers, or the test proves nothing.
        expect(new Set(expected).size).toBe(2);
        const resolver = new Resolver(container);
        const reach = new HostReach([], resolver, limit);
        const order = names.map((_, i) => i).sort((a, b) => ((a * 7919 + seed) % 61) - ((b * 7919 + seed) % 61));
        const got: boolean[] = [];
        for (const i of order) got[i] = reach.reachesFrom(module(names[i]![0]), names[i]![1]);
        expect(got).toEqual(expected);
      }
    });
  }

  it("is false for a name with no definition", () => {
    const c = memoryContainer({ "/$bunfs/root/cli.js": "function f(x) { return x }" });
    expect(new HostReach([], new Resolver(c)).reachesFrom(c.modules[0]!, "nowhere")).toBe(false);
  });
});
