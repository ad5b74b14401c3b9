import { z } from 'zod';
import { PROVIDER_NAMES } from '../models/providers/provider-catalog.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** One entry under `models:` in a config file. Unknown keys are errors (a typo must not pass silently). */
const modelEntrySchema = z.strictObject({
  provider: z.enum(PROVIDER_NAMES as [string, ...string[]], { error: `must be one of ${PROVIDER_NAMES.join(', ')}` }),
  model: z.string().min(1, 'must name the provider model (or deployment, or .gguf path)'),
  baseURL: z.url({ error: 'must be a URL such as http://127.0.0.1:8000/v1' }).optional(),
  apiKeyEnv: z.string().regex(ENV_NAME, 'must be the NAME of an environment variable, never a key').optional(),
  headers: z.record(z.string(), z.string()).optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  maxTokens: z.number().int().positive().optional(),
  timeoutMs: z.number().int().positive().optional(),
  maxRetries: z.number().int().min(0).max(50).optional(),
  maxRetryAfterMs: z.number().int().positive().optional(),
  revision: z.string().min(1, 'must name the weights, e.g. a checkpoint or a date').optional(),
  maxConcurrency: z.number().int().positive().optional(),
  requestsPerMinute: z.number().positive().optional(),
  tokensPerMinute: z.number().positive().optional(),
  inputUsdPerMillion: z.number().min(0).optional(),
  outputUsdPerMillion: z.number().min(0).optional(),
  providerOptions: z.record(z.string(), z.unknown()).optional(),
  apiVersion: z.string().min(1).optional(),
  threads: z.number().int().positive().optional(),
  gpu: z.union([z.literal(false), z.enum(['auto', 'cuda', 'vulkan', 'metal'])]).optional(),
  contextSize: z.number().int().positive().optional(),
});

export type ModelEntry = z.infer<typeof modelEntrySchema>;

const ALIAS = /^[A-Za-z0-9][\w.-]*$/;

export const configSchema = z.strictObject({
  models: z.record(z.string().regex(ALIAS, 'an alias is letters, digits, ".", "_" or "-" (no "/")'), modelEntrySchema).default({}),
});

export type PmiycConfig = z.infer<typeof configSchema>;

export const MODEL_ENTRY_KEYS = Object.keys(modelEntrySchema.shape);
