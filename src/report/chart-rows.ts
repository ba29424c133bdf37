/**
 * What the report's chart shows, taken from timeline.json's measured rows only: the probe rows of each change
 * point (`changes[k].semantics`, what `diff` measured on the two groups' modules in the sandbox). A release's
 * value in a row is its group's: `after` of the change into the group and `before` of the change out of it.
 * Both are kept as readings, so that a value that depends on the pair measured (a probe's lengths come from
 * both modules' code) is shown as measured, never picked. Nothing here knows a routine's rows: a row is a
 * yes/no lane when all its values are "yes" or "no", a number lane when all are numbers, a text lane otherwise.
 */
import type { Change, Release, Timeline } from "../timeline-model.js";
import { groupMembers } from "../timeline-model.js";

/** One measurement of a release's row: which change point (index into `timeline.changes`) and which side. */
export interface Reading {
  change: number;
  side: "before" | "after";
  value: string;
}

export interface ChartCell {
  /** Index of the release in `timeline.releases` (the chart's column). */
  column: number;
  readings: Reading[];
  /** What the cell shows: the readings' distinct values, in reading order, joined by " | ". */
  value: string;
}

export type LaneKind = "yes/no" | "number" | "text";

export interface ChartLane {
  feature: string;
  kind: LaneKind;
  /** One per release that has a reading of this row, in column order. */
  cells: ChartCell[];
}

export interface ChartColumn {
  version: string;
  platform: string;
  /** Index of the release's group in the timeline. */
  group: number;
  /** Measured: some change point beside its group has probe rows; else why not. */
  state: "measured" | "not lifted" | "not measured";
  /** Why the release is not lifted or not measured. */
  reason?: string;
}

export interface ChartModel {
  columns: ChartColumn[];
  lanes: ChartLane[];
  /** Rows of timeline.json the chart does not draw, and why. */
  leftOut: Array<{ feature: string; reason: string }>;
}

/** Change k of the timeline when it lies between groups k and k+1 (a timeline from elsewhere may not hold one). */
export function changeBetween(t: Timeline, k: number): Change | undefined {
  const c = t.changes?.[k];
  const [g0, g1] = [t.groups[k], t.groups[k + 1]];
  return c && g0 && g1 && c.from === g0.last && c.to === g1.first ? c : undefined;
}

/** A value that says nothing: no mark is drawn for it, and a row of only these is left out. */
export const isBlankValue = (v: string) => v.trim() === "" || v === "—";
const isNumber = (v: string) => /^-?\d+(\.\d+)?$/.test(v);

export function chartModel(t: Timeline): ChartModel {
  const members = groupMembers(t);
  const groupOf = new Map(members.flatMap((rs, i) => rs.map((r) => [r, i] as const)));
  const changes = t.groups.map((_, k) => changeBetween(t, k));

  // The features in the order timeline.json first names them, and every reading of each.
  const order: string[] = [];
  const readingsOf = (g: number): Map<string, Reading[]> => {
    const out = new Map<string, Reading[]>();
    const take = (k: number, side: Reading["side"]) => {
      for (const row of changes[k]?.semantics ?? []) {
        if (!order.includes(row.feature)) order.push(row.feature);
        const list = out.get(row.feature) ?? [];
        list.push({ change: k, side, value: row[side] });
        out.set(row.feature, list);
      }
    };
    if (g > 0) take(g - 1, "after");
    take(g, "before");
    return out;
  };
  const perGroup = t.groups.map((_, g) => readingsOf(g));

  const columns: ChartColumn[] = t.releases.map((r) => {
    const group = groupOf.get(r) ?? -1;
    const base = { version: r.version, platform: r.platform, group };
    if (r.routineHash === null) return { ...base, state: "not lifted", reason: r.error ?? "not lifted" };
    if ((perGroup[group]?.size ?? 0) > 0) return { ...base, state: "measured" };
    return { ...base, state: "not measured", reason: notMeasured(t, group, changes) };
  });

  const lanes: ChartLane[] = [];
  const leftOut: ChartModel["leftOut"] = [];
  for (const feature of order) {
    const cells: ChartCell[] = [];
    t.releases.forEach((r: Release, column) => {
      const readings = perGroup[groupOf.get(r) ?? -1]?.get(feature);
      if (!readings?.length || r.routineHash === null) return;
      cells.push({ column, readings, value: [...new Set(readings.map((x) => x.value))].join(" | ") });
    });
    const values = cells.flatMap((c) => c.readings.map((x) => x.value)).filter((v) => !isBlankValue(v));
    if (values.length === 0) {
      leftOut.push({ feature, reason: "no release has a value in it: every reading is empty" });
      continue;
    }
    const kind: LaneKind = values.every((v) => v === "yes" || v === "no") ? "yes/no" : values.every(isNumber) ? "number" : "text";
    lanes.push({ feature, kind, cells });
  }
  return { columns, lanes, leftOut };
}

/** Why a lifted group has no probe rows: its change points were not compared, or there are none. */
function notMeasured(t: Timeline, g: number, changes: Array<Change | undefined>): string {
  if (t.groups.length < 2) return "one group: no change point, so nothing was measured";
  if (!t.changes) return "the change points were not compared";
  const beside = [g - 1, g].filter((k) => k >= 0 && k < t.groups.length - 1);
  const notes = beside.map((k) => changes[k]?.note ?? "not compared");
  return `no change point beside it was measured (${[...new Set(notes)].join("; ")})`;
}
