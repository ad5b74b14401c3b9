import type * as Http from 'node:http';
import type * as Https from 'node:https';
import { createRequire } from 'node:module';

// `node:http` and `node:https` loaded as CommonJS. Imported as ES modules, Node 22 and 24 build their
// module namespace by reading every export, and reading `node:http`'s WebSocket loads undici, the
// fetch implementation: ~30 ms of CPU at every start of a command that makes HTTP calls, for code
// pmiyc never uses. Required, each is just the module object. Types still come from the real modules.
const require = createRequire(import.meta.url);

export const http = require('node:http') as typeof Http;
export const https = require('node:https') as typeof Https;
