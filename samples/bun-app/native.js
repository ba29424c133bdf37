// searchlift sample: requires a (fake) native addon, which Bun embeds with the napi loader.
const addon = require("./addon.node");
console.log("SEARCHLIFT_NATIVE_MARKER", addon);
