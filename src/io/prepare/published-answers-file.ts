import { basename, extname, resolve } from 'node:path';
import { type PublishedConsistencyRow, parseConsistencyCsv } from '../../datasets/consistency-csv.js';
import { readTextFile } from '../read-text-file.js';

/** A published pre-assessment file read for `pmiyc consistency --import`. */
export interface PublishedAnswersFile {
  /** The file's absolute path, stored with the study. */
  readonly file: string;
  /** The model the answers are from: given, else the file's name (`gpt4.csv`: gpt4). */
  readonly model: string;
  readonly rows: readonly PublishedConsistencyRow[];
}

/** Reads and parses a pre-assessment CSV (`i,claim,scores,...`); a missing file is an InputError that names it. */
export async function readPublishedAnswers(file: string, model: string | undefined): Promise<PublishedAnswersFile> {
  const text = await readTextFile(file, `no file at ${file}: give the path of a pre-assessment CSV such as pre_assesment/results/gpt4.csv`);
  return { file: resolve(file), model: model ?? basename(file, extname(file)), rows: parseConsistencyCsv(file, text) };
}
