import { InputError } from '../domain/errors/input-error.js';

/** The claim sets' sources, listed in DATA_SOURCES. */
type ClaimSourceId = 'anthropic' | 'perspectrum' | 'truthfulqa' | 'pmiyc-claims';

/** The benchmarks' item files, whose recipes their protocols keep (APE's topics; PersuSafety's scenes, tasks and profiles; SYCON-Bench's questions). */
type BenchmarkFileId =
  | 'ape-topics'
  | 'persusafety-harmful-tasks'
  | 'persusafety-neutral-scenes'
  | 'persusafety-constrained-scenes'
  | 'persusafety-persuadee-profiles'
  | 'persusafety-persuader-profiles'
  | 'sycon-debate-questions'
  | 'sycon-debate-stances'
  | 'sycon-presupposition-questions'
  | 'sycon-presuppositions'
  | 'sycon-corrections'
  | 'sycon-push-backs';

/**
 * The public files pmiyc reads its items from: the claim sets' sources (DATA_SOURCES) and the benchmarks'
 * item files, whose recipes their protocols keep (`src/protocols/<protocol>/`). Each says where it lives
 * upstream, where it sits in a data folder (the same layout as a local copy passed with --data-dir), and what
 * can be verified about it. Pure data.
 */
export interface DataSource {
  readonly id: ClaimSourceId | BenchmarkFileId;
  readonly title: string;
  /** Path inside a data folder. */
  readonly path: string;
  /** Upstream address, pinned to a commit where the host allows it. */
  readonly url: string;
  readonly license: string;
  /** Git blob hash (sha1 of "blob <size>\0" + bytes) of the version pmiyc was built and tested with. */
  readonly gitBlobSha1?: string;
  readonly sizeBytes?: number;
  /**
   * The sha256 of the file's bytes, for a file that defines a benchmark's items: a copy with another digest is
   * refused wherever it is read from (a download, the cache, a --data-dir folder), where the claim sets' local
   * copies are read as they are.
   */
  readonly sha256?: string;
}

const ANTHROPIC_LICENSE = 'CC BY-NC-SA 4.0 (non-commercial use only)';
const PERSPECTRUM_LICENSE = 'CC BY-SA 4.0';
const TRUTHFULQA_LICENSE = 'Apache-2.0';

export const DATA_SOURCES = {
  anthropic: {
    id: 'anthropic',
    title: 'Anthropic persuasion dataset (Durmus et al. 2024)',
    path: 'anthropic-persuasion/persuasion_data.csv',
    url: 'https://huggingface.co/datasets/Anthropic/persuasion/resolve/main/persuasion_data.csv',
    license: ANTHROPIC_LICENSE,
  },
  perspectrum: {
    id: 'perspectrum',
    title: 'Perspectrum (Chen et al. 2019)',
    path: 'perspectrum/perspectrum_with_answers_v1.0.json',
    url: 'https://raw.githubusercontent.com/CogComp/perspectrum/b42c27b85f20f2a35c0a0895698fa242ccf160ab/data/dataset/perspectrum_with_answers_v1.0.json',
    license: PERSPECTRUM_LICENSE,
    gitBlobSha1: 'b486174457e54b1cf210ae89195855297eb3f068',
    sizeBytes: 896_802,
  },
  truthfulqa: {
    id: 'truthfulqa',
    title: 'TruthfulQA (Lin et al. 2022), the version PMIYC used',
    path: 'truthfulqa/TruthfulQA.csv',
    url: 'https://raw.githubusercontent.com/sylinrl/TruthfulQA/013686a06be7a7bde5bf8223943e106c7250123c/TruthfulQA.csv',
    license: TRUTHFULQA_LICENSE,
    gitBlobSha1: 'f618ecfd8907087a21250fc78d935a17c9f73bed',
    sizeBytes: 443_719,
  },
  'pmiyc-claims': {
    id: 'pmiyc-claims',
    title: "PMIYC's published list of its 961 subjective claims",
    path: 'pmiyc/pre_assesment/results/gpt4.csv',
    url: 'https://raw.githubusercontent.com/beyzabozdag/PersuadeMeIfYouCan/829f55eb22d0b9db0f29c82f72f95a750965e1c6/pre_assesment/results/gpt4.csv',
    license: 'MIT',
    gitBlobSha1: '5c2d684a026faeb583ed7319943a47c9f2d10137',
    sizeBytes: 83_627,
  },
} as const satisfies Record<ClaimSourceId, DataSource>;

/** Reads files of a data folder by their relative path; undefined when a file is absent. */
export interface DataFiles {
  read(source: DataSource): Promise<string | undefined>;
  /** Where the files come from, for messages ("/home/me/.cache/pmiyc/data"). */
  readonly location: string;
}

/** A data folder's file that must be there: its text, or an InputError saying where to put it. */
export async function readRequiredDataFile(files: DataFiles, source: DataSource): Promise<string> {
  const text = await files.read(source);
  if (text === undefined) {
    throw new InputError(`${files.location} has no ${source.path} (${source.title}): put it there (from ${source.url}), or use another --data-dir`);
  }
  return text;
}
