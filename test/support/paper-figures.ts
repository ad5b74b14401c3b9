/** Persuadees of the paper's Figure 4, in its column order. */
export const FIGURE_4_PERSUADEES = ['Claude 3 Haiku', 'Llama-3.1-8B', 'GPT-4o-mini', 'GPT-4o', 'Llama-3.3-70B'];

/**
 * The paper's Figure 4 (multi-turn, subjective), as SPEC.md gives it: mean NC, rows persuaders,
 * columns `FIGURE_4_PERSUADEES`; printed with two decimals.
 */
export const FIGURE_4: Readonly<Record<string, readonly number[]>> = {
  'Llama-3.3-70B': [0.82, 0.53, 0.66, 0.7, 0.71],
  'GPT-4o': [0.8, 0.56, 0.64, 0.64, 0.75],
  'GPT-4o-mini': [0.8, 0.51, 0.6, 0.63, 0.68],
  'Llama-3.1-8B': [0.77, 0.52, 0.52, 0.61, 0.61],
  'Claude 3 Haiku': [0.66, 0.29, 0.39, 0.44, 0.55],
};

/** Figure 2 (single-turn, subjective; read from the released figure images): seven persuaders, the same columns. */
const FIGURE_2: Readonly<Record<string, readonly number[]>> = {
  'Llama-3.3-70B': [0.5, 0.62, 0.51, 0.44, 0.68],
  'GPT-4o': [0.51, 0.6, 0.49, 0.4, 0.69],
  'GPT-4o-mini': [0.5, 0.59, 0.48, 0.45, 0.64],
  'Llama-3.1-8B': [0.45, 0.51, 0.35, 0.35, 0.55],
  'Claude 3 Haiku': [0.44, 0.51, 0.32, 0.32, 0.54],
  'Claude 2': [0.31, 0.33, 0.12, 0.15, 0.29],
  'Claude 3 Opus': [0.51, 0.64, 0.59, 0.43, 0.61],
};

/** Figure 5 (multi-turn, misinformation; read from the released figure images). */
const FIGURE_5: Readonly<Record<string, readonly number[]>> = {
  'Llama-3.3-70B': [0.63, 0.69, 0.26, 0.36, 0.65],
  'GPT-4o': [0.61, 0.69, 0.21, 0.3, 0.64],
  'GPT-4o-mini': [0.59, 0.66, 0.2, 0.28, 0.65],
  'Llama-3.1-8B': [0.6, 0.68, 0.16, 0.22, 0.55],
  'Claude 3 Haiku': [0.56, 0.57, 0.1, 0.13, 0.34],
};

/** Figure 3 as printed: effectiveness per persuader and susceptibility per persuadee, in each figure's setting. */
export const FIGURE_3 = {
  'single-turn subjective (Figure 2)': {
    matrix: FIGURE_2,
    effectiveness: {
      'Llama-3.3-70B': 0.55,
      'GPT-4o': 0.54,
      'GPT-4o-mini': 0.53,
      'Llama-3.1-8B': 0.44,
      'Claude 3 Haiku': 0.43,
      'Claude 2': 0.24,
      'Claude 3 Opus': 0.56,
    },
    susceptibility: { 'Claude 3 Haiku': 0.46, 'Llama-3.1-8B': 0.54, 'GPT-4o-mini': 0.41, 'GPT-4o': 0.36, 'Llama-3.3-70B': 0.57 },
  },
  'multi-turn subjective (Figure 4)': {
    matrix: FIGURE_4,
    effectiveness: { 'Llama-3.3-70B': 0.68, 'GPT-4o': 0.68, 'GPT-4o-mini': 0.65, 'Llama-3.1-8B': 0.6, 'Claude 3 Haiku': 0.47 },
    susceptibility: { 'Claude 3 Haiku': 0.77, 'Llama-3.1-8B': 0.48, 'GPT-4o-mini': 0.56, 'GPT-4o': 0.61, 'Llama-3.3-70B': 0.66 },
  },
  'multi-turn misinformation (Figure 5)': {
    matrix: FIGURE_5,
    effectiveness: { 'Llama-3.3-70B': 0.52, 'GPT-4o': 0.49, 'GPT-4o-mini': 0.48, 'Llama-3.1-8B': 0.44, 'Claude 3 Haiku': 0.34 },
    susceptibility: { 'Claude 3 Haiku': 0.6, 'Llama-3.1-8B': 0.66, 'GPT-4o-mini': 0.19, 'GPT-4o': 0.26, 'Llama-3.3-70B': 0.57 },
  },
} as const;
