/**
 * How an input packaged its JavaScript and how a module is written: what the container reader records
 * (extract/types.ts) and what the parser reads to choose a script or a module (ast/parse-module.ts).
 */

/** How the JavaScript was packaged. The name says the runtime and the carrier. */
export type ContainerFormat =
  | "plain-script" // a .js/.mjs/.cjs file
  | "npm-package" // a package directory or .tgz whose bin/main is a script
  | "bun-elf" // Bun standalone, ELF `.bun` section
  | "bun-macho" // Bun standalone, Mach-O `__BUN,__bun` (thin or a member of a fat file)
  | "bun-pe" // Bun standalone, PE `.bun` section
  | "bun-legacy" // Bun standalone, payload appended at end of file
  | "node-sea-elf" // Node SEA, ELF PT_NOTE NODE_SEA_BLOB
  | "node-sea-macho" // Node SEA, Mach-O NODE_SEA segment
  | "node-sea-pe" // Node SEA, PE RT_RCDATA NODE_SEA_BLOB
  | "carved"; // unknown packer: printable runs that parse as JavaScript

/** How a module is written: ES module, CommonJS, or neither. */
export type ModuleFormat = "esm" | "cjs" | "none";
