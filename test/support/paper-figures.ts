/** Persuadees of the paper's Figure 4, in its column order. */
export const FIGURE_4_PERSUADEES = ['Claude 3 Haiku', 'Llama-3.1-8B', 'GPT-4o-mini', 'GPT-4o', 'Llama-3.3-70B'];

/**
 * The paper's Figure 4 (multi-turn, subjective), as SPEC.md gives it: mean NC, rows persuaders,
 * columns `FIGURE_4_PERSUADEES`. Figures 2 and 5 are not available as numbers.
 */
export const FIGURE_4: Readonly<Record<string, readonly number[]>> = {
  'Llama-3.3-70B': [0.82, 0.53, 0.66, 0.7, 0.71],
  'GPT-4o': [0.8, 0.56, 0.64, 0.64, 0.75],
  'GPT-4o-mini': [0.8, 0.51, 0.6, 0.63, 0.68],
  'Llama-3.1-8B': [0.77, 0.52, 0.52, 0.61, 0.61],
  'Claude 3 Haiku': [0.66, 0.29, 0.39, 0.44, 0.55],
};
