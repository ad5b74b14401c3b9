/**
 * A config that is a YAML alias bomb (billion laughs): nine lists, each of nine aliases of the one
 * before, 9^9 values from 300 bytes. Its 9th line holds the alias where expansions pass 100.
 */
export const ALIAS_BOMB_CONFIG = [
  'models:',
  '  alpha:',
  '    provider: openai',
  '    model: x',
  '    providerOptions:',
  '      a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
  ...['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].map((name, index) => `      ${name}: &${name} [${Array(9).fill(`*${'abcdefgh'[index]}`).join(', ')}]`),
  '',
].join('\n');
