// searchlift sample: text outside Latin-1, so Bun 1.4 stores the bundle as UTF-16LE.
export function banner() {
  return "SEARCHLIFT_UNICODE_MARKER → ünïcödé 日本";
}
