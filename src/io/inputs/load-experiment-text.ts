import { type ExperimentText, parseExperimentText, starterExperiment } from '../../studies/people/experiment-text.js';
import { readTextFile } from '../read-text-file.js';

/**
 * A people study's texts and rules from the --experiment file, or pmiyc's starter text when none is
 * named (`starter: true`: the caller says that it is a placeholder, report/texts/people-serve-text.ts).
 */
export async function loadExperimentText(path: string | undefined): Promise<{ readonly text: ExperimentText; readonly starter: boolean }> {
  if (path === undefined) return { text: starterExperiment(), starter: true };
  const text = parseExperimentText(await readTextFile(path, `the experiment file ${path} does not exist: pmiyc init writes a starter one`), path);
  return { text, starter: false };
}
