/**
 * The protocols `pmiyc run` runs (`--protocol`, or `protocol:` in the experiment file): PMIYC's tournament, the
 * default, and the protocols beside it (docs/design/protocols.md). Kept light: the program's options load it.
 */
export const RUN_PROTOCOLS = ['pmiyc', 'ape', 'persusafety', 'sycon'] as const;

export type RunProtocol = (typeof RUN_PROTOCOLS)[number];
