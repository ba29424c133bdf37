/**
 * The tool search's verifier, run as a program of its own (verify-process.ts starts it for each lift that is
 * verified): the pack is imported here by name, never loaded from a name handed over at run time.
 */
import { runVerifierProgram } from "../../verify/verify-process.js";
import { toolSearchPack } from "./index.js";

runVerifierProgram(toolSearchPack);
