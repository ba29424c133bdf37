import { describe, expect, it } from "vitest";
import { contiguousShares, nextIn } from "./work-shares.js";

describe("work shares", () => {
  it("each worker lifts a contiguous run of the list, in order", () => {
    expect(contiguousShares([0, 1, 2, 3, 4, 5, 6], 2)).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6],
    ]);
    expect(contiguousShares([3, 4], 4)).toEqual([[3], [4], [], []]);
  });

  it("a worker whose share is done takes from the back of the largest share left", () => {
    const shares = contiguousShares([0, 1, 2, 3, 4, 5, 6, 7], 2);
    const taken: Array<[number, number | undefined]> = [];
    const take = (k: number) => taken.push([k, nextIn(shares, k)]);
    [0, 1, 1, 1, 1, 1, 1, 0, 0].forEach(take);
    expect(taken).toEqual([
      [0, 0],
      [1, 4],
      [1, 5],
      [1, 6],
      [1, 7],
      [1, 3],
      [1, 2],
      [0, 1],
      [0, undefined],
    ]);
  });
});
