import { describe, expect, it } from "vitest";
import { ExitCode } from "./errors.js";
import { compareVersions, isVersion, isVersionOrUnknown, normalizeVersion, readsAsVersion } from "./release-names.js";

describe("release names: one meaning of a version", () => {
  const canonical = ["0.1.0", "2.0.70", "2.1.112", "2.1.332", "1.0.0-beta.1", "1.0.0+build.5", "1.0.0-rc.1+sha.abc"];
  const typedOnly = ["v2.1.112", " 2.1.112 ", "v1.0.0-beta.1"];
  const never = ["", "unknown", "latest", "2.1", "01.2.3", "1.0.0/../../x", "2.1.100-2.1.112 x", "1.0.0\u001b[31m"];

  it("a version is npm's own form; `unknown` is one only where asked for", () => {
    for (const v of canonical) expect([isVersion(v), isVersionOrUnknown(v)], v).toEqual([true, true]);
    for (const v of [...typedOnly, ...never]) expect(isVersion(v), JSON.stringify(v)).toBe(false);
    expect(isVersionOrUnknown("unknown")).toBe(true);
    for (const v of [...typedOnly, ...never].filter((v) => v !== "unknown")) expect(isVersionOrUnknown(v), JSON.stringify(v)).toBe(false);
  });

  it("text a person types reads as a version when its normal form is one", () => {
    for (const v of [...canonical, ...typedOnly]) {
      expect(readsAsVersion(v), JSON.stringify(v)).toBe(true);
      expect(isVersion(normalizeVersion(v)), JSON.stringify(v)).toBe(true);
    }
    expect(normalizeVersion(" v2.1.112 ")).toBe("2.1.112");
    expect(normalizeVersion("1.0.0-rc.1+sha.abc")).toBe("1.0.0-rc.1");
    for (const v of never) expect(readsAsVersion(v), JSON.stringify(v)).toBe(false);
    expect(() => normalizeVersion("latest")).toThrow(expect.objectContaining({ exitCode: ExitCode.usage }));
  });

  it("orders as npm does: numerically, a prerelease before its release, unparsable first", () => {
    const shuffled = ["2.1.10", "unknown", "2.1.9", "2.1.10-beta.1", "2.0.70", "10.0.0", "2.1.112"];
    expect([...shuffled].sort(compareVersions)).toEqual(["unknown", "2.0.70", "2.1.9", "2.1.10-beta.1", "2.1.10", "2.1.112", "10.0.0"]);
  });
});
