// searchlift sample: a tiny Node single executable application with a search routine and an asset.
// Built into real SEA executables by test/helpers/sea-fixtures.ts; never run from here directly.
"use strict";
function rankMatches(query, lines) {
  const q = query.toLowerCase();
  return lines
    .map((line, i) => ({ line, i, at: line.toLowerCase().indexOf(q) }))
    .filter((m) => m.at >= 0)
    .sort((a, b) => a.at - b.at || a.line.length - b.line.length || a.i - b.i)
    .map((m) => m.line);
}
let words = ["alpha", "beta", "gamma"];
let sea = null;
try { sea = require("node:sea"); } catch { /* Node < 20.? has no node:sea */ }
if (sea && sea.isSea()) {
  try { words = sea.getAsset("words.txt", "utf8").split("\n").filter(Boolean); } catch { /* built without assets */ }
}
const query = process.argv[2] ?? "a";
console.log(`sea-app ${process.version} sea=${sea ? sea.isSea() : "n/a"} words=${words.length}: ${rankMatches(query, words).join(",")}`);
