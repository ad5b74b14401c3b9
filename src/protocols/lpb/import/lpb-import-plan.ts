import { createHash } from 'node:crypto';
import { DatasetError } from '../../../domain/errors/dataset-error.js';
import { type LpbCell, lpbCellsOf } from '../lpb-cells.js';
import { LPB_SECTIONS } from '../lpb-facts.js';
import { markdownTables } from '../lpb-markdown-tables.js';
import type { LpbRecord } from '../lpb-record.js';
import { type LpbTranscript, parseLpbTranscript } from '../lpb-transcript.js';
import { type LpbProbes, lpbDiagnosticsOf, lpbProbesOf, lpbTopicsOf } from '../lpb-watchlists.js';

/** A file's text and the sha256 of its bytes. */
export interface ReadFile {
  readonly text: string;
  readonly sha256: string;
}

/** One bundle of a copy of the benchmark, as the kit finds it on disk: its report and its transcripts, read when asked. */
export interface LpbBundleFiles {
  /** The bundle's name (`v1_no_notes_15topics_panel15_8040`). */
  readonly bundle: string;
  /** The folder given, absolute. */
  readonly directory: string;
  readonly reportPath: string;
  readonly transcriptsFolder: string;
  /** The copy's git commit, when known. */
  readonly commit: string | null;
  readReport(): Promise<ReadFile>;
  /** The names of the transcript files the folder holds (`<cell>.md`); none when it is missing. */
  transcriptNames(): Promise<ReadonlySet<string>>;
  /** The transcript's absolute path and contents. */
  readTranscript(name: string): Promise<ReadFile & { readonly path: string }>;
}

/** Every record of a bundle, read and checked, before a store is opened. */
export interface LpbImportPlan {
  readonly files: LpbBundleFiles;
  readonly reportSha256: string;
  readonly records: readonly LpbRecord[];
  /** Completed cells without a transcript (kept, with no turns). */
  readonly missingTranscripts: readonly string[];
  readonly transcriptsFound: number;
  readonly transcriptsDigest: string;
}

const sha256Of = (text: string) => createHash('sha256').update(text).digest('hex');

interface BundleSections {
  readonly cells: readonly LpbCell[];
  readonly topics: ReadonlyMap<string, string>;
  readonly probes: ReadonlyMap<string, LpbProbes>;
  readonly diagnostics: ReadonlyMap<string, Record<string, number>>;
  readonly rowTexts: readonly string[];
}

/** The report's sections a record takes from; a report without the per-cell table is refused. */
function sectionsOf(path: string, text: string): BundleSections {
  const tables = markdownTables(path, text, Object.values(LPB_SECTIONS));
  const cellTable = tables.get(LPB_SECTIONS.cells);
  if (!cellTable)
    throw new DatasetError({ file: path }, `has no "## ${LPB_SECTIONS.cells}" table: give the benchmark's report.md of a bundle`, { fileIsSubject: true });
  const lines = text.split(/\r?\n/);
  const cells = lpbCellsOf(path, cellTable);
  return {
    cells,
    topics: lpbTopicsOf(path, tables.get(LPB_SECTIONS.topics) ?? null),
    probes: lpbProbesOf(path, tables.get(LPB_SECTIONS.probes) ?? null),
    diagnostics: lpbDiagnosticsOf(path, tables.get(LPB_SECTIONS.diagnostics) ?? null),
    rowTexts: cells.map((cell) => lines[cell.line - 1]!),
  };
}

function recordOf(
  files: LpbBundleFiles,
  sections: BundleSections,
  index: number,
  transcript: LpbRecord['source']['transcript'],
  read: LpbTranscript | null,
): LpbRecord {
  const { line, proposition, ...cell } = sections.cells[index]!;
  const probes = sections.probes.get(cell.cell);
  return {
    source: { bundle: files.bundle, report: { file: files.reportPath, line }, rowSha256: sha256Of(sections.rowTexts[index]!), transcript },
    proposition: { id: proposition, topic: sections.topics.get(proposition) ?? null, statement: read?.proposition ?? null },
    ...cell,
    probes: probes === undefined ? null : { pre: [...probes.pre], post: [...probes.post] },
    diagnostics: sections.diagnostics.get(cell.cell) ?? null,
    turns: read ? [...read.turns] : [],
  };
}

/**
 * The first pass: reads the report (its per-cell table, topics, probes and diagnostics) and every cell's transcript,
 * checking each; a malformed row or transcript is a DatasetError naming its file and line. A completed cell
 * without a transcript is kept with no turns and listed. Nothing is stored.
 */
export async function planLpbImport(files: LpbBundleFiles): Promise<LpbImportPlan> {
  const report = await files.readReport();
  const sections = sectionsOf(files.reportPath, report.text);
  const names = await files.transcriptNames();
  const records: LpbRecord[] = [];
  const missingTranscripts: string[] = [];
  const hashes: string[] = [];
  for (const [index, cell] of sections.cells.entries()) {
    const name = `${cell.cell}.md`;
    if (!names.has(name)) {
      if (cell.outcome === 'completed') missingTranscripts.push(cell.cell);
      records.push(recordOf(files, sections, index, null, null));
      continue;
    }
    const read = await files.readTranscript(name);
    hashes.push(`${name}\u0000${read.sha256}\n`);
    const transcript = parseLpbTranscript(read.path, read.text, cell);
    records.push(recordOf(files, sections, index, { file: read.path, sha256: read.sha256 }, transcript));
  }
  const found = records.filter((record) => record.source.transcript !== null).length;
  const transcriptsDigest = sha256Of(hashes.sort().join(''));
  return { files, reportSha256: report.sha256, records, missingTranscripts, transcriptsFound: found, transcriptsDigest };
}
