/**
 * Free names an emitted module may use (ECMAScript built-ins: the same in Node, Bun, Deno and a
 * browser) and names that mark code as bound to its host (it must be cut at a port, never emitted).
 */

export const BUILTINS: ReadonlySet<string> = new Set([
  "undefined", "NaN", "Infinity",
  "Object", "Array", "String", "Number", "Boolean", "Symbol", "BigInt",
  "Math", "JSON", "Intl",
  "Promise", "RegExp", "Date",
  "Map", "Set", "WeakMap", "WeakSet", "WeakRef", "FinalizationRegistry",
  "Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError", "URIError", "AggregateError",
  "ArrayBuffer", "DataView",
  "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array",
  "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array",
  "parseInt", "parseFloat", "isNaN", "isFinite",
  "encodeURI", "encodeURIComponent", "decodeURI", "decodeURIComponent", "escape", "unescape",
] as const);

/**
 * ECMAScript built-ins an emitted module may not use: reflection that reaches what plain code
 * cannot (prototypes, property descriptors, traps) and memory shared with other threads. Code
 * using them is refused like host code; they stay taken for names.
 */
export const REFUSED_BUILTINS: ReadonlySet<string> = new Set(["Reflect", "Proxy", "SharedArrayBuffer", "Atomics", "WebAssembly"]);

/** Host objects, module systems, dynamic code, timers and I/O. */
export const ENVIRONMENT: ReadonlySet<string> = new Set([
  "process", "require", "module", "exports", "__dirname", "__filename", "globalThis", "global", "window", "self",
  "eval", "Function", "Bun", "Deno",
  "fetch", "XMLHttpRequest", "WebSocket", "Request", "Response", "Headers",
  "setTimeout", "setInterval", "setImmediate", "clearTimeout", "clearInterval", "clearImmediate", "queueMicrotask",
  "console", "Buffer", "performance", "crypto", "navigator", "document", "location", "structuredClone",
  "TextEncoder", "TextDecoder", "URL", "URLSearchParams", "AbortController", "AbortSignal", "Event", "EventTarget",
]);
