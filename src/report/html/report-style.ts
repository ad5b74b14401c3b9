/** The report's only stylesheet, inlined: no fonts, images or scripts are fetched. */
export const REPORT_CSS = `
:root {
  --ink: #1f2430; --muted: #5b6170; --faint: #8a90a0; --line: #e3e6ec; --bg: #f4f5f8; --card: #ffffff;
  --accent: #3154c8; --persuader: #6d28d9; --persuader-bg: #f4effe; --persuadee: #0f766e; --persuadee-bg: #eaf6f4;
  --good: #15803d; --bad: #b42318; --warn-bg: #fff7e0; --warn-line: #f0c36d;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
.page { max-width: 1180px; margin: 0 auto; padding: 0 24px 48px; }
.masthead { background: #1c2130; color: #f3f4f7; padding: 36px 0 30px; }
.masthead .page { padding-bottom: 0; }
.eyebrow { text-transform: uppercase; letter-spacing: .12em; font-size: 12px; font-weight: 600; color: #9fb3ff; margin: 0 0 6px; }
.masthead h1 { margin: 0 0 8px; font-size: 30px; line-height: 1.2; font-weight: 700; }
.masthead .lede { margin: 0; color: #c9cdd8; font-size: 15px; }
.masthead .lede span + span::before { content: "·"; margin: 0 8px; color: #6f7690; }
.notice { margin: 18px 0 0; padding: 12px 16px; border-radius: 8px; background: var(--warn-bg); color: #5c4200; border: 1px solid var(--warn-line); font-size: 14px; }
.masthead .notice { background: #3a3320; color: #ffe6a6; border-color: #6b5a2a; }
nav.toc { display: flex; flex-wrap: wrap; gap: 6px; margin: 20px 0 4px; }
nav.toc a { color: var(--accent); text-decoration: none; font-size: 13px; padding: 4px 10px; border-radius: 999px; background: var(--card); border: 1px solid var(--line); }
nav.toc a:hover { border-color: var(--accent); }
section.block { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 24px 28px; margin: 22px 0; }
section.block > h2 { margin: 0 0 4px; font-size: 21px; }
.paper-ref { color: var(--faint); font-size: 13px; font-weight: 500; margin-left: 8px; }
.intro { color: var(--muted); margin: 0 0 16px; max-width: 860px; }
h3 { font-size: 16px; margin: 22px 0 8px; }
figure.chart { margin: 14px 0 6px; overflow-x: auto; }
figure.chart svg { display: block; max-width: 100%; height: auto; }
figure.chart figcaption { color: var(--faint); font-size: 12px; margin-top: 4px; }
.table-wrap { overflow-x: auto; margin: 10px 0; }
table.data { border-collapse: collapse; font-size: 13px; min-width: 50%; font-variant-numeric: tabular-nums; }
table.data th { text-align: left; font-weight: 600; color: var(--muted); border-bottom: 2px solid var(--line); padding: 6px 12px 6px 0; white-space: nowrap; }
table.data td { border-bottom: 1px solid var(--line); padding: 6px 12px 6px 0; vertical-align: top; }
table.data td.number, table.data th.number { text-align: right; white-space: nowrap; }
table.data tr:last-child td { border-bottom: none; }
.est { font-weight: 600; }
.ci, .n { color: var(--faint); }
.n { font-size: 12px; margin-left: 4px; }
.na { color: var(--faint); font-style: italic; }
.thin { color: var(--faint); font-weight: 600; cursor: help; }
.badge { display: inline-block; font-size: 11px; font-weight: 600; line-height: 1; padding: 3px 6px; border-radius: 4px; margin-left: 6px; vertical-align: 1px; }
.badge.sim { background: #fff1c7; color: #7a5200; border: 1px solid #f0d27a; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(232px, 1fr)); gap: 14px; margin-top: 12px; }
.card { border: 1px solid var(--line); border-radius: 10px; padding: 16px 18px; background: #fbfbfd; }
.card h3 { margin: 0 0 10px; font-size: 15px; }
.card dl { margin: 0; }
.card dt { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: var(--faint); margin-top: 10px; }
.card dd { margin: 2px 0 0; }
.card .who { font-weight: 700; }
.card .caveat { font-size: 12px; color: var(--muted); }
.card .counts { margin: 12px 0 0; font-size: 12px; color: var(--muted); }
details { margin: 8px 0; }
details > summary { cursor: pointer; color: var(--accent); font-size: 13px; }
pre.config { background: #f6f7f9; border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; font-size: 12px; overflow-x: auto; max-height: 420px; }
ul.notes { margin: 8px 0 0; padding-left: 20px; color: var(--muted); }
.dialogue { border: 1px solid var(--line); border-radius: 10px; margin: 18px 0; overflow: hidden; }
.dialogue > header { padding: 14px 18px; background: #fafbfc; border-bottom: 1px solid var(--line); }
.dialogue h3 { margin: 6px 0 4px; font-size: 16px; }
.dialogue .question { margin: 0 0 4px; color: var(--muted); }
.dialogue .facts { margin: 0; font-size: 13px; color: var(--muted); }
.kind { display: inline-block; font-size: 11px; font-weight: 700; text-transform: uppercase; letter-spacing: .08em; padding: 3px 8px; border-radius: 4px; }
.kind.best { background: #dcfce7; color: #14532d; }
.kind.worst { background: #eceef2; color: #374151; }
.kind.backfire { background: #fee2e2; color: #7f1d1d; }
ol.turns { list-style: none; margin: 0; padding: 14px 18px 18px; }
li.turn { margin: 10px 0; max-width: 86%; }
li.turn.persuader { margin-left: auto; }
.turn .who-said { font-size: 12px; color: var(--muted); margin-bottom: 3px; }
.turn.persuader .who-said { text-align: right; }
.turn .role { font-weight: 700; text-transform: capitalize; }
.turn.persuadee .role { color: var(--persuadee); }
.turn.persuader .role { color: var(--persuader); }
.bubble { padding: 10px 14px; border-radius: 10px; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 14px; }
.turn.persuadee .bubble { background: var(--persuadee-bg); border-left: 3px solid var(--persuadee); }
.turn.persuader .bubble { background: var(--persuader-bg); border-right: 3px solid var(--persuader); }
.turn.final .bubble { box-shadow: inset 0 0 0 1px var(--persuadee); }
.turn .dispute { color: var(--bad); font-size: 12px; margin: 4px 0 0; }
.score { display: inline-block; font-size: 11px; font-weight: 700; padding: 2px 7px; border-radius: 999px; color: white; margin-left: 6px; }
.score.s1 { background: #b2182b; } .score.s2 { background: #e0734c; } .score.s3 { background: #8b93a3; } .score.s4 { background: #4a90c2; } .score.s5 { background: #2166ac; }
.score.own { background: transparent; color: var(--faint); border: 1px dashed #c4c8d2; font-weight: 500; }
.nc-up { color: var(--good); font-weight: 700; } .nc-down { color: var(--bad); font-weight: 700; }
@media (max-width: 1100px) { .cards { grid-template-columns: repeat(2, minmax(0, 1fr)); } }
@media (max-width: 620px) { .cards { grid-template-columns: minmax(0, 1fr); } li.turn { max-width: 100%; } .page { padding: 0 14px 32px; } }
footer.method { color: var(--muted); font-size: 13px; margin-top: 28px; }
footer.method code { font-size: 12px; }
@media print {
  body { background: white; font-size: 11pt; }
  .masthead { background: white; color: black; padding: 0 0 12px; border-bottom: 2px solid black; }
  .masthead .lede, .eyebrow { color: #333; }
  .masthead .notice { background: white; color: black; border-color: black; }
  nav.toc { display: none; }
  section.block { border: none; padding: 0; margin: 18px 0; border-radius: 0; }
  section.block > h2 { break-after: avoid; }
  .cards { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  figure.chart, table.data, .card, li.turn { break-inside: avoid; }
  .dialogue { break-inside: auto; border-color: #999; }
  a { color: inherit; text-decoration: none; }
}
`;
