/**
 * zod's English messages, set once for every schema (imported by json.ts, which the readers use). The readers
 * import zod's mini build themselves (`import * as z from "zod/mini"`): its functions reach the bundle only as
 * used, about 40 kB loaded in 1 ms at each start, where the full build, or a namespace re-exported from here,
 * brings all of zod (600 kB, 10 to 20 ms).
 */
import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";

config(en());
