// searchlift sample: a Latin-1-only module.
export function greet(who) {
  return "SEARCHLIFT_LATIN1_MARKER hello " + who;
}
