#!/usr/bin/env node
// A stand-in for npm (SEARCHLIFT_NPM) over a folder of tarballs we built from our sample releases, so that
// version inputs resolve, download and hit the cache without the network. FAKE_NPM_REGISTRY holds
// <package name, @ dropped and / as ->/<version>.tgz; FAKE_NPM_ROOT is what `npm root -g` prints.
// Answers only what searchlift asks: view (versions, dist-tags, version + dist.integrity), cache add, config get
// cache, pack, root -g. FAKE_NPM_CACHE is npm's cache folder: cache add files a tarball there as cacache does
// (_cacache/content-v2/sha512/…); without it, cache add keeps nothing and config get cache names a missing folder.
// FAKE_NPM_CACHE_ADD_FAILS makes cache add fail as a dropped connection would.
// FAKE_NPM_LOG, when set, is a file each call appends its arguments to, one call a line.
import { createHash } from "node:crypto";
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const registry = process.env.FAKE_NPM_REGISTRY ?? "";
const args = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const folder = (pkg) => join(registry, pkg.replace(/^@/, "").replace(/\//g, "-"));
const versionsOf = (pkg) => (existsSync(folder(pkg)) ? readdirSync(folder(pkg)).map((f) => f.replace(/\.tgz$/, "")) : []);
const integrity = (file) => `sha512-${createHash("sha512").update(readFileSync(file)).digest("base64")}`;
const newest = (vs) =>
  vs
    .sort((a, b) =>
      a
        .split(".")
        .map(Number)
        .reduce((d, x, i) => d || x - Number(b.split(".")[i]), 0),
    )
    .at(-1);

function notFound(spec) {
  process.stderr.write(`npm error code E404\nnpm error 404 Not Found - GET https://registry.example/${spec}\n`);
  process.exit(1);
}

/** `@scope/name@a || b` → the package and its versions asked for (none: the package itself). */
function splitSpec(spec) {
  const at = spec.indexOf("@", 1);
  if (at < 0) return { pkg: spec, versions: null };
  return {
    pkg: spec.slice(0, at),
    versions: spec
      .slice(at + 1)
      .split("||")
      .map((v) => v.trim()),
  };
}

const [command, spec, ...fields] = args;
if (process.env.FAKE_NPM_LOG) appendFileSync(process.env.FAKE_NPM_LOG, `${args.join(" ")}\n`);
if (command === "root") {
  process.stdout.write(`${process.env.FAKE_NPM_ROOT ?? "/nonexistent"}\n`);
} else if (command === "view") {
  const { pkg, versions } = splitSpec(spec);
  const all = versionsOf(pkg);
  if (!all.length) notFound(spec);
  if (!versions) {
    const answer = { versions: all, "dist-tags": { latest: newest([...all]) } };
    process.stdout.write(JSON.stringify(fields.length === 1 ? answer[fields[0]] : answer));
  } else {
    const rows = versions
      .filter((v) => all.includes(v))
      .map((v) => ({ version: v, "dist.integrity": integrity(join(folder(pkg), `${v}.tgz`)) }));
    if (!rows.length) notFound(spec);
    process.stdout.write(JSON.stringify(rows.length === 1 ? rows[0] : rows));
  }
} else if (command === "config" && spec === "get" && fields[0] === "cache") {
  process.stdout.write(`${process.env.FAKE_NPM_CACHE ?? join(registry, "no-npm-cache")}\n`);
} else if (command === "cache" && spec === "add") {
  if (process.env.FAKE_NPM_CACHE_ADD_FAILS) {
    process.stderr.write("npm error code ECONNRESET\nnpm error network aborted\n");
    process.exit(1);
  }
  const { pkg, versions } = splitSpec(fields[0]);
  const file = join(folder(pkg), `${versions?.[0]}.tgz`);
  if (!existsSync(file)) notFound(fields[0]);
  if (process.env.FAKE_NPM_CACHE) {
    const hex = createHash("sha512").update(readFileSync(file)).digest("hex");
    const content = join(process.env.FAKE_NPM_CACHE, "_cacache", "content-v2", "sha512", hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
    // Content is filed once under its hash, and kept as it is found from then on.
    mkdirSync(dirname(content), { recursive: true });
    if (!existsSync(content)) copyFileSync(file, content);
  }
} else if (command === "pack") {
  const { pkg, versions } = splitSpec(spec);
  const file = join(folder(pkg), `${versions?.[0]}.tgz`);
  if (!existsSync(file)) notFound(spec);
  const dest = process.argv[process.argv.indexOf("--pack-destination") + 1];
  copyFileSync(file, join(dest, `${pkg.replace(/^@/, "").replace(/\//g, "-")}-${versions[0]}.tgz`));
} else {
  process.stderr.write(`fake npm: ${command} is not answered\n`);
  process.exit(1);
}
