/**
 * The facts of SYCON-Bench (Hong et al., "Measuring Sycophancy of Language Models in Multi-turn Dialogues",
 * arXiv 2505.23840; MIT), as its code and data state them at the pinned commit (docs/design/protocols.md,
 * "SYCON-Bench"). Facts only: the wording of every prompt pmiyc sends is its own.
 */

/** The repository and commit the questions are read from. */
export const SYCON_SOURCE = {
  repository: 'JiseungHong/SYCON-Bench',
  commit: '5bd245d54d1cab15e20d5b8176c8a12cd8983efc',
  license: 'MIT',
} as const;

/** The two settings pmiyc runs: debate questions with a stance to hold, and questions resting on a false presupposition. */
export const SYCON_SETTINGS = ['debate', 'false-presupposition'] as const;

export type SyconSetting = (typeof SYCON_SETTINGS)[number];

/** One of the benchmark's data files at the pinned commit: its path upstream, sha256, size and the items it holds. */
export interface SyconFile {
  readonly path: string;
  readonly sha256: string;
  readonly sizeBytes: number;
  /** Its lines of items (a CSV file: its rows after the header). */
  readonly items: number;
}

/**
 * The files a run reads. The debate setting's questions and the stances the model is asked to hold, line for
 * line; the false-presupposition setting's questions, the false presupposition of each, its correction, and
 * the benchmark's push-backs (`push_back.csv`: `Question` then `Pushback_1` to `Pushback_4`, a row per question
 * in the questions' order).
 */
export const SYCON_FILES = {
  debateQuestions: {
    path: 'debate-setting/data/questions.txt',
    sha256: '7c0020862b49e0eafcdaf7bff4c9322d5543a85929eb3186b5eb2b85b5a2e0c4',
    sizeBytes: 10_439,
    items: 100,
  },
  debateStances: {
    path: 'debate-setting/data/arguments.txt',
    sha256: 'f1f155c1dff2515a9de1ed24a9639ce78451b15a05f33a4af89f5e3cceb7ef8c',
    sizeBytes: 10_212,
    items: 100,
  },
  presuppositionQuestions: {
    path: 'false-presuppositions-setting/data/questions.txt',
    sha256: '26a528e61721e3e76c0d374929de9954026d406f527f200a9b4121e26a21e945',
    sizeBytes: 21_364,
    items: 200,
  },
  presuppositions: {
    path: 'false-presuppositions-setting/data/presuppositions.txt',
    sha256: 'b084bb2e7125c372d4b5e379adf01ccf2819c537fd755646ac3ebe8aa6d6895f',
    sizeBytes: 11_731,
    items: 200,
  },
  corrections: {
    path: 'false-presuppositions-setting/data/corrections.txt',
    sha256: '6c1e39d1d790c2901a47adfca1c87cf3dac41fba73b0b3f0a56d8fa9fbc21cdc',
    sizeBytes: 16_158,
    items: 200,
  },
  pushBacks: {
    path: 'false-presuppositions-setting/data/push_back.csv',
    sha256: '68c96f8d9beff74656a6ab02ea2aa5e081241a92b417593f253c4946023bb21d',
    sizeBytes: 134_651,
    items: 200,
  },
} as const satisfies Record<string, SyconFile>;

export type SyconFileName = keyof typeof SYCON_FILES;

/** The files each setting reads. */
export const SYCON_SETTING_FILES: Readonly<Record<SyconSetting, readonly SyconFileName[]>> = {
  debate: ['debateQuestions', 'debateStances'],
  'false-presupposition': ['presuppositionQuestions', 'presuppositions', 'corrections', 'pushBacks'],
};

/** The push-back columns of `push_back.csv`, after its `Question` column. */
export const SYCON_PUSH_BACK_COLUMNS = ['Pushback_1', 'Pushback_2', 'Pushback_3', 'Pushback_4'] as const;

/**
 * The shape of a conversation in the benchmark's code: the model's first answer and four answers after
 * pressure, five replies judged (`num_responses = 5`, `Response_1` to `Response_5`); every call, the judge's
 * too, at temperature 0. pmiyc allows up to five pressure turns.
 */
export const SYCON_DEFAULTS = {
  pressureTurns: 4,
  maxPressureTurns: 5,
  temperature: 0,
} as const;

/**
 * The judge's labels of one reply against the stance the model was first to hold (the debate's stance; the
 * correction of a false presupposition): it holds it, takes neither side, or goes against it. The benchmark's
 * Turn of Flip and Number of Flip read a reply as aligned or not (neutral and against alike).
 */
export const SYCON_LABELS = ['aligned', 'neutral', 'against'] as const;

export type SyconLabel = (typeof SYCON_LABELS)[number];
