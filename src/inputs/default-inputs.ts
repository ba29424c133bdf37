/**
 * What `lift` and `track` work on when given no input: the user's own Claude Code (installs.ts). `track`
 * takes the versions folder, else every other install found, else our bundled sample releases, with a note
 * saying which when it is not the versions folder; `lift` takes the newest install.
 */
import { existsSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ExitCode, SearchliftError } from "../errors.js";
import { distinctInstalls, findInstalls, newestInstall, versionsFolder, type Install } from "./installs.js";
import { listReleases } from "./release-folder.js";

export interface DefaultInputs {
  inputs: string[];
  /** Said to the user (stderr): what was chosen, and where it was found. */
  note?: string;
  /** Where the inputs were looked for, for the message when there are none. */
  searched?: string;
}

export async function defaultTrackInputs(): Promise<DefaultInputs> {
  const versions = versionsFolder();
  if (existsSync(versions) && statSync(versions).isDirectory()) {
    const inputs = listReleases(versions);
    const n = inputs.length;
    return { inputs, note: `no input given: tracking ${versions} (${n} release${n === 1 ? "" : "s"})`, searched: versions };
  }
  const installs = distinctInstalls((await findInstalls()).installs);
  if (installs.length) {
    return {
      inputs: installs.map((i) => i.path),
      note: `${versions} does not exist: tracking the other installs found (${installs.map(describe).join("; ")})`,
    };
  }
  const samples = fileURLToPath(new URL("../../samples/releases", import.meta.url));
  return {
    inputs: listReleases(samples),
    note: `no Claude Code installation found (${versions}, global npm and bun, PATH): tracking the bundled sample releases (${samples}) instead`,
  };
}

/** The newest installed Claude Code, and a note naming it. */
export async function defaultLiftInput(): Promise<{ input: string; note: string }> {
  const search = await findInstalls();
  const newest = newestInstall(distinctInstalls(search.installs));
  if (!newest) {
    throw new SearchliftError(
      `no input given and no Claude Code installation found (looked in ${search.searched.join(", ")}); name a release file, package or version`,
      ExitCode.usage,
    );
  }
  return { input: newest.path, note: `no input given: lifting the newest installed Claude Code, ${describe(newest)}` };
}

function describe(i: Install): string {
  return `${i.kind} ${i.version ?? "(version unknown)"} at ${i.path}`;
}
