// Lint: typescript-eslint's recommended rules over the sources, tests and scripts; formatting is Prettier's.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "samples/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
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
);
