// searchlift sample, ES module flavour (Node 26+ "mainFormat": "module").
import { isSea, getAsset } from "node:sea";
function rankMatches(query, lines) {
  const q = query.toLowerCase();
  return lines.filter((l) => l.toLowerCase().includes(q)).sort((a, b) => a.indexOf(q) - b.indexOf(q) || a.length - b.length);
}
let words = ["alpha", "beta", "gamma"];
if (isSea()) {
  try { words = getAsset("words.txt", "utf8").split("\n").filter(Boolean); } catch { /* built without assets */ }
}
console.log(`sea-app-esm ${process.version} sea=${isSea()} meta=${typeof import.meta.url}: ${rankMatches(process.argv[2] ?? "a", words).join(",")}`);
