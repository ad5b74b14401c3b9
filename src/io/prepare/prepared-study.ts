/** What a study session runs, whatever its kind: a new study's design from its options, or a stored study's own. */
export interface PreparedStudy<Design> {
  /** The study's name: given, or the stored study's; a new study without one is named after its kind (analysis-N, ...). */
  readonly name?: string;
  readonly design: Design;
  readonly seed: number;
  readonly configPath?: string;
}

/** What names a study on the command line, whatever its kind. */
export interface StudyNameOptions {
  readonly seed: number;
  readonly study?: string;
  readonly config?: string;
}
