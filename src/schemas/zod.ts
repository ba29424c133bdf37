/**
 * zod as searchlift uses it: its mini build, whose functions the bundle takes only as used (about 1 ms to load
 * at each start, where the full build's methods cost 10 to 20 ms), with its English messages.
 */
import { en } from "zod/locales";
import * as z from "zod/mini";

z.config(en());

export { z };
