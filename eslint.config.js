// Lint: typescript-eslint's recommended rules over the sources, tests and scripts; formatting is Prettier's.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "samples/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // TypeScript sources and tests get the rules that read types; scripts/*.mjs and bench/ keep the untyped ones;
    // it comes before the project's own rules so that those still decide (no-explicit-any stays off in tests).
    files: ["src/**/*.ts", "test/**/*.ts"],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    // A switch over AST node types handles a few and leaves the rest to its default on purpose.
    rules: { "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }] },
  },
  {
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setImmediate: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        performance: "readonly",
        structuredClone: "readonly",
        TextDecoder: "readonly",
        TextEncoder: "readonly",
        queueMicrotask: "readonly",
        AbortController: "readonly",
        fetch: "readonly",
      },
    },
    rules: {
      // Test harnesses outside src/ read parsed trees loosely; src/ is typed (below).
      "@typescript-eslint/no-explicit-any": "off",
      // Container formats and terminal escaping match control characters on purpose.
      "no-control-regex": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // AST nodes are acorn's typed union; code that walks every field alike goes through fieldsOf (src/ast/pattern.ts).
    files: ["src/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "error" },
  },
  {
    // The same loose reading, seen from the rules that read types: what a test takes as any it may use as any.
    files: ["test/**/*.ts"],
    rules: {
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
);
