import { existsSync } from 'node:fs';
// Types only: node-llama-cpp itself is imported on first use, so commands that never run a
// GGUF model never load its native code.
import type { Llama, LlamaChat, LlamaContextSequence, LlamaGrammar, LlamaModel } from 'node-llama-cpp';
import { AGREEMENT_LABELS } from '../../../domain/agreement-score.js';
import { type CallFailureReason, ModelCallError } from '../../model-call-error.js';
import type { ModelSettings } from '../../model-settings.js';
import { buildReplyGrammar, grammarJsonSchema } from './llama-grammar.js';

type GpuSetting = NonNullable<ModelSettings['gpu']>;

/** Upper bound of the default context size: the training size of recent models is far larger than a conversation needs. */
const MAX_DEFAULT_CONTEXT_SIZE = 4096;

/** Runs tasks one at a time in arrival order. */
class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** One GGUF model in memory with the single context sequence that all its calls share, one at a time. */
export interface LoadedLlama {
  readonly model: LlamaModel;
  readonly sequence: LlamaContextSequence;
  readonly chat: LlamaChat;
  readonly queue: SerialQueue;
  /** Characters per token of this model's tokenizer on ordinary English prose. */
  readonly charsPerToken: number;
  /** Tokens the tags and the longest label take, whatever the message. */
  readonly formatTokens: number;
  /** The reply grammar with a message of at most `maxMessageChars` characters (cached per bound). */
  grammarFor(maxMessageChars: number): Promise<LlamaGrammar>;
  /** The grammar of a reply in a JSON Schema (a request's `responseFormat`), cached per schema. */
  jsonGrammarFor(schema: Readonly<Record<string, unknown>>): Promise<LlamaGrammar>;
}

/** What a load depends on; equal plans share one loaded model. */
export interface LoadPlan {
  readonly settings: ModelSettings;
  readonly gpu: GpuSetting;
  readonly threads: number;
}

/** Ordinary prose (our own words) to measure how many characters a token holds for a tokenizer. */
const PROSE_SAMPLE =
  'Most people agree that a good argument should be clear, honest and relevant. It answers the doubts of the listener, ' +
  'offers reasons and examples, and does not pretend to more certainty than the evidence allows.';
/** The fixed part of every reply, with the longest label. */
const FORMAT_SKELETON = `<message></message>\n<support_ranking>${AGREEMENT_LABELS[5]}</support_ranking>`;

const runtimes = new Map<string, Promise<Llama>>();
const loadedModels = new Map<string, Promise<LoadedLlama>>();

/**
 * The GPU setting used when the config sets none. node-llama-cpp's `'auto'` looks for GPU
 * binaries and drivers; where a GPU is plainly absent (CI, most servers) we skip that search and
 * use the CPU build. A GPU is assumed on macOS (Metal) and where an NVIDIA device node exists;
 * anything else (Vulkan, AMD) needs `gpu` set in the config.
 */
