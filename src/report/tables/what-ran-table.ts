import { formatCount } from '../../domain/text-labels.js';
import type { ReportMeta } from '../report-document.js';
import type { AliasIdentity } from '../run-aliases.js';
import type { ReportTable } from './report-tables.js';

const NOT_RECORDED = 'not recorded';

/** What these tables read of a report: its runs and their aliases (a tournament's report, or one of protocol runs alone). */
type WhatRan = { readonly meta: Pick<ReportMeta, 'runs' | 'aliases'> };

function temperatureText(alias: AliasIdentity): string {
  if (alias.temperatureSent === false) return 'not sent';
  return alias.temperature === null ? NOT_RECORDED : String(alias.temperature);
}

/** "What ran", per alias: which model it was, where it was served, which revision, and how it was sampled. */
export function aliasesTable(document: WhatRan): ReportTable {
  const combined = document.meta.runs.length > 1;
  return {
    header: ['alias', 'provider', 'model id', 'endpoint', 'revision', 'temperature', 'max tokens', ...(combined ? ['runs'] : [])],
    rows: document.meta.aliases.map((alias) => [
      { model: alias.alias },
      alias.provider === null ? NOT_RECORDED : alias.simulated ? `${alias.provider} (simulated agent)` : alias.provider,
      alias.modelId ?? NOT_RECORDED,
      alias.endpointHost ?? NOT_RECORDED,
      alias.revision ?? (alias.recorded ? '-' : NOT_RECORDED),
      temperatureText(alias),
      alias.maxOutputTokens === null ? NOT_RECORDED : formatCount(alias.maxOutputTokens),
      ...(combined ? [alias.runs.join(', ')] : []),
    ]),
  };
}

/** Why some aliases are names only: the runs that recorded no models (imported results, runs of an older pmiyc). */
export function aliasesNote(document: WhatRan): string {
  const runs = [...new Set(document.meta.aliases.filter((alias) => !alias.recorded).flatMap((alias) => alias.runs))];
  if (runs.length === 0) return '';
  const imported = runs.filter((name) => document.meta.runs.find((run) => run.name === name)?.runConfig?.kind === 'import');
  const why =
    imported.length === runs.length ? 'imported results, which name their models only' : 'imported, or made by a pmiyc that did not record its models';
  return `Run${runs.length > 1 ? 's' : ''} ${runs.join(', ')}: ${why}; what served ${runs.length > 1 ? 'them' : 'it'} is not known.`;
}
