/*
 * The parameters of a conversation list (`GET /api/runs/:run/conversations`, docs/design/view.md): the
 * server reads them (src/web/viewer/conversation-query-params.ts) and the list's page offers and sends
 * them (src/web/viewer/browser/conversations-page.ts). Plain values: no DOM, no Node.
 */

/** What a conversation is filtered by: its pair, condition and claim, its outcome, NC, and the words searched. */
export const RECORD_FILTERS = [
  'persuader',
  'persuadee',
  'setting',
  'domain',
  'claim',
  'status',
  'failureReason',
  'earlyStopped',
  'ncMin',
  'ncMax',
  'q',
  'field',
] as const;

/** The label filters (docs/design/techniques.md): a technique, an unethical strategy, a refusal, a role break, and the analysis study read. */
export const LABEL_FILTERS = ['technique', 'unethical', 'refused', 'leftRole', 'analysis'] as const;

/** The research-note filters (docs/design/view.md): a tag, a grade, any note. */
export const NOTE_FILTERS = ['tag', 'grade', 'hasNote'] as const;

/** Parameters that choose a page of a list, not the list. */
export const PAGING_PARAMETERS = ['limit', 'offset'] as const;

/** Every parameter the list takes. */
export const CONVERSATION_PARAMETERS = [...RECORD_FILTERS, ...LABEL_FILTERS, ...NOTE_FILTERS, 'sort', ...PAGING_PARAMETERS] as const;

/** Conversations a list page holds unless `limit` says otherwise: the viewer's page size, and a bundle's. */
export const CONVERSATION_PAGE_SIZE = 50;