export function defaultGpuSetting(): 'auto' | false {
  if (process.platform === 'darwin') return 'auto';
  return existsSync('/dev/nvidia0') ? 'auto' : false;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function callFailure(settings: ModelSettings, reason: CallFailureReason, message: string, cause?: unknown): ModelCallError {
  const fields = { provider: settings.provider, model: settings.model, reason, retryable: false };
  return new ModelCallError(message, fields, cause === undefined ? undefined : { cause });
}

/**
 * The local path of the model file. An `hf:<user>/<repo>/<file>.gguf` URI is downloaded once by
 * node-llama-cpp into its models folder (`~/.node-llama-cpp/models`) and reused from there.
 */
async function resolveModelPath(settings: ModelSettings): Promise<string> {
  if (settings.model.startsWith('hf:')) {
    const { resolveModelFile } = await import('node-llama-cpp');
    try {
      return await resolveModelFile(settings.model, { cli: false });
    } catch (error) {
      const remedy = 'check the URI (hf:<user>/<repo>/<file>.gguf) and the network, or download the file and use llama/<path.gguf>';
      throw callFailure(settings, 'api', `could not download ${settings.model} (${messageOf(error)}): ${remedy}`, error);
    }
  }
  if (!existsSync(settings.model)) throw callFailure(settings, 'api', `no GGUF file at ${settings.model}: check the path after llama/`);
  return settings.model;
}

/** One llama.cpp runtime per GPU and thread setting, shared by every model loaded with them. */
function startRuntime(plan: LoadPlan): Promise<Llama> {
  const key = `${String(plan.gpu)}:${plan.threads}`;
  let runtime = runtimes.get(key);
  if (!runtime) {
    runtime = (async () => {
      const { getLlama, LlamaLogLevel } = await import('node-llama-cpp');
      // Never build from source during a run; warnings (e.g. about a model's special tokens) are noise here.
      return getLlama({ gpu: plan.gpu, build: 'never', maxThreads: plan.threads, logLevel: LlamaLogLevel.error });
    })();
    runtimes.set(key, runtime);
    runtime.catch(() => runtimes.delete(key));
  }
  return runtime.catch((error: unknown) => {
    const remedy = 'if no prebuilt binary fits this machine, build one with `npx --no node-llama-cpp source build`, or set gpu: false';
    throw callFailure(plan.settings, 'api', `could not start llama.cpp with gpu ${String(plan.gpu)} (${messageOf(error)}): ${remedy}`, error);
  });
}

async function loadLlama(plan: LoadPlan): Promise<LoadedLlama> {
  const modelPath = await resolveModelPath(plan.settings);
  const llama = await startRuntime(plan);
  const { LlamaChat } = await import('node-llama-cpp');
  let model: LlamaModel | undefined;
  try {
    model = await llama.loadModel({ modelPath });
    const contextSize = plan.settings.contextSize ?? Math.min(model.trainContextSize, MAX_DEFAULT_CONTEXT_SIZE);
    const context = await model.createContext({ contextSize, threads: plan.threads, sequences: 1 });
    const sequence = context.getSequence();
    const grammars = new Map<number, Promise<LlamaGrammar>>();
    const grammarFor = (maxMessageChars: number) => {
      const grammar = grammars.get(maxMessageChars) ?? llama.createGrammar({ grammar: buildReplyGrammar(maxMessageChars) });
      grammars.set(maxMessageChars, grammar);
      return grammar;
    };
    const jsonGrammars = new Map<string, Promise<LlamaGrammar>>();
    const jsonGrammarFor = (schema: Readonly<Record<string, unknown>>) => {
      const key = JSON.stringify(schema);
      const grammar = jsonGrammars.get(key) ?? llama.createGrammarForJsonSchema(grammarJsonSchema(schema) as never);
      jsonGrammars.set(key, grammar);
      return grammar;
    };
    const tokens = (text: string) => model!.tokenize(text).length;
    return {
      model,
      sequence,
      chat: new LlamaChat({ contextSequence: sequence }),
      queue: new SerialQueue(),
      charsPerToken: PROSE_SAMPLE.length / Math.max(1, tokens(PROSE_SAMPLE)),
      formatTokens: tokens(FORMAT_SKELETON),
      grammarFor,
      jsonGrammarFor,
    };
  } catch (error) {
    // A model that loaded but got no context would otherwise hold its memory until exit.
    await model?.dispose();
    throw callFailure(
      plan.settings,
      'api',
      `could not load ${modelPath} (${messageOf(error)}): check that it is a GGUF model and that it fits in memory`,
      error,
    );
  }
}

/** Loads on first use; later calls with the same plan share the load. A failed load is forgotten so that a fix takes effect. */
export function loadCached(plan: LoadPlan): Promise<LoadedLlama> {
  const { model, contextSize } = plan.settings;
  const key = JSON.stringify([model, plan.gpu, plan.threads, contextSize ?? null]);
  let loading = loadedModels.get(key);
  if (!loading) {
    loading = loadLlama(plan);
    loadedModels.set(key, loading);
    loading.catch(() => loadedModels.delete(key));
  }
  return loading;
}
