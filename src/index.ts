export { openContainer } from "./extract/open-container.js";
export type { Container, ContainerFormat, ModuleEntry, ModuleKind, ModuleFormat, Encoding } from "./extract/types.js";
export { SearchliftError, ExitCode } from "./errors.js";
