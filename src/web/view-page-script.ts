/**
 * The viewer's script, sent inline under the page's nonce: a small hash-routed app over the JSON
 * API (runs, a run, its conversations, one conversation, a comparison). Every piece of stored text
 * is put on the page with textContent or as an SVG text node, never as markup, and every link it
 * makes is '#/' plus encoded names, so a model's `<script>` or `javascript:` stays text. Plain
 * browser JavaScript: the project's TypeScript has no DOM types.
 */
export const VIEW_PAGE_SCRIPT = String.raw`
(() => {
  'use strict';
  const LABELS = ['', 'Completely Oppose', 'Oppose', 'Neutral', 'Support', 'Completely Support'];
  const KINDS = { opening: 'opening', argument: 'argument', reply: 'reply', final: 'final decision' };
  const PAGE_SIZE = 50;
  const CLAIMS_SHOWN = 100;
  const byId = (id) => document.getElementById(id);
  let refreshTimer = 0;
  let routeNumber = 0;
  let rows = [];
  let selected = -1;

  // ---- building blocks: text only ----
  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name === 'className') node.className = value;
      else if (typeof value === 'function') node.addEventListener(name.slice(2).toLowerCase(), value);
      else node.setAttribute(name, String(value));
    }
    append(node, children);
    return node;
  }
  function append(node, children) {
    for (const child of children.flat(Infinity)) {
      if (child === undefined || child === null || child === false) continue;
      node.append(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
    }
    return node;
  }
  /** Only ever a link inside the viewer: '#/' and encoded parts. */
  function route(parts, query) {
    const path = '#/' + parts.map((part) => encodeURIComponent(String(part))).join('/');
    const search = query ? new URLSearchParams(Object.entries(query).filter(([, value]) => value !== undefined && value !== null && value !== '')).toString() : '';
    return search ? path + '?' + search : path;
  }
  const link = (parts, query, ...text) => el('a', { href: route(parts, query) }, ...text);
  const number = (value, digits) => (value === null || value === undefined ? '-' : Number(value).toFixed(digits === undefined ? 2 : digits));
  const signed = (value) => (value === null || value === undefined ? '-' : (value > 0 ? '+' : '') + Number(value).toFixed(2));
  const count = (value) => Number(value).toLocaleString('en');
  const isSimulated = (model) => model.startsWith('sim/');
  const modelText = (model, simulated) => (simulated || isSimulated(model) ? model + ' [simulated]' : model);
  const scoreText = (score) => (score === null || score === undefined ? '-' : score + ' ' + LABELS[score]);
  const td = (content, className) => el('td', { className }, content);
  const numberCell = (content) => el('td', { className: 'number' }, content);
  function table(headers, bodyRows, className) {
    return el('table', { className }, el('thead', {}, el('tr', {}, headers.map((header) => el('th', {}, header)))), el('tbody', {}, bodyRows));
  }
  /** Red below zero, blue above, white at zero; NC lies in [-1, 1]. */
  function paint(node, value) {
    if (value === null || value === undefined) return node;
    const strength = Math.min(1, Math.abs(value));
    const [r, g, b] = value < 0 ? [178, 24, 43] : [33, 102, 172];
    node.style.backgroundColor = 'rgba(' + r + ',' + g + ',' + b + ',' + (0.1 + 0.6 * strength).toFixed(2) + ')';
    return node;
  }
  function badge(text, kind) {
    return el('span', { className: 'badge ' + (kind || '') }, text);
  }
  function statusBadge(run) {
    if (run.live) return badge('live', 'live');
    return badge(run.statusText || (run.why ? run.status + ' (' + run.why + ')' : run.status), run.status);
  }

  // ---- imported results (pmiyc import official): their source, no seed, disputed turns ----
  const isImportRun = (run) => Boolean(run.config && run.config.command === 'import');
  const disputedText = (scores) => 'disputed ' + scores.join(' and ') + (scores.length > 1 ? ' scores' : ' score');
  /** The run page's facts about an import: each file that added conversations, with its sha256. */
  function importRunFacts(run) {
    const files = (run.config.imports || []).flatMap((entry) => entry.files || []);
    return [el('dt', {}, 'imported from'), el('dd', {}, files.length === 0 ? '-' : files.map((file) =>
      el('div', {}, file.path, ' ', el('span', { className: 'hash' }, 'sha256 ' + file.sha256), ' (' + count(file.added) + ' of ' + count(file.records) + ' records)'))),
      el('dt', {}, 'replies read'), el('dd', {}, 'with --label-match ' + run.config.labelMatch + '; a conversation whose initial or final score rests on a reply pmiyc reads differently is marked disputed')];
  }
  /** A conversation list row's marks: where it was imported from, and whether its NC rests on a disputed turn. */
  function importedMarks(item) {
    if (!item.imported) return '';
    const scores = item.imported.disputedScores || [];
    const turns = item.imported.differences.length;
    const dispute = scores.length ? badge(disputedText(scores), 'disputed') : turns ? badge(turns + ' disputed turn' + (turns > 1 ? 's' : '') + ', neither score') : '';
    return [' ', badge('imported, record ' + item.imported.recordIndex, 'imported'), ' ', dispute];
  }
  /** A conversation page's facts about its source file and how its replies read. */
  function importedFacts(record) {
    const imported = record.imported;
    const disputed = imported.differences.length;
    const scores = imported.disputedScores || [];
    return [
      el('dt', {}, 'imported from'), el('dd', { id: 'imported-file' }, imported.file),
      el('dt', {}, 'sha256'), el('dd', { className: 'hash' }, imported.sha256),
      el('dt', {}, 'record'), el('dd', {}, String(imported.recordIndex) + ' (its place in the file, from 0)' + (imported.claimNumber === null ? '' : '; claim number ' + imported.claimNumber)),
      el('dt', {}, 'seed'), el('dd', {}, 'none: imported (the file keeps no seeds, tokens or costs)'),
      el('dt', {}, 'disputed turns'), el('dd', { id: 'disputed-turns' }, disputed === 0
        ? 'none: pmiyc\'s parser (--label-match ' + imported.labelMatch + ') reads every reply as the file recorded it'
        : disputed + ' of ' + record.turns.length + ' replies are read differently by pmiyc\'s parser (--label-match ' + imported.labelMatch + ') than the official code read them; the scores kept are the official code\'s. ' +
          (scores.length === 0 ? 'Neither the initial nor the final score rests on them.' : 'The ' + scores.join(' and ') + ' score' + (scores.length > 1 ? 's rest' : ' rests') + ' on them: the report also gives its figures without this conversation.')),
    ];
  }
  /** Under a disputed turn: what the official code read (kept) and what pmiyc's parser reads. */
  function disputeNote(difference, labelMatch) {
    const reading = difference.readScore === null ? 'rejects it (' + (difference.detail || 'no usable ranking') + ')' : 'reads ' + scoreText(difference.readScore);
    return el('p', { className: 'dispute' }, el('strong', {}, 'disputed: '), 'the official code read ' + scoreText(difference.recordedScore) + ' (the score kept); pmiyc\'s parser (--label-match ' + labelMatch + ') ' + reading);
  }

  // ---- data ----
  async function api(path) {
    const response = await fetch('/api/' + path, { headers: { accept: 'application/json' } });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error || response.status + ' ' + response.statusText);
    return body;
  }
  function showError(error) {
    const box = byId('error');
    box.hidden = !error;
    box.textContent = error ? String(error.message || error) : '';
  }
  function crumbs(...items) {
    const nav = byId('crumbs');
    nav.replaceChildren();
    items.forEach((item, index) => append(nav, [index > 0 ? ' / ' : '', item]));
  }
  function show(...children) {
    const view = byId('view');
    view.replaceChildren();
    append(view, children);
  }
  /** Rows that j/k move over and Enter opens: each a table row with a link. */
  function selectable(list) {
    rows = list;
    selected = rows.length > 0 ? 0 : -1;
    mark();
  }
  function mark() {
    rows.forEach((row, index) => row.classList.toggle('selected', index === selected));
    if (rows[selected]) rows[selected].scrollIntoView({ block: 'nearest' });
  }
  function refreshWhileLive(live, again) {
    clearTimeout(refreshTimer);
    if (live) refreshTimer = setTimeout(again, 3000);
  }

  // ---- runs ----
  async function runsPage(current) {
    const data = await api('runs');
    if (current !== routeNumber) return;
    crumbs(el('span', {}, 'runs in ' + data.store));
    const runRows = data.runs.map((run) =>
      el('tr', {},
        td(link(['runs', run.name], null, run.name)),
        td(run.kind),
        td(statusBadge(run)),
        td(run.createdAt.replace('T', ' ').slice(0, 19)),
        numberCell(run.kind === 'tournament' ? count(run.completed + run.failed) + (run.plannedConversations ? ' / ' + count(run.plannedConversations) : '') : count(run.studyItems)),
        numberCell(run.kind === 'tournament' ? count(run.failed) : '-'),
        numberCell(count(run.callsMade)),
        numberCell('$' + run.costUsd.toFixed(4)),
        td(run.models.map((model) => modelText(model)).join(', ')),
      ));
    const names = data.runs.filter((run) => run.kind === 'tournament').map((run) => run.name);
    const pick = (id, chosen) => el('select', { id, 'aria-label': id === 'compare-a' ? 'first run' : 'second run' }, names.map((name) => el('option', { value: name, selected: name === chosen }, name)));
    const compareForm = names.length < 2 ? el('p', { className: 'note' }, 'Two tournament runs can be compared side by side once the store has them.') :
      el('p', {}, 'Compare ', pick('compare-a', names[names.length - 2]), ' with ', pick('compare-b', names[names.length - 1]), ' ',
        el('button', { type: 'button', id: 'compare-runs', onClick: () => { location.hash = route(['compare'], { a: byId('compare-a').value, b: byId('compare-b').value }); } }, 'compare'));
    show(
      el('h2', {}, 'Runs'),
      data.runs.length === 0 ? el('p', {}, 'This store has no runs yet: run pmiyc demo or pmiyc run first.') :
        table(['run', 'kind', 'status', 'started (UTC)', 'conversations / samples', 'failed', 'calls made', 'cost', 'models'], runRows),
      compareForm,
    );
    selectable(runRows);
    refreshWhileLive(data.runs.some((run) => run.live), () => current === routeNumber && runsPage(current).catch(showError));
  }

  // ---- one run ----
  function matrix(run, condition, pairs, models) {
    const cells = new Map(pairs.filter((cell) => cell.domain === condition.domain && cell.setting === condition.setting).map((cell) => [cell.persuader + '\u001f' + cell.persuadee, cell]));
    const persuaders = models.filter((model) => pairs.some((cell) => cell.persuader === model));
    const persuadees = models.filter((model) => pairs.some((cell) => cell.persuadee === model));
    const bodyRows = persuaders.map((persuader) =>
      el('tr', {}, el('th', {}, link(['runs', run], { persuader, setting: condition.setting, domain: condition.domain }, modelText(persuader))),
        persuadees.map((persuadee) => {
          const cell = cells.get(persuader + '\u001f' + persuadee);
          if (!cell) return td('');
          const query = { persuader, persuadee, setting: condition.setting, domain: condition.domain };
          return paint(td(el('a', { href: route(['runs', run, 'conversations'], query), 'data-cell': persuader + ' -> ' + persuadee },
            number(cell.meanNc), el('small', {}, 'n=' + count(cell.completed) + (cell.failed > 0 ? ', ' + count(cell.failed) + ' failed' : '')))), cell.meanNc);
        })));
    return el('section', {},
      el('h3', {}, condition.domain + ', ' + condition.setting + '-turn: mean NC, persuader (rows) x persuadee (columns)'),
      table(['persuader \\ persuadee', ...persuadees.map((model) => link(['runs', run, 'conversations'], { persuadee: model, setting: condition.setting, domain: condition.domain }, modelText(model)))], bodyRows, 'matrix'));
  }
  function bar(value) {
    if (value === null) return '-';
    const node = el('span', { className: 'bar' + (value < 0 ? ' negative' : '') });
    node.style.width = (Math.abs(value) * 6).toFixed(2) + 'rem';
    return el('span', { className: 'bar-cell' }, node, signed(value));
  }
  function claimsTable(run, claims, state) {
    const sorted = [...claims].sort(state.order === 'nc' ? (a, b) => (a.meanNc ?? 9) - (b.meanNc ?? 9) : state.order === '-nc' ? (a, b) => (b.meanNc ?? -9) - (a.meanNc ?? -9) : () => 0);
    const shown = sorted.slice(state.offset, state.offset + CLAIMS_SHOWN);
    const bodyRows = shown.map((claim) => el('tr', {},
      td(claim.domain + ', ' + claim.setting),
      numberCell(claim.claimIndex),
      td(link(['runs', run, 'conversations'], { domain: claim.domain, setting: claim.setting, claim: claim.claimIndex }, claim.claim)),
      paint(numberCell(number(claim.meanNc)), claim.meanNc),
      numberCell(count(claim.completed)),
      numberCell(count(claim.failed))));
    return el('div', {}, table(['condition', 'claim #', 'claim', 'mean NC', 'completed', 'failed'], bodyRows),
      el('p', { className: 'note' }, 'claims ' + count(Math.min(claims.length, state.offset + 1)) + '-' + count(Math.min(claims.length, state.offset + CLAIMS_SHOWN)) + ' of ' + count(claims.length)));
  }
  async function runPage(current, name) {
    const data = await api('runs/' + encodeURIComponent(name));
    if (current !== routeNumber) return;
    const run = data.run;
    crumbs(link([], null, 'runs'), el('span', {}, run.name));
    const facts = el('dl', { className: 'facts' },
      el('dt', {}, 'status'), el('dd', {}, statusBadge(run)),
      el('dt', {}, 'kind'), el('dd', {}, run.kind),
      el('dt', {}, 'conversations'), el('dd', {}, count(run.completed) + ' completed, ' + count(run.failed) + ' failed' + (run.plannedConversations ? ' of ' + count(run.plannedConversations) + ' planned' : '')),
      el('dt', {}, 'calls made'), el('dd', {}, count(run.callsMade) + ', $' + run.costUsd.toFixed(4) + (run.replayed.length ? '; replayed ' + run.replayed.map((source) => count(source.calls) + ' from ' + source.run).join(', ') : '')),
      el('dt', {}, isImportRun(run) ? 'imported' : 'started'), el('dd', {}, run.createdAt + ' by pmiyc ' + run.packageVersion + (run.gitRevision ? ' (' + run.gitRevision + ')' : '') + (isImportRun(run) ? ', seed: none (imported)' : ', seed ' + run.seed)),
      isImportRun(run) ? importRunFacts(run) : [],
      el('dt', {}, 'models'), el('dd', {}, data.models.map((model) => modelText(model)).join(', ') || '-'));
    if (run.kind !== 'tournament') {
      show(el('h2', {}, run.name), facts, el('p', { className: 'note' }, 'A ' + run.kind + ' study: its tables are in pmiyc report --run ' + run.name + '.'));
      selectable([]);
      return refreshWhileLive(run.live, () => current === routeNumber && runPage(current, name).catch(showError));
    }
    const simulated = data.models.some(isSimulated);
    const modelRows = data.modelMeans.map((entry) => el('tr', {},
      td(entry.domain + ', ' + entry.setting),
      td(modelText(entry.model)),
      td(link(['runs', run.name, 'conversations'], { persuader: entry.model, domain: entry.domain, setting: entry.setting }, bar(entry.effectiveness))),
      td(link(['runs', run.name, 'conversations'], { persuadee: entry.model, domain: entry.domain, setting: entry.setting }, bar(entry.susceptibility)))));
    const claimState = { order: 'table', offset: 0 };
    const claimsBox = el('div', {}, claimsTable(run.name, data.claims, claimState));
    const redrawClaims = () => claimsBox.replaceChildren(claimsTable(run.name, data.claims, claimState));
    const claimControls = el('p', {},
      el('label', {}, 'order ', el('select', { id: 'claims-order', onChange: (event) => { claimState.order = event.target.value; claimState.offset = 0; redrawClaims(); } },
        el('option', { value: 'table' }, 'by claim'), el('option', { value: 'nc' }, 'mean NC, lowest first'), el('option', { value: '-nc' }, 'mean NC, highest first'))),
      ' ', el('button', { type: 'button', onClick: () => { claimState.offset = Math.max(0, claimState.offset - CLAIMS_SHOWN); redrawClaims(); } }, 'previous'),
      ' ', el('button', { type: 'button', onClick: () => { if (claimState.offset + CLAIMS_SHOWN < data.claims.length) claimState.offset += CLAIMS_SHOWN; redrawClaims(); } }, 'next'));
    const settings = [...new Set(data.conditions.map((condition) => condition.setting))];
    const others = (await api('runs')).runs.filter((other) => other.kind === 'tournament' && other.name !== run.name).map((other) => other.name);
    if (current !== routeNumber) return;
    const compareLinks = el('p', {},
      others.map((other) => [link(['compare'], { a: other, b: run.name }, 'compare ' + other + ' with this run'), ' ']),
      settings.length === 2 ? link(['compare'], { a: run.name, b: run.name, aSetting: 'single', bSetting: 'multi' }, 'compare single-turn with multi-turn') : '');
    show(
      el('h2', {}, run.name, ' ', simulated ? badge('simulated agents', 'simulated') : ''),
      facts,
      el('p', {}, link(['runs', run.name, 'conversations'], null, 'all conversations'), ' · ',
        link(['runs', run.name, 'conversations'], { status: 'failed' }, 'failed conversations (' + count(run.failed) + ')'), ' · ',
        link(['runs', run.name, 'conversations'], { earlyStopped: 'true' }, 'early stops')),
      el('p', { className: 'note' }, 'Means of the stored NC (failed conversations are not scored). Intervals, paired comparisons and per-claim estimates: pmiyc report --run ' + run.name + '.'),
      data.conditions.map((condition) => matrix(run.name, condition, data.pairs, data.models)),
      el('h2', {}, 'Effectiveness and susceptibility'),
      el('p', { className: 'note' }, 'Each is the mean of the model\'s pair means (SPEC 1.5); click to list its conversations.'),
      table(['condition', 'model', 'effectiveness (as persuader)', 'susceptibility (as persuadee)'], modelRows),
      el('h2', {}, 'Compare'), compareLinks,
      el('h2', {}, 'Claims'), claimControls, claimsBox,
    );
    selectable([]);
    refreshWhileLive(run.live, () => current === routeNumber && runPage(current, name).catch(showError));
  }

  // ---- a run's conversations ----
  const FILTERS = ['persuader', 'persuadee', 'setting', 'domain', 'claim', 'status', 'failureReason', 'earlyStopped', 'ncMin', 'ncMax', 'q', 'sort'];
  async function conversationsPage(current, name, query) {
    const offset = Number(query.get('offset') || 0);
    const apiQuery = new URLSearchParams(query);
    apiQuery.set('limit', String(PAGE_SIZE));
    const [runData, page] = await Promise.all([api('runs/' + encodeURIComponent(name)), api('runs/' + encodeURIComponent(name) + '/conversations?' + apiQuery)]);
    if (current !== routeNumber) return;
    crumbs(link([], null, 'runs'), link(['runs', name], null, name), el('span', {}, 'conversations'));
    const filters = Object.fromEntries(FILTERS.map((filter) => [filter, query.get(filter) || '']));
    const go = (changes) => {
      const next = { ...filters, ...changes };
      location.hash = route(['runs', name, 'conversations'], next);
    };
    const choice = (filter, label, options) => el('label', {}, label,
      el('select', { name: filter, onChange: (event) => go({ [filter]: event.target.value, offset: '' }) },
        el('option', { value: '' }, 'any'), options.map(([value, text]) => el('option', { value, selected: filters[filter] === String(value) }, text))));
    const field = (filter, label, type, extra) => el('label', {}, label, el('input', { name: filter, type, value: filters[filter], ...extra,
      onChange: (event) => go({ [filter]: event.target.value, offset: '' }) }));
    const settings = [...new Set(runData.conditions.map((condition) => condition.setting))];
    const domains = [...new Set(runData.conditions.map((condition) => condition.domain))];
    const form = el('form', { className: 'filters', onSubmit: (event) => event.preventDefault() },
      choice('persuader', 'persuader', runData.models.map((model) => [model, modelText(model)])),
      choice('persuadee', 'persuadee', runData.models.map((model) => [model, modelText(model)])),
      choice('setting', 'setting', settings.map((setting) => [setting, setting + '-turn'])),
      choice('domain', 'domain', domains.map((domain) => [domain, domain])),
      choice('status', 'status', [['completed', 'completed'], ['failed', 'failed']]),
      choice('failureReason', 'failure reason', runData.failureReasons.map((reason) => [reason, reason])),
      choice('earlyStopped', 'early stop', [['true', 'stopped early'], ['false', 'not early']]),
      field('ncMin', 'NC from', 'number', { min: -1, max: 1, step: 0.05 }),
      field('ncMax', 'NC to', 'number', { min: -1, max: 1, step: 0.05 }),
      field('claim', 'claim #', 'number', { min: 0, step: 1 }),
      field('q', 'claim text', 'search', { placeholder: 'words in the claim' }),
      el('label', {}, 'sort', el('select', { name: 'sort', onChange: (event) => go({ sort: event.target.value, offset: '' }) },
        [['pair', 'by pair'], ['claim', 'by claim'], ['nc', 'NC, lowest first'], ['-nc', 'NC, highest first']].map(([value, text]) => el('option', { value, selected: (filters.sort || 'pair') === value }, text)))),
      el('a', { href: route(['runs', name, 'conversations'], null) }, 'clear filters'));
    const bodyRows = page.items.map((item) => el('tr', {},
      td(link(['conversations', item.conversationId], { run: name }, item.conversationId)),
      td(modelText(item.persuader, item.simulated.persuader) + ' -> ' + modelText(item.persuadee, item.simulated.persuadee)),
      td(item.domain + ', ' + item.setting),
      td(item.claim),
      td(item.status === 'failed' ? badge('failed: ' + item.failureReason, 'failed') : 'completed'),
      numberCell(number(item.initialScore, 0) + ' -> ' + number(item.finalScore, 0)),
      paint(numberCell(number(item.normalizedChange)), item.normalizedChange),
      td([item.earlyStopped ? 'early stop' : '', importedMarks(item)])));
    const from = page.total === 0 ? 0 : offset + 1;
    const to = Math.min(page.total, offset + page.items.length);
    const pager = el('div', { className: 'pager' },
      el('button', { type: 'button', id: 'previous-page', disabled: offset === 0, onClick: () => go({ offset: String(Math.max(0, offset - PAGE_SIZE)) }) }, 'previous'),
      el('span', { id: 'page-position' }, count(from) + '-' + count(to) + ' of ' + count(page.total)),
      el('button', { type: 'button', id: 'next-page', disabled: offset + PAGE_SIZE >= page.total, onClick: () => go({ offset: String(offset + PAGE_SIZE) }) }, 'next'));
    show(el('h2', {}, 'Conversations of ', name), form, pager,
      page.items.length === 0 ? el('p', {}, 'No conversation matches these filters.') :
        table(['conversation', 'persuader -> persuadee', 'condition', 'claim', 'status', 'score', 'NC', ''], bodyRows));
    selectable(bodyRows);
    refreshWhileLive(runData.run.live, () => current === routeNumber && conversationsPage(current, name, query).catch(showError));
  }

  // ---- one conversation ----
  function trajectory(turns) {
    const points = turns.filter((turn) => turn.role === 'persuadee');
    const ns = 'http://www.w3.org/2000/svg';
    const width = 320;
    const height = 130;
    const x = (index) => 30 + (points.length <= 1 ? 0 : (index * (width - 50)) / (points.length - 1));
    const y = (score) => 10 + ((5 - score) * (height - 35)) / 4;
    const svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('class', 'trajectory');
    svg.setAttribute('width', String(width));
    svg.setAttribute('height', String(height));
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', 'persuadee agreement by turn: ' + points.map((turn) => turn.score).join(', '));
    const add = (tag, attributes, text) => {
      const node = document.createElementNS(ns, tag);
      for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
      if (text !== undefined) node.textContent = text;
      svg.append(node);
    };
    for (let score = 1; score <= 5; score += 1) {
      add('line', { x1: 26, x2: width - 15, y1: y(score), y2: y(score), stroke: '#dde1e8' });
      add('text', { x: 4, y: y(score) + 4, 'font-size': 11, fill: '#5b6170' }, String(score));
    }
    add('polyline', { points: points.map((turn, index) => x(index) + ',' + y(turn.score)).join(' '), fill: 'none', stroke: '#2b6cb0', 'stroke-width': 2 });
    points.forEach((turn, index) => {
      add('circle', { cx: x(index), cy: y(turn.score), r: 4, fill: '#2b6cb0' });
      add('text', { x: x(index) - 4, y: height - 6, 'font-size': 10, fill: '#5b6170' }, String(turn.index));
    });
    return svg;
  }
  function attemptsTable(attempts, calls, run, imported) {
    const byHash = new Map(calls.map((call) => [call.callHash, call]));
    return table(['attempt', 'outcome', 'seed', 'finish', 'tokens in / out', 'cost', 'call', 'made by', 'latency', 'shared with'], attempts.map((attempt) => {
      const call = attempt.callHash ? byHash.get(attempt.callHash) : undefined;
      return el('tr', {},
        numberCell(attempt.number),
        td(attempt.outcome + (attempt.detail ? ': ' + attempt.detail : '')),
        numberCell(imported ? 'none (imported)' : attempt.seed),
        td(attempt.finishReason || '-'),
        numberCell(attempt.usage ? (attempt.usage.inputTokens ?? '?') + ' / ' + (attempt.usage.outputTokens ?? '?') : 'not reported'),
        numberCell(attempt.costUsd === undefined ? '-' : '$' + attempt.costUsd.toFixed(6)),
        td(el('span', { className: 'hash' }, attempt.callHash || '-')),
        td(call ? (call.madeByRun === run ? 'this run' : 'replayed from ' + call.madeByRun) : '-'),
        numberCell(call ? Math.round(call.latencyMs) + ' ms' + (call.retries ? ', ' + call.retries + ' retries' : '') : '-'),
        td(call && call.sharedWith.length ? call.sharedWith.slice(0, 12).map((other) => [link(['conversations', other.conversationId], { run }, other.conversationId), ' ']).concat(call.sharedWith.length > 12 ? ['and ' + (call.sharedWith.length - 12) + ' more'] : []) : '-'));
    }));
  }
  async function conversationPage(current, id, query) {
    const run = query.get('run') || '';
    const suffix = run ? '?run=' + encodeURIComponent(run) : '';
    const [record, provenance] = await Promise.all([api('conversations/' + encodeURIComponent(id) + suffix), api('conversations/' + encodeURIComponent(id) + '/calls' + suffix)]);
    if (current !== routeNumber) return;
    const runName = provenance.run;
    crumbs(link([], null, 'runs'), link(['runs', runName], null, runName), link(['runs', runName, 'conversations'], { persuader: record.persuader, persuadee: record.persuadee, setting: record.setting, domain: record.domain }, 'conversations'), el('span', {}, id));
    const facts = el('dl', { className: 'facts' },
      el('dt', {}, 'persuader'), el('dd', {}, modelText(record.persuader, record.simulated.persuader)),
      el('dt', {}, 'persuadee'), el('dd', {}, modelText(record.persuadee, record.simulated.persuadee)),
      el('dt', {}, 'condition'), el('dd', {}, record.domain + ', ' + record.setting + '-turn (' + record.turnsPlanned + ' turns planned), repetition ' + record.repetition),
      el('dt', {}, 'claim'), el('dd', {}, link(['runs', runName, 'conversations'], { domain: record.domain, claim: record.claimIndex }, '#' + record.claimIndex), ' ', record.claim),
      record.question ? [el('dt', {}, 'question'), el('dd', {}, record.question)] : [],
      el('dt', {}, 'source'), el('dd', {}, record.origin + ' (' + record.license + ')'),
      el('dt', {}, 'agreement'), el('dd', {}, scoreText(record.initialScore) + ' -> ' + scoreText(record.finalScore)),
      el('dt', {}, 'NC'), el('dd', {}, number(record.normalizedChange) + (record.absoluteChange === null ? '' : ' (absolute ' + signed(record.absoluteChange) + ')') + (record.earlyStopped ? ', stopped early' : ''),
        record.imported && record.imported.disputedScores.length ? [' ', badge(disputedText(record.imported.disputedScores), 'disputed')] : ''),
      el('dt', {}, 'persuader\'s stance'), el('dd', {}, scoreText(record.persuaderStance)),
      el('dt', {}, 'also in'), el('dd', {}, provenance.otherRuns.length ? provenance.otherRuns.map((other) => [link(['conversations', id], { run: other }, other), ' ']) : 'no other run'),
      record.imported ? importedFacts(record) : []);
    const differenceAt = new Map(record.imported ? record.imported.differences.map((difference) => [difference.turn, difference]) : []);
    const failure = record.status !== 'failed' ? '' : el('section', { className: 'failure', id: 'failure' },
      el('strong', {}, 'Failed: ' + record.failureReason), ' at turn ' + record.failedTurn + ' (' + record.failedRole + ')',
      el('p', { className: 'message' }, record.failureDetail || ''),
      record.failedAttempts.length ? [el('h3', {}, 'Every attempt of the failed turn'), attemptsTable(record.failedAttempts, provenance.calls, runName, Boolean(record.imported)),
        record.failedAttempts.map((attempt) => el('details', {}, el('summary', {}, 'raw reply of attempt ' + attempt.number), el('pre', { className: 'raw' }, attempt.raw || '(no reply: the call failed)')))] : []);
    const turns = el('ol', { className: 'turns' }, record.turns.map((turn) => el('li', { className: turn.role + (differenceAt.has(turn.index) ? ' disputed' : '') },
      el('div', { className: 'turn-head' }, el('strong', {}, 'turn ' + turn.index + ': ' + turn.role), el('span', {}, KINDS[turn.kind] || turn.kind),
        el('span', {}, (turn.role === 'persuadee' ? 'agreement ' : 'own rating ') + scoreText(turn.score)),
        turn.attempts.length > 1 ? el('span', {}, (turn.attempts.length - 1) + ' re-sampled') : '',
        differenceAt.has(turn.index) ? badge('disputed', 'disputed') : ''),
      el('div', { className: 'message' }, turn.message),
      differenceAt.has(turn.index) ? disputeNote(differenceAt.get(turn.index), record.imported.labelMatch) : '',
      el('details', {}, el('summary', {}, 'raw reply, attempts and calls'), el('pre', { className: 'raw' }, turn.raw), attemptsTable(turn.attempts, provenance.calls, runName, Boolean(record.imported))))));
    show(el('h2', {}, 'Conversation ' + id, record.imported ? [' ', badge('imported', 'imported')] : ''), failure, facts,
      el('h3', {}, 'Persuadee agreement by turn'), trajectory(record.turns),
      el('h3', {}, 'Transcript'), turns);
    selectable([]);
  }

  // ---- compare ----
  /** "gamma (only in a); 2 claims; 26 cells", or "nothing": what a model's comparison left out. */
  function leftOutText(leftOut) {
    const opponents = leftOut.opponents.map((opponent) => modelText(opponent.model) + ' (' + (opponent.onlyIn ? 'only in ' + opponent.onlyIn : 'no common claim') + ')');
    const parts = [];
    if (opponents.length) parts.push((opponents.length === 1 ? 'opponent ' : 'opponents ') + opponents.join(', '));
    if (leftOut.claims) parts.push(count(leftOut.claims) + (leftOut.claims === 1 ? ' claim' : ' claims'));
    if (leftOut.cells) parts.push(count(leftOut.cells) + (leftOut.cells === 1 ? ' cell' : ' cells'));
    return parts.length ? parts.join('; ') : 'nothing';
  }
  const pText = (p) => (p === null || p === undefined ? '-' : p < 0.001 ? '< 0.001' : Number(p).toFixed(3));
  const intervalText = (entry) => (entry.ciLow === null || entry.ciLow === undefined ? '-' : (entry.thin ? '~' : '') + '[' + number(entry.ciLow) + ', ' + number(entry.ciHigh) + ']');
  async function comparePage(current, query) {
    const data = await api('compare?' + query);
    if (current !== routeNumber) return;
    const armText = (arm) => arm.run + (arm.setting ? ' (' + arm.setting + '-turn)' : '');
    crumbs(link([], null, 'runs'), el('span', {}, 'compare ' + armText(data.a) + ' with ' + armText(data.b)));
    const condition = (entry) => entry.domain + (entry.setting ? ', ' + entry.setting : '');
    const pairRows = data.pairs.map((pair) => el('tr', {}, td(condition(pair)), td(modelText(pair.persuader)), td(modelText(pair.persuadee)),
      numberCell(number(pair.a)), numberCell(number(pair.b)), paint(numberCell(signed(pair.difference)), pair.difference), numberCell(count(pair.claims)),
      numberCell(count(pair.aCompleted) + ' / ' + count(pair.bCompleted))));
    const modelRows = data.models.map((entry) => el('tr', {}, td(condition(entry)), td(modelText(entry.model)), td(entry.role === 'persuader' ? 'effectiveness' : 'susceptibility'),
      numberCell(number(entry.a)), numberCell(number(entry.b)), paint(numberCell(signed(entry.difference)), entry.difference), numberCell(intervalText(entry)),
      numberCell(pText(entry.pHolm)), numberCell(count(entry.claims) + ' / ' + count(entry.cells)), td(leftOutText(entry.leftOut))));
    const notCompared = data.notCompared.map((entry) => modelText(entry.model) + ' as ' + entry.role + ' in ' + condition(entry) + ' (' + (entry.onlyIn ? 'only in ' + entry.onlyIn : 'no common cell') + ')');
    const conditionsLeftOut = data.conditions.filter((entry) => entry.claimsLeftOut || entry.cellsLeftOut)
      .map((entry) => condition(entry) + ': ' + count(entry.claimsLeftOut) + ' claims and ' + count(entry.cellsLeftOut) + ' (pair, claim) cells in one side only');
    show(el('h2', {}, armText(data.a), ' vs ', armText(data.b)),
      el('p', { className: 'note' }, "Each model's change (b - a) is over the (opponent, claim) cells both sides hold: the same opponents and the same claims on both sides, paired by claim, with its 95% t interval over claims (~: too few claims to trust it) and p Holm-adjusted per measure and condition, as pmiyc report --run " + data.b.run + ' --compare ' + data.a.run + ' computes it. n is claims / cells.'),
      notCompared.length ? el('p', { className: 'note', id: 'not-compared' }, 'Not compared: ' + notCompared.join('; ') + '.') : '',
      conditionsLeftOut.length ? el('p', { className: 'note', id: 'left-out' }, 'Left out: ' + conditionsLeftOut.join('; ') + '.') : '',
      el('h3', {}, 'Per model'), table(['condition', 'model', 'measure', 'a', 'b', 'b - a', '95% interval', 'p (Holm)', 'n', 'left out'], modelRows),
      el('h3', {}, 'Per pair'), table(['condition', 'persuader', 'persuadee', 'a', 'b', 'b - a', 'claims', 'completed a / b'], pairRows));
    selectable(modelRows);
  }

  // ---- routing and keys ----
  async function render() {
    routeNumber += 1;
    const current = routeNumber;
    clearTimeout(refreshTimer);
    showError(null);
    const hash = location.hash.replace(/^#\/?/, '');
    const [path, search] = hash.split('?');
    const parts = (path || '').split('/').filter(Boolean).map(decodeURIComponent);
    const query = new URLSearchParams(search || '');
    try {
      if (parts.length === 0) await runsPage(current);
      else if (parts[0] === 'runs' && parts.length === 2) await runPage(current, parts[1]);
      else if (parts[0] === 'runs' && parts[2] === 'conversations') await conversationsPage(current, parts[1], query);
      else if (parts[0] === 'conversations' && parts.length === 2) await conversationPage(current, parts[1], query);
      else if (parts[0] === 'compare') await comparePage(current, query);
      else throw new Error('no such page: ' + location.hash);
    } catch (error) {
      if (current === routeNumber) {
        show('');
        showError(error);
      }
    }
  }
  function up() {
    const links = byId('crumbs').querySelectorAll('a');
    if (links.length > 0) location.hash = links[links.length - 1].getAttribute('href');
  }
  document.addEventListener('keydown', (event) => {
    const target = event.target;
    if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')) {
      if (event.key === 'Escape') target.blur();
      return;
    }
    if (event.metaKey || event.ctrlKey || event.altKey) return;
    if (event.key === 'j' && rows.length) { selected = Math.min(rows.length - 1, selected + 1); mark(); event.preventDefault(); }
    else if (event.key === 'k' && rows.length) { selected = Math.max(0, selected - 1); mark(); event.preventDefault(); }
    else if (event.key === 'Enter' && rows[selected]) { const first = rows[selected].querySelector('a'); if (first) { location.hash = first.getAttribute('href'); event.preventDefault(); } }
    else if (event.key === 'Escape') { up(); event.preventDefault(); }
  });
  window.addEventListener('hashchange', render);
  render();
})();
`;
