/**
 * The keywords OpenAI's structured outputs take in strict mode (its documented subset of JSON
 * Schema): the shape (types, properties, items, enums, unions, references) and a few bounds.
 * Any other keyword (`uniqueItems`, `minLength`, `patternProperties`, `allOf`, `not`, `default`,
 * ...) makes the request fail with 400 "Invalid schema", so it is left out of what is sent. The
 * reply is read strictly by the caller either way, which still enforces what was left out.
 */
const STRICT_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
  'title',
  'description',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);

/** Keywords whose value is a map of names to schemas. */
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions']);
/** Keywords whose value is one schema (`additionalProperties` may also be a boolean). */
const SCHEMA_VALUES = new Set(['items', 'additionalProperties']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A copy of `schema` with only the keywords OpenAI's strict mode supports, at every level
 * (properties, items, unions, definitions). Values that are data (`enum`, `const`, `required`,
 * property names) are kept as they are. The input is not changed.
 */
export function strictResponseSchema(schema: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (!STRICT_KEYWORDS.has(keyword)) continue;
    if (SCHEMA_MAPS.has(keyword) && isRecord(value)) {
      copy[keyword] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, isRecord(sub) ? strictResponseSchema(sub) : sub]));
    } else if (SCHEMA_VALUES.has(keyword) && isRecord(value)) {
      copy[keyword] = strictResponseSchema(value);
    } else if (keyword === 'anyOf' && Array.isArray(value)) {
      copy[keyword] = value.map((sub) => (isRecord(sub) ? strictResponseSchema(sub) : sub));
    } else {
      copy[keyword] = value;
    }
  }
  return copy;
}
