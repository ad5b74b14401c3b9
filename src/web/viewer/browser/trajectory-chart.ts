import type { Turn } from '../../../domain/conversation.js';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 320;
const HEIGHT = 130;

/** The persuadee's agreement by turn as a small SVG line chart; its numbers are text nodes. */
export function trajectory(turns: readonly Turn[]): SVGSVGElement {
  const points = turns.filter((turn) => turn.role === 'persuadee');
  const x = (index: number) => 30 + (points.length <= 1 ? 0 : (index * (WIDTH - 50)) / (points.length - 1));
  const y = (score: number) => 10 + ((5 - score) * (HEIGHT - 35)) / 4;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', 'trajectory');
  svg.setAttribute('width', String(WIDTH));
  svg.setAttribute('height', String(HEIGHT));
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `persuadee agreement by turn: ${points.map((turn) => turn.score).join(', ')}`);
  const add = (tag: string, attributes: Readonly<Record<string, string | number>>, text?: string) => {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
    if (text !== undefined) node.textContent = text;
    svg.append(node);
  };
  for (let score = 1; score <= 5; score += 1) {
    add('line', { x1: 26, x2: WIDTH - 15, y1: y(score), y2: y(score), stroke: '#dde1e8' });
    add('text', { x: 4, y: y(score) + 4, 'font-size': 11, fill: '#5b6170' }, String(score));
  }
  add('polyline', {
    points: points.map((turn, index) => `${x(index)},${y(turn.score)}`).join(' '),
    fill: 'none',
    stroke: '#2b6cb0',
    'stroke-width': 2,
  });
  points.forEach((turn, index) => {
    add('circle', { cx: x(index), cy: y(turn.score), r: 4, fill: '#2b6cb0' });
    add('text', { x: x(index) - 4, y: HEIGHT - 6, 'font-size': 10, fill: '#5b6170' }, String(turn.index));
  });
  return svg;
}
