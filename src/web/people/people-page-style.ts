/** The participant's page: plain, readable on a phone, no remote font or image. */
export const PEOPLE_PAGE_CSS = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
body { margin: 0 auto; max-width: 44rem; padding: 1rem; }
h1 { font-size: 1.3rem; }
.claim { border-left: 4px solid #4a7; padding: 0.5rem 1rem; background: rgba(70, 160, 110, 0.08); }
ol.turns { list-style: none; padding: 0; }
ol.turns li { border: 1px solid rgba(128, 128, 128, 0.4); border-radius: 6px; margin: 0.6rem 0; padding: 0.6rem 0.8rem; white-space: pre-wrap; overflow-wrap: anywhere; }
ol.turns li.you { background: rgba(80, 120, 200, 0.08); }
ol.turns li.saving { border-style: dashed; }
.who { font-weight: 600; display: block; white-space: normal; }
.score { display: block; font-size: 0.9rem; opacity: 0.8; white-space: normal; }
fieldset { border: none; padding: 0; margin: 0.8rem 0; }
fieldset label { display: block; padding: 0.2rem 0; }
textarea { width: 100%; min-height: 8rem; font: inherit; box-sizing: border-box; }
button { font: inherit; padding: 0.4rem 1rem; margin: 0.4rem 0.4rem 0.4rem 0; }
.problem { color: #c33; }
.quiet { opacity: 0.75; font-size: 0.9rem; }
`;
