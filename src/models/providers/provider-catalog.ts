/**
 * What pmiyc knows about each provider prefix: how it is reached and what it needs.
 * Pure data, read by model resolution, `pmiyc models` and the config schema.
 */
export interface ProviderInfo {
  readonly name: string;
  readonly description: string;
  /** How the adapter talks to it. */
  readonly kind: 'openai' | 'azure' | 'anthropic' | 'google' | 'openai-compatible' | 'llama' | 'sim';
  /** The environment variable that holds the API key unless `apiKeyEnv` says otherwise. */
  readonly apiKeyEnv?: string;
  readonly apiKeyRequired: boolean;
  /** An environment variable that may set the base URL, and the default when it is absent. */
  readonly baseURLEnv?: string;
  readonly defaultBaseURL?: string;
  /** The base URL must come from config or environment (no sensible default). */
  readonly baseURLRequired?: boolean;
  /**
   * Does the provider accept a sampling seed? When not (Anthropic), the adapter sends none and the
   * seed is only recorded (it still tells repetitions apart in the call store).
   */
  readonly supportsSeed: boolean;
}

export const PROVIDERS: readonly ProviderInfo[] = [
  {
    name: 'openai',
    kind: 'openai',
    description: 'OpenAI chat completions',
    apiKeyEnv: 'OPENAI_API_KEY',
    apiKeyRequired: true,
    baseURLEnv: 'OPENAI_BASE_URL',
    defaultBaseURL: 'https://api.openai.com/v1',
    supportsSeed: true,
  },
  {
    name: 'azure',
    kind: 'azure',
    description: 'Azure OpenAI (the model part is your deployment name)',
    apiKeyEnv: 'AZURE_API_KEY',
    apiKeyRequired: true,
    baseURLEnv: 'AZURE_BASE_URL',
    supportsSeed: true,
  },
  {
    name: 'anthropic',
    kind: 'anthropic',
    description: 'Anthropic messages',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    apiKeyRequired: true,
    baseURLEnv: 'ANTHROPIC_BASE_URL',
    defaultBaseURL: 'https://api.anthropic.com/v1',
    supportsSeed: false,
  },
  {
    name: 'google',
    kind: 'google',
    description: 'Google Gemini API',
    apiKeyEnv: 'GOOGLE_GENERATIVE_AI_API_KEY',
    apiKeyRequired: true,
    baseURLEnv: 'GOOGLE_BASE_URL',
    defaultBaseURL: 'https://generativelanguage.googleapis.com/v1beta',
    supportsSeed: true,
  },
  {
    name: 'openai-compatible',
    kind: 'openai-compatible',
    description: 'any OpenAI-compatible server (vLLM, SGLang, LM Studio, llama.cpp server, ...); needs a base URL',
    apiKeyEnv: 'OPENAI_COMPATIBLE_API_KEY',
    apiKeyRequired: false,
    baseURLEnv: 'OPENAI_COMPATIBLE_BASE_URL',
    baseURLRequired: true,
    supportsSeed: true,
  },
  {
    name: 'ollama',
    kind: 'openai-compatible',
    description: 'a local Ollama server',
    apiKeyRequired: false,
    baseURLEnv: 'OLLAMA_BASE_URL',
    defaultBaseURL: 'http://127.0.0.1:11434/v1',
    supportsSeed: true,
  },
  {
    name: 'vllm',
    kind: 'openai-compatible',
    description: 'a vLLM server',
    apiKeyEnv: 'VLLM_API_KEY',
    apiKeyRequired: false,
    baseURLEnv: 'VLLM_BASE_URL',
    defaultBaseURL: 'http://127.0.0.1:8000/v1',
    supportsSeed: true,
  },
  {
    name: 'openrouter',
    kind: 'openai-compatible',
    description: 'OpenRouter',
    apiKeyEnv: 'OPENROUTER_API_KEY',
    apiKeyRequired: true,
    defaultBaseURL: 'https://openrouter.ai/api/v1',
    supportsSeed: true,
  },
  {
    name: 'together',
    kind: 'openai-compatible',
    description: 'Together AI',
    apiKeyEnv: 'TOGETHER_API_KEY',
    apiKeyRequired: true,
    defaultBaseURL: 'https://api.together.xyz/v1',
    supportsSeed: true,
  },
  {
    name: 'llama',
    kind: 'llama',
    description: 'a GGUF model run in-process by llama.cpp (llama/<path.gguf> or llama/hf:<user>/<repo>/<file>.gguf)',
    apiKeyRequired: false,
    supportsSeed: true,
  },
  {
    name: 'sim',
    kind: 'sim',
    description: 'a simulated agent with planted traits (sim/<profile>?persuasiveness=..&susceptibility=..&malformed=..)',
    apiKeyRequired: false,
    supportsSeed: true,
  },
];

export const PROVIDER_NAMES = PROVIDERS.map((provider) => provider.name);

export function findProvider(name: string): ProviderInfo | undefined {
  return PROVIDERS.find((provider) => provider.name === name);
}
