// searchlift sample for "useSnapshot": the blob then carries a V8 startup snapshot instead of this source.
"use strict";
const v8 = require("node:v8");
const index = new Map(["alpha", "beta", "gamma"].map((w) => [w[0], w]));
v8.startupSnapshot.setDeserializeMainFunction(() => {
  console.log(`sea-app-snapshot ${process.version}: ${index.get(process.argv[2] ?? "a") ?? "-"}`);
});
