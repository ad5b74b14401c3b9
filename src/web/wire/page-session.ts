/*
 * How a page proves it is the one its server gave out (docs/design/view.md, docs/design/annotation.md):
 * the header its writes carry the session's token in, and the meta element the annotation page finds
 * its token in. Plain values: no DOM, no Node.
 */

/**
 * The request header that carries a page's session token (the viewer's notes, the annotation page's labels).
 * A custom header also keeps other sites' pages from sending it without a preflight, which is refused.
 */
export const SESSION_TOKEN_HEADER = 'x-pmiyc-token';

/** The meta element the annotation server writes its session's token into: `<meta name="pmiyc-token" content="...">`. */
export const SESSION_TOKEN_META_NAME = 'pmiyc-token';
