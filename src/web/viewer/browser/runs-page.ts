import { byId, el } from '../../browser/dom.js';
import type { RunsAnswer } from '../../wire/view-answers.js';
import { link, numberCell, route, statusBadge, table, td } from './view-parts.js';
import { api, crumbs, isCurrent, refreshWhileLive, selectable, show, showError } from './view-shell.js';
import { count, modelText } from './view-text.js';

/** A form to open the table across protocols of the runs chosen (tournaments and protocol runs), or why there is none. */
function acrossForm(runs: RunsAnswer['runs']): HTMLElement {
  const names = runs.filter((run) => run.kind === 'tournament' || run.kind === 'protocol').map((run) => run.name);
  if (names.length < 2)
    return el(
      'p',
      { className: 'note' },
      'Runs of two protocols (a tournament, APE, PersuSafety, SYCON-Bench) can be put in one table once the store has them.',
    );
  const open = () => {
    const chosen = [...byId<HTMLSelectElement>('across-runs').selectedOptions].map((option) => option.value);
    location.hash = route(['across'], { runs: chosen.join(',') });
  };
  return el(
    'p',
    {},
    'One table across protocols of ',
    el(
      'select',
      { id: 'across-runs', multiple: true, size: Math.min(6, names.length), 'aria-label': 'runs for one table across protocols' },
      names.map((name) => el('option', { value: name }, name)),
    ),
    ' ',
    el('button', { type: 'button', id: 'across-open', onClick: open }, 'one table'),
  );
}

/** The store's runs, a form to compare two tournament runs, and one to put runs of several protocols in one table. */
export async function runsPage(current: number): Promise<void> {
  const data = await api<RunsAnswer>('runs');
  if (!isCurrent(current)) return;
  crumbs(el('span', {}, `runs in ${data.store}`));
  const runRows = data.runs.map((run) =>
    el(
      'tr',
      {},
      td(link(['runs', run.name], null, run.name)),
      td(run.protocol === null ? run.kind : `protocol ${run.protocol}`),
      td(statusBadge(run)),
      td(run.createdAt.replace('T', ' ').slice(0, 19)),
      numberCell(
        run.kind === 'tournament' || run.kind === 'protocol'
          ? count(run.kind === 'protocol' ? run.studyItems : run.completed + run.failed) +
              (run.plannedConversations ? ` / ${count(run.plannedConversations)}` : '')
          : count(run.studyItems),
      ),
      numberCell(run.kind === 'tournament' ? count(run.failed) : '-'),
      numberCell(count(run.callsMade)),
      numberCell(`$${run.costUsd.toFixed(4)}`),
      td(run.models.map((model) => modelText(model)).join(', ')),
    ),
  );
  const names = data.runs.filter((run) => run.kind === 'tournament').map((run) => run.name);
  const pick = (id: string, chosen: string | undefined) =>
    el(
      'select',
      { id, 'aria-label': id === 'compare-a' ? 'first run' : 'second run' },
      names.map((name) => el('option', { value: name, selected: name === chosen }, name)),
    );
  const compare = () => {
    location.hash = route(['compare'], { a: byId<HTMLSelectElement>('compare-a').value, b: byId<HTMLSelectElement>('compare-b').value });
  };
  const compareForm =
    names.length < 2
      ? el('p', { className: 'note' }, 'Two tournament runs can be compared side by side once the store has them.')
      : el(
          'p',
          {},
          'Compare ',
          pick('compare-a', names[names.length - 2]),
          ' with ',
          pick('compare-b', names[names.length - 1]),
          ' ',
          el('button', { type: 'button', id: 'compare-runs', onClick: compare }, 'compare'),
        );
  show(
    el('h2', {}, 'Runs'),
    data.runs.length === 0
      ? el('p', {}, 'This store has no runs yet: run pmiyc demo or pmiyc run first.')
      : table(['run', 'kind', 'status', 'started (UTC)', 'conversations / samples', 'failed', 'calls made', 'cost', 'models'], runRows),
    compareForm,
    acrossForm(data.runs),
  );
  selectable(runRows);
  refreshWhileLive(
    data.runs.some((run) => run.live),
    () => isCurrent(current) && runsPage(current).catch(showError),
  );
}
