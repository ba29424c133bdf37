/**
 * How the processes verification starts (the verifier, the sandbox children) use glibc's allocator.
 *
 * By default glibc hands freed memory back to the kernel as soon as 128 KB sit free at the top of its heap,
 * and serves blocks of 128 KB or more with a mapping of their own, unmapped on free. V8 allocates and frees
 * such blocks all the time (the zones its parser, compilers and regular expressions work in), so the same
 * memory is faulted in again and again: a sandbox side of 2.1.332 took 49,000 page faults at a peak of
 * 145 MB, and on a virtual machine a first-touched page can cost 16 µs. Freed memory is kept for reuse
 * instead, up to 256 MB, and blocks up to 32 MB come from the heap. A side's peak resident memory grows a
 * little (145 MB to 156 MB on 2.1.332), far inside the sandbox's limit of twice its heap limit and 128 MB.
 *
 * The variable only tunes glibc: elsewhere (musl, macOS, Windows) nothing reads it. A GLIBC_TUNABLES the
 * user set is passed on as it is.
 */
const TUNABLES = "glibc.malloc.trim_threshold=268435456:glibc.malloc.mmap_threshold=33554432";

export function mallocEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  if (process.platform !== "linux") return {};
  return { GLIBC_TUNABLES: env["GLIBC_TUNABLES"] ?? TUNABLES };
}
