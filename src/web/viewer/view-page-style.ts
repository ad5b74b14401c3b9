/** The viewer's base styles. Colours of NC: red below zero, blue above. */
const BASE_CSS = `
:root { --ink: #1f2430; --muted: #5b6170; --line: #dde1e8; --paper: #f6f7f9; --accent: #2b6cb0; --bad: #b2182b; --live: #1a7f37; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 "Helvetica Neue", Helvetica, Arial, sans-serif; color: var(--ink); background: var(--paper); }
header.bar { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; gap: .3rem 1rem; align-items: baseline;
  padding: .5rem 1.2rem; background: white; border-bottom: 1px solid var(--line); }
header.bar h1 { font-size: 1.05rem; margin: 0; }
header.bar h1 a { color: inherit; text-decoration: none; }
#crumbs { color: var(--muted); font-size: .9rem; }
#crumbs a { color: var(--accent); }
main { max-width: 78rem; margin: 0 auto; padding: 1rem 1.2rem 4rem; }
h2 { font-size: 1.1rem; margin: 1.4rem 0 .5rem; }
h3 { font-size: 1rem; margin: 1rem 0 .4rem; }
a { color: var(--accent); }
table { border-collapse: collapse; background: white; font-size: .9rem; }
th, td { border: 1px solid var(--line); padding: .25rem .5rem; text-align: left; vertical-align: top; }
th { background: #eef0f4; font-weight: 600; }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
tr.selected td { outline: 2px solid var(--accent); outline-offset: -2px; background: #eaf2fb; }
table.matrix td { text-align: center; min-width: 5.5rem; }
table.matrix td a { display: block; color: var(--ink); text-decoration: none; }
table.matrix td small { display: block; color: var(--muted); }
.badge { display: inline-block; padding: 0 .4rem; border-radius: 3px; font-size: .8rem; background: #e5e7eb; }
.badge.live { background: var(--live); color: white; }
.badge.failed, .badge.interrupted { background: #fde2e1; color: var(--bad); }
.badge.simulated { background: #fff4ce; color: #6b5200; }
.badge.imported { background: #e3ecf7; color: #234e7d; }
.badge.disputed { background: #fde2e1; color: var(--bad); }
.badge.refused { background: #fff4ce; color: #6b5200; }
.badge.left-role { background: #efe3f7; color: #5b2a7d; }
.tags { display: flex; flex-wrap: wrap; gap: .3rem; align-items: baseline; margin: .3rem 0 0; font-size: .8rem; }
.tag { display: inline-block; padding: 0 .45rem; border-radius: 9px; border: 1px solid var(--line); overflow-wrap: anywhere; }
.tag.technique { background: #e3ecf7; border-color: #b9cde6; color: #234e7d; }
.tag.unethical { background: #fde2e1; border-color: var(--bad); color: var(--bad); font-weight: 600; }
.tag.none, .tag.unlabelled, .tags .judge { color: var(--muted); }
details.other-judges { width: 100%; }
details.other-judges .tags { margin-left: 1rem; }
.dispute { color: var(--bad); font-size: .85rem; margin: .2rem 0; }
ol.turns > li.disputed { outline: 2px dashed #f4a3a0; outline-offset: -1px; }
.note { color: var(--muted); font-size: .88rem; margin: .3rem 0; }
.error { color: var(--bad); font-weight: 600; white-space: pre-wrap; }
.failure { border-left: 4px solid var(--bad); background: #fff5f5; padding: .5rem .8rem; margin: .8rem 0; }
form.filters { display: flex; flex-wrap: wrap; gap: .5rem .9rem; align-items: end; background: white; border: 1px solid var(--line);
  padding: .6rem .8rem; border-radius: 6px; }
form.filters label { display: flex; flex-direction: column; font-size: .8rem; color: var(--muted); }
form.filters input, form.filters select { font: inherit; font-size: .9rem; }
form.filters input[type=number] { width: 5.5rem; }
.pager { display: flex; gap: .8rem; align-items: center; margin: .6rem 0; }
ol.turns { list-style: none; padding: 0; margin: 0; }
ol.turns > li { background: white; border: 1px solid var(--line); border-radius: 6px; padding: .6rem .9rem; margin: .6rem 0; }
ol.turns > li.persuadee { margin-left: 3rem; border-left: 4px solid var(--accent); }
ol.turns > li.persuader { margin-right: 3rem; border-left: 4px solid #8d95a3; }
.turn-head { font-size: .85rem; color: var(--muted); display: flex; gap: .8rem; flex-wrap: wrap; }
.message { white-space: pre-wrap; overflow-wrap: anywhere; margin: .4rem 0; }
pre.raw { white-space: pre-wrap; overflow-wrap: anywhere; background: #f1f3f6; padding: .5rem; font-size: .82rem; max-height: 20rem; overflow: auto; }
details summary { cursor: pointer; color: var(--accent); font-size: .88rem; }
code, .hash { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .82rem; overflow-wrap: anywhere; }
svg.trajectory { background: white; border: 1px solid var(--line); border-radius: 6px; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15rem .9rem; margin: .5rem 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.keys { color: var(--muted); font-size: .8rem; }
ol.turns > li.target { outline: 3px solid var(--accent); outline-offset: 1px; }
.turn-head a { font-size: .8rem; }
tr.hit td { border-top: none; background: #fbfcfd; font-size: .85rem; color: var(--muted); overflow-wrap: anywhere; }
tr.hit .snippet { color: var(--ink); }
mark { background: #fff1a8; color: inherit; padding: 0 .1rem; border-radius: 2px; }
.bar-cell { display: flex; align-items: center; gap: .4rem; }
.bar-cell span.bar { display: inline-block; height: .7rem; background: var(--accent); }
.bar-cell span.bar.negative { background: var(--bad); }
.notes { margin: .3rem 0; }
ul.note-list { list-style: none; padding: 0; margin: .3rem 0; }
li.research-note { border-left: 3px solid #d4a017; background: #fffbea; padding: .3rem .6rem; margin: .3rem 0; }
.tag.note-tag { background: #fff4ce; border-color: #d4a017; color: #6b5200; }
.badge.grade { background: #efe3f7; color: #5b2a7d; }
form.note-form { display: flex; flex-wrap: wrap; gap: .4rem .8rem; align-items: end; margin: .3rem 0; }
form.note-form label { display: flex; flex-direction: column; font-size: .8rem; color: var(--muted); }
form.note-form label.note-field { flex: 1 1 20rem; }
form.note-form input, form.note-form select, form.note-form textarea, form.note-form button { font: inherit; font-size: .9rem; }
`;

/** The run page's interval marks (issue 32) and a bundle's label. */
const INTERVAL_CSS = `
.interval { display: inline-flex; align-items: center; gap: .3rem; margin-left: .4rem; color: var(--muted); font-size: .78rem; white-space: nowrap; }
.interval-scale { position: relative; display: inline-block; width: 12rem; height: .7rem; }
.interval-zero { position: absolute; left: 6rem; top: 0; bottom: 0; border-left: 1px dotted #9aa1ad; }
.interval-line { position: absolute; top: .3rem; height: 2px; background: var(--ink); }
.interval.thin .interval-line { background: #b7bcc6; }
td .interval-place { display: block; }
details.comparisons { margin: .4rem 0; }
.bundle-label { margin: 0; padding: .35rem 1.2rem; background: #eef0f4; border-bottom: 1px solid var(--line); font-size: .85rem; }
.bundle-label.simulated { background: #fff4ce; color: #6b5200; }
ol.turns > li.target { outline: 3px solid var(--accent); outline-offset: -1px; }
.turn-link { font-size: .8rem; }
`;

/** The viewer's stylesheet (inline under the page's nonce; a file in a bundle). */
export const VIEW_PAGE_CSS = BASE_CSS + INTERVAL_CSS;
