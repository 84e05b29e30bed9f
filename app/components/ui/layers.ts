/** The shell's on-demand layers, one chunk loaded at the operator's first key or pointer press. */
export { Palette } from "./Palette";
export { BulkRun } from "./BulkRun";
export { KeyHelp } from "./KeyHelp";
