/** The annotation page's stylesheet (inline, allowed by the page's nonce). */
export const ANNOTATION_PAGE_CSS = `
:root { --ink: #1f2430; --muted: #5b6170; --line: #dde1e8; --paper: #f6f7f9; --accent: #2b6cb0;
  --s1: #b2182b; --s2: #ef8a62; --s3: #8d95a3; --s4: #67a9cf; --s5: #2166ac; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 "Helvetica Neue", Helvetica, Arial, sans-serif; color: var(--ink); background: var(--paper); }
header.bar { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; gap: .4rem 1.2rem; align-items: center;
  padding: .6rem 1.2rem; background: white; border-bottom: 1px solid var(--line); }
header.bar h1 { font-size: 1.05rem; margin: 0; }
header.bar .who { color: var(--muted); font-size: .9rem; }
header.bar progress { width: 10rem; height: .6rem; }
#progress { font-variant-numeric: tabular-nums; font-weight: 600; }
#save-status { margin: 0; font-size: .85rem; color: var(--muted); }
#save-status[data-state="offline"], #save-status[data-state="error"] { color: var(--s1); font-weight: 600; }
main { max-width: 52rem; margin: 0 auto; padding: 1rem 1.2rem 4rem; }
details.guide { background: white; border: 1px solid var(--line); border-radius: 6px; padding: .5rem .9rem; margin-bottom: 1rem; }
details.guide summary { cursor: pointer; font-weight: 600; }
#guide-text { white-space: pre-wrap; margin: .5rem 0; }
dl.keys { display: grid; grid-template-columns: max-content 1fr; gap: .1rem .8rem; margin: .5rem 0 0; font-size: .9rem; }
dl.keys dt { font-weight: 600; }
kbd { font: 600 .8rem/1 ui-monospace, monospace; border: 1px solid var(--line); border-bottom-width: 2px; border-radius: 4px; padding: .1rem .3rem; background: white; color: var(--ink); }
nav.conversations { display: flex; gap: .6rem; align-items: center; margin-bottom: .6rem; }
nav.conversations button { font: inherit; padding: .25rem .7rem; border: 1px solid var(--line); border-radius: 4px; background: white; cursor: pointer; }
#conversation-position { font-weight: 600; }
#conversation-state { color: var(--muted); font-size: .9rem; }
section.claim { background: white; border-left: 4px solid var(--accent); padding: .6rem .9rem; margin-bottom: 1rem; border-radius: 0 6px 6px 0; }
section.claim .what { color: var(--muted); font-size: .85rem; margin: 0; }
section.claim p { margin: .2rem 0; white-space: pre-wrap; overflow-wrap: anywhere; }
#claim { font-weight: 600; }
ol#turns { list-style: none; padding: 0; margin: 0; display: grid; gap: .7rem; }
li.turn { background: white; border: 1px solid var(--line); border-radius: 6px; padding: .6rem .9rem; }
li.turn.persuader { margin-right: 3rem; background: #fbfbfc; }
li.turn.persuadee { margin-left: 3rem; }
li.turn.to-label { cursor: pointer; }
li.turn.current { outline: 3px solid var(--accent); outline-offset: 2px; }
li.turn:focus { outline: 3px solid var(--accent); }
.turn-head { display: flex; gap: .7rem; font-size: .8rem; color: var(--muted); text-transform: uppercase; letter-spacing: .03em; }
.turn-head .speaker { font-weight: 700; color: var(--ink); }
p.message { margin: .3rem 0 .5rem; white-space: pre-wrap; overflow-wrap: anywhere; }
.choices { display: flex; flex-wrap: wrap; gap: .35rem; }
button.choice { font: inherit; font-size: .85rem; display: inline-flex; gap: .35rem; align-items: center; padding: .25rem .6rem;
  border: 1px solid var(--line); border-radius: 999px; background: white; color: var(--ink); cursor: pointer; }
button.choice[aria-pressed="true"] { color: white; border-color: transparent; }
button.choice[aria-pressed="true"][data-score="1"] { background: var(--s1); }
button.choice[aria-pressed="true"][data-score="2"] { background: var(--s2); }
button.choice[aria-pressed="true"][data-score="3"] { background: var(--s3); }
button.choice[aria-pressed="true"][data-score="4"] { background: var(--s4); }
button.choice[aria-pressed="true"][data-score="5"] { background: var(--s5); }
#hidden-later, #hint { color: var(--muted); font-size: .9rem; }
#hint { font-weight: 600; color: var(--accent); }
`;
