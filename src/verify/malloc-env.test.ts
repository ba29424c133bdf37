import { describe, expect, it } from "vitest";
import { mallocEnv } from "./malloc-env.js";

describe("mallocEnv", () => {
  it.runIf(process.platform === "linux")("keeps freed memory for reuse, unless the user tuned glibc already", () => {
    const tunables = mallocEnv({})["GLIBC_TUNABLES"]!.split(":");
    expect(tunables).toEqual(["glibc.malloc.trim_threshold=268435456", "glibc.malloc.mmap_threshold=33554432"]);
    expect(mallocEnv({ GLIBC_TUNABLES: "glibc.malloc.arena_max=2" })).toEqual({ GLIBC_TUNABLES: "glibc.malloc.arena_max=2" });
    // Only the allocator's setting: nothing else of the environment it is given.
    expect(Object.keys(mallocEnv({ HOME: "/home/u", SECRET: "x" }))).toEqual(["GLIBC_TUNABLES"]);
  });

  it.runIf(process.platform !== "linux")("sets nothing where glibc is not the allocator", () => {
    expect(mallocEnv({})).toEqual({});
  });
});
