export { openContainer } from "./container/open-container.js";
export type { Container, ContainerFormat, ModuleEntry, ModuleKind, ModuleFormat, Encoding } from "./container/types.js";
export { SearchliftError, ExitCode } from "./errors.js";
